/* SPDX-License-Identifier: MIT */
/* bench_sys.c: the targets of `tickscope sys` (issue 17), printed with MET / NOT MET:
 *   - the whole --quick run under 20 s, the default run under 2 minutes;
 *   - getppid in a stream and the one-CPU pipe round trip within 10% of perf bench's figures
 *     for the same (perf pinned to that CPU), in the same run;
 *   - every operation's interval narrower than 5% (half-width over the estimate);
 *   - each cache level /sys reports within one step of a knee of the latency curve;
 *   - the L1 latency in core cycles against the published figure for this CPU;
 *   - two --quick runs agreeing within 5% on every operation under a millisecond.
 * Usage: bench_sys [ignored] [--no-default]   (make bench passes the tickscope binary) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "tickscope.h"

#define SUITES TKS_SYS_SUITE_COUNT

/* Published L1 data-cache load-to-use latency (integer loads, simple addressing as the chase's
 * mov (%rax),%rax): the vendors' optimisation manuals. */
static int published_l1(const tks_cpu_identity *c, const char **source)
{
    if (!strcmp(c->vendor, "AuthenticAMD") && (c->family == 0x17 || c->family == 0x19 || c->family == 0x1a)) {
        *source = c->family == 0x1a ? "AMD Software Optimization Guide for the Zen 5 Microarchitecture "
                                      "(pub. 58455): 4-cycle L1 load-to-use"
                  : c->family == 0x19 ? "AMD Software Optimization Guide for Family 19h (pub. 56665): "
                                        "4-cycle L1 load-to-use"
                                      : "AMD Software Optimization Guide for Family 17h (pub. 55723): "
                                        "4-cycle L1 load-to-use";
        return 4;
    }
    if (!strcmp(c->vendor, "GenuineIntel") && c->family == 6) {
        switch (c->model) {
        case 0x97: case 0x9a: case 0x8f: case 0xcf: case 0xb7: case 0xba: case 0xbf:
            *source = "Intel 64 and IA-32 Optimization Reference Manual, Golden Cove / Raptor Cove: "
                      "5-cycle L1 load-to-use";
            return 5;
        case 0x4e: case 0x5e: case 0x55: case 0x8e: case 0x9e: case 0xa5: case 0xa6:
            *source = "Intel 64 and IA-32 Optimization Reference Manual, Skylake: 4 cycles for a "
                      "simple-addressing load";
            return 4;
        default:
            break;
        }
    }
    *source = "no published figure for this CPU in bench_sys";
    return 0;
}

static int run_all(const tks_platform *p, int quick, tks_sys_result **res, double *seconds)
{
    tks_sys_options o;
    double t0 = bench_now();
    tks_sys_options_init(&o);
    o.quick = quick;
    for (int s = 0; s < SUITES; s++) {
        int rc = tks_sys_run((enum tks_sys_suite)s, &o, p, &res[s]);
        if (rc != 0) {
            fprintf(stderr, "bench_sys: %s: %s\n", tks_sys_suite_name((enum tks_sys_suite)s),
                    tks_strerror(rc));
            for (int k = 0; k <= s; k++)
                tks_sys_result_free(res[k]);
            return 1;
        }
    }
    *seconds = bench_now() - t0;
    return 0;
}

static const tks_sys_op *find(tks_sys_result *const *res, const char *id)
{
    for (int s = 0; s < SUITES; s++)
        for (size_t i = 0; i < res[s]->n_ops; i++)
            if (!strcmp(res[s]->ops[i].id, id))
                return &res[s]->ops[i];
    return NULL;
}

static const tks_interval *figure_iv(const tks_sys_op *op)
{
    return op->core_source != TKS_CORE_NONE ? &op->cycles : &op->ticks;
}

static double figure(const tks_sys_op *op) { return figure_iv(op)->value; }

static void intervals(tks_sys_result *const *res, const char *label)
{
    size_t n = 0, met = 0;
    printf("\nIntervals (%s run): half-width / estimate under 5%%\n", label);
    for (int s = 0; s < SUITES; s++)
        for (size_t i = 0; i < res[s]->n_ops; i++) {
            const tks_sys_op *op = &res[s]->ops[i];
            double w;
            if (!op->ok)
                continue;
            w = (op->ticks.hi - op->ticks.lo) / 2 / fabs(op->ticks.value);
            n++;
            if (w < 0.05)
                met++;
            else
                printf("  %-20s +-%.1f%%\n", op->id, 100 * w);
        }
    printf("  %zu of %zu operations under 5%%: %s\n", met, n, met == n ? "MET" : "NOT MET");
}

