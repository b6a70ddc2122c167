/* SPDX-License-Identifier: MIT */
/* explain_main.c: a benchmark program's --explain: each selected benchmark explained in turn
 * (its progress on stderr), then one report in the format asked, through --explain's writer
 * table (report/bench/bench_explain_report.c). */
#include <stdio.h>
#include <stdlib.h>

#include "program/explain_main.h"
#include "program/prog.h"
#include "report/bench/bench_report.h"
#include "runner/runner.h"
#include "tickscope/asm_explain.h"
#include "tickscope/sys.h"

int tks__explain_check(const tks_options *o, char *err, size_t errlen)
{
    const char *with = o->compare ? "--compare" : o->html ? "--html" : o->raw ? "--raw"
                     : o->plot_dir ? "--plot" : o->histogram ? "--histogram"
                     : o->report_file ? "--benchmark_out" : o->processes > 1 ? "--processes"
                     : o->repetitions > 1 ? "--repetitions" : o->isolate ? "--isolate"
                     : o->disasm ? "--disasm" : o->dry_run ? "--benchmark_dry_run" : NULL;
    char list[64];
    if (with) {
        snprintf(err, errlen, "--explain runs its own experiments and writes its own report: "
                 "leave out %s", with);
        return 2;
    }
    if (!tks__writers_find(&tks__bench_explain_writers, o->format)) {
        snprintf(err, errlen, "--explain writes %s, not the format asked",
                 tks__writers_list(&tks__bench_explain_writers, list, sizeof list));
        return 2;
    }
    return 0;
}

int tks__explain_main(const tks_options *o, const tks_platform *p, const tks__explain_item *v,
                      size_t n, const char *prog)
{
    tks_explain_result *r = calloc(n ? n : 1, sizeof *r);
    const char **names = calloc(n ? n : 1, sizeof *names);
    const char *out = o->out && *o->out ? o->out : "-";
    tks__atomic_file af;
    char why[300];
    uint64_t levels[TKS_SYS_LEVEL_MAX];
    size_t nl = tks_sys_level_bytes(NULL, levels, TKS_SYS_LEVEL_MAX);
    int failures = 0, rc;
    if (!r || !names) {
        free(r);
        free(names);
        return tks__prog_error(prog, 1, "%s", tks_strerror(TKS_ENOMEM));
    }
    if ((rc = tks__atomic_open(&af, out)) != 0) {
        free(r);
        free(names);
        return tks__prog_error(prog, 1, "%s", tks__atomic_failure(&af, rc, out, why, sizeof why));
    }
    for (size_t i = 0; i < n; i++) {
        names[i] = v[i].name;
        if (!o->quiet)
            fprintf(stderr, "%s: explaining %s (%zu/%zu)\n", prog, v[i].name, i + 1, n);
        if ((rc = tks__explain_benchmark(o, p, v[i].spec, v[i].args, levels, nl, &r[i])) != 0) {
            failures++;
            if (rc == TKS_EUNAVAIL && !r[i].n) { /* not this architecture: say it once */
                tks__atomic_abort(&af);
                rc = tks__prog_error(prog, 1, "%s", r[i].error);
                free(r);
                free(names);
                return rc;
            }
        }
    }
    rc = tks__writers_write(&tks__bench_explain_writers, o->format, af.f,
                            &(tks__bench_explain_doc){p, r, names, n});
    if (rc == 0)
        rc = tks__atomic_commit(&af);
    else
        tks__atomic_abort(&af);
    free(r);
    free(names);
    if (rc)
        return tks__prog_error(prog, 1, "cannot write the report to %s: %s", out,
                               tks_strerror(rc));
    return failures ? 1 : 0;
}
