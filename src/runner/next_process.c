/* SPDX-License-Identifier: MIT */
/* next_process.c: the default run's check that its interval is not within-process only. One
 * process cannot see what it draws once for all its windows (the physical pages behind its
 * data, its address layout): a pointer chase over a 512 KiB ring read 17.8 to 21.1 core cycles
 * a load in ten processes, each with an interval of +-1.3% (issue 30). So after the run, the
 * program is run again for the same benchmark for a quarter of its time (TKS_WITHIN_PROCESSES
 * times at most, while they agree), and when the two processes' figures differ beyond both
 * intervals (stats/within.h), the result says so in bench.within_process, with the way to an
 * interval that holds the next process (--processes N). The headline stays this process's. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "runner/child.h"
#include "runner/runner.h"
#include "base/diag.h"
#include "stats/within.h"

/* A second process's share of the run's sampling time: its interval is about twice as wide as
 * the run's; what the default run costs beside --processes 1 is measured by bench_rings. */
#define NEXT_SHARE 0.25

/* 1 when next's figure and r's differ, r then carrying the diagnostic. */
int tks__next_process_judge(tks_result *r, const tks_result *next)
{
    int cycles = isfinite(r->core_cycles.value) && isfinite(next->core_cycles.value);
    const tks_interval *a = cycles ? &r->core_cycles : &r->estimate;
    const tks_interval *b = cycles ? &next->core_cycles : &next->estimate;
    if (!tks__processes_differ(a, b, TKS_WITHIN_FLOOR))
        return 0;
    tks__diag(&r->diags, TKS_DIAG_BENCH_WITHIN_PROCESS, TKS__DS(cycles ? "core cycles" : "ticks"),
              TKS__DN(a->value), TKS__DN(b->value), TKS__DN(100 * (b->value / a->value - 1)));
    return 1;
}

void tks__next_process(int argc, char **argv, const tks_options *o, const tks_platform *p,
                       const char *name, const tks_benchmark_spec *spec, const tks_args *args,
                       tks_result *r)
{
    tks_options shorter;
    tks_result next;
    char opt[64], **a;
    if (!r->ok || r->skipped || o->dry_run || argc < 1 ||
        !(a = calloc((size_t)argc + 2, sizeof *a)))
        return;
    shorter = *o;
    shorter.min_time = (o->min_time > 0 ? o->min_time : 0.2) * NEXT_SHARE;
    if (o->windows) /* a fixed number of windows: a quarter of them, at least 100 */
        shorter.windows = o->windows / 4 > 100 ? o->windows / 4 : 100;
    if (o->windows)
        snprintf(opt, sizeof opt, "--benchmark_min_time=%lux", shorter.windows);
    else
        snprintf(opt, sizeof opt, "--min-time=%.17g", shorter.min_time);
    memcpy(a, argv, (size_t)argc * sizeof *a);
    a[argc] = opt;
    for (int k = 0, done = 0; k < TKS_WITHIN_PROCESSES && !done; k++) {
        tks__child_fresh(argc + 1, a, &shorter, p, name, spec, args, &next);
        done = next.ok ? tks__next_process_judge(r, &next) : 1; /* a failed second process: no more */
        tks_result_free(&next);
    }
    free(a);
}