static void knees(const tks_sys_result *m)
{
    printf("\nKnees of the curve against /sys (one step = one point of the curve)\n");
    for (size_t c = 0; c < m->n_caches; c++) {
        size_t at = SIZE_MAX, best = SIZE_MAX, dist = SIZE_MAX;
        for (size_t i = 0; i < m->n_curve; i++)
            if (m->curve[i].bytes == m->caches[c].bytes ||
                (at == SIZE_MAX && m->curve[i].bytes > m->caches[c].bytes))
                at = i;
        for (size_t k = 0; k < m->n_knees; k++)
            for (size_t i = 0; i < m->n_curve; i++)
                if (m->curve[i].bytes == m->knees[k] && at != SIZE_MAX) {
                    size_t d = i > at ? i - at : at - i;
                    if (d < dist) {
                        dist = d;
                        best = k;
                    }
                }
        printf("  L%d %8zu KiB: nearest knee %s%zu KiB, %zu step(s) away: %s\n",
               m->caches[c].level, m->caches[c].bytes >> 10, best == SIZE_MAX ? "none " : "",
               best == SIZE_MAX ? (size_t)0 : m->knees[best] >> 10,
               dist == SIZE_MAX ? (size_t)0 : dist, dist <= 1 ? "MET" : "NOT MET");
        if (dist > 1 && m->caches[c].level >= 1 && m->caches[c].level <= 3) {
            /* the level row says what the curve shows instead, with its figures */
            static const char *const ids[] = {"lat_l1", "lat_l2", "lat_l3"};
            for (size_t i = 0; i < m->n_ops; i++)
                if (!strcmp(m->ops[i].id, ids[m->caches[c].level - 1]))
                    for (size_t w = 0; w < m->ops[i].diags.n; w++) {
                        char *msg = tks_diag_message(&m->ops[i].diags.items[w]);
                        printf("    %s\n", msg ? msg : "?");
                        free(msg);
                    }
        }
    }
}

static void agreement(tks_sys_result *const *a, tks_sys_result *const *b)
{
    size_t n = 0, met = 0;
    printf("\nTwo --quick runs, operations under a millisecond (core cycles; ticks without them)\n");
    for (int s = 0; s < SUITES; s++)
        for (size_t i = 0; i < a[s]->n_ops; i++) {
            const tks_sys_op *x = &a[s]->ops[i], *y = find(b, x->id);
            double d;
            if (!x->ok || !y || !y->ok || !(x->ns.value < 1e6))
                continue;
            d = figure(x) / figure(y) - 1;
            n++;
            if (fabs(d) <= 0.05)
                met++;
            else
                /* intervals apart: the machine changed between the runs, more windows would not
                 * bring them together; overlapping: too few windows */
                printf("  %-20s %10.4g vs %10.4g  %+.1f%%  intervals %s\n", x->id, figure(x),
                       figure(y), 100 * d,
                       figure_iv(x)->hi < figure_iv(y)->lo || figure_iv(y)->hi < figure_iv(x)->lo
                           ? "apart: the machine changed between the runs"
                           : "overlap: too few windows");
        }
    printf("  %zu of %zu within 5%%: %s\n", met, n, met == n ? "MET" : "NOT MET");
}

/* The target holds for the rows that time the same thing the same way: syscall basic beside
 * getppid in a stream, sched pipe pinned to one CPU beside our one-CPU round trip. The unpinned
 * pipe and memcpy are printed without one. */
static void versus_perf(tks_sys_result *const *res, const tks_platform *p)
{
    tks_sys_perf_row rows[TKS_SYS_PERF_MAX];
    tks_sys_options o;
    size_t n, like = 0, met = 0;
    tks_sys_options_init(&o);
    n = tks_sys_versus_perf(res, SUITES, &o, p, rows, TKS_SYS_PERF_MAX);
    printf("\nperf bench in the same run (target: within 10%% where like for like)\n");
    for (size_t i = 0; i < n; i++) {
        const tks_sys_perf_row *r = &rows[i];
        int target = r->like_for_like;
        if (!r->ok) {
            printf("  %-28s not run: %s\n", r->what, r->error);
            like += target;
            continue;
        }
        like += target;
        met += target && fabs(r->gap) <= 0.10;
        printf("  %-28s perf %.4g %s [%.4g, %.4g], ours %.4g (%s): %+.1f%% %s\n", r->what,
               r->perf_value, r->unit, r->perf_lo, r->perf_hi, r->ours_value, r->ours_id,
               100 * r->gap,
               !target ? "(no target: not like for like)" : fabs(r->gap) <= 0.10 ? "MET" : "NOT MET");
        if (r->ours_runs)
            printf("  %-28s ours: the median of %d measured right before each of perf's runs\n",
                   "", r->ours_runs);
        printf("  %-28s perf on a CPU for %.0f%% of its wall time (rusage)", "", 100 * r->perf_on_cpu);
        if (target)
            printf("; perf's figure on a CPU %.4g, ours %+.1f%% from it", r->perf_value * r->perf_on_cpu,
                   100 * (r->ours_value / (r->perf_value * r->perf_on_cpu) - 1));
        printf("\n");
        if (!isnan(r->gap_all))
            printf("  %-28s ours with every window counted %.4g: %+.1f%%\n", "",
                   r->ours_all_value, 100 * r->gap_all);
        if (r->alt_id[0])
            printf("  %-28s ours measured the other way, %s: %.4g (%+.1f%%)\n", "", r->alt_id,
                   r->alt_value, 100 * (r->alt_value / r->perf_value - 1));
        for (size_t d = 0; d < r->diags.n; d++) {
            char *msg = tks_diag_message(&r->diags.items[d]);
            printf("    why: %s\n", msg ? msg : tks_diag_info_of(r->diags.items[d].code)->id);
            free(msg);
        }
    }
    tks_sys_perf_rows_free(rows, n);
    printf("  %zu of %zu like-for-like comparisons within 10%%: %s\n", met, like,
           like && met == like ? "MET" : "NOT MET");
}

static int bench_main(int argc, char **argv)
{
    tks_platform_options po;
    tks_platform p;
    tks_sys_result *q1[SUITES], *q2[SUITES], *full[SUITES];
    double t1, t2, tf = 0;
    const char *src;
    int no_default = argc > 1 && !strcmp(argv[argc - 1], "--no-default"), want;
    tks_platform_options_init(&po);
    if (tks_platform_probe(&po, &p) != 0) {
        fprintf(stderr, "bench_sys: cannot examine this machine\n");
        return 1;
    }
    printf("bench_sys: %s (%s family 0x%x model 0x%x), TSC %.1f MHz\n", p.cpu.brand, p.cpu.vendor,
           p.cpu.family, p.cpu.model, p.tsc_hz / 1e6);
    {
        double load[3] = {0, 0, 0};
        if (getloadavg(load, 1) == 1)
            printf("load average before the runs: %.2f\n", load[0]);
    }
    if (run_all(&p, 1, q1, &t1) || run_all(&p, 1, q2, &t2))
        return 1;
    printf("\n--quick, all three suites: %.1f s and %.1f s; target < 20 s: %s\n", t1, t2,
           t1 < 20 && t2 < 20 ? "MET" : "NOT MET");
    if (!no_default) {
        if (run_all(&p, 0, full, &tf))
            return 1;
        printf("default, all three suites: %.1f s; target < 120 s: %s\n", tf,
               tf < 120 ? "MET" : "NOT MET");
    }
    tks_sys_result *const *main_run = no_default ? q1 : full;
    versus_perf(main_run, &p);
    intervals(main_run, no_default ? "first --quick" : "default");
    knees(main_run[TKS_SYS_MEM]);
    want = published_l1(&p.cpu, &src);
    {
        const tks_sys_op *l1 = find(main_run, "lat_l1");
        printf("\nL1 latency: ");
        if (!l1 || !l1->ok)
            printf("not measured\n");
        else if (!want)
            printf("%.2f core cycles; %s\n", l1->cycles.value, src);
        else
            printf("%.2f core cycles [%.2f, %.2f] (%s), published %d (%s): %s\n", l1->cycles.value,
                   l1->cycles.lo, l1->cycles.hi,
                   l1->core_source == TKS_CORE_INTERLEAVED ? "interleaved add-chain reference"
                                                           : "per-boot core clock",
                   want, src, fabs(l1->cycles.value - want) <= 0.5 ? "MET" : "NOT MET");
    }
    agreement(q1, q2);
    for (int s = 0; s < SUITES; s++) {
        tks_sys_result_free(q1[s]);
        tks_sys_result_free(q2[s]);
        if (!no_default)
            tks_sys_result_free(full[s]);
    }
    tks_platform_free(&p);
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_sys [path/to/tickscope]\ntickscope sys against its targets: perf bench, the cache sizes /sys reports, published L1 latency, two --quick runs.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
