/* SPDX-License-Identifier: MIT */
/* bench_core.c: how stable the counter-less core clock is: ten separate measurements, their
 * median, range and relative range (target: within 1%), the wall time of each call, the add check
 * on the chain (another thread on the core slows its adds), and the core frequency at the TSC rate
 * given as argv[1] in Hz, else at the rate measured here (`make bench` passes a path, which is not
 * a rate). */
#include "child.h"
#include "report/common/report.h" /* the add check's verdict by name, as info and JSON give it */
#include "tickscope.h"

#define CALLS 10

static int bench_main(int argc, char **argv)
{
    tks_core_clock c;
    double cpt[CALLS], sorted[CALLS], ms[CALLS], tsc_hz = 0, med, lo, hi;
    int i, rc;
    if (argc > 1) {
        char *end;
        tsc_hz = strtod(argv[1], &end);
        if (*end != 0 || !(tsc_hz > 0))
            tsc_hz = 0;
    }
    if (!(tsc_hz > 0)) {
        tks_tsc_calibration cal;
        if (tks_tsc_calibrate(0, &cal) == 0) {
            tsc_hz = cal.hz;
            printf("TSC rate measured against CLOCK_MONOTONIC_RAW: %.6f MHz\n", tsc_hz / 1e6);
        }
    }
    printf("call  cycles/tick   spread%%   ms/call  add check        %s\n",
           tsc_hz > 0 ? "   core GHz" : "");
    for (i = 0; i < CALLS; i++) {
        double t0 = bench_now();
        rc = tks_core_clock_measure(&c);
        ms[i] = (bench_now() - t0) * 1e3;
        if (rc != 0) {
            fprintf(stderr, "bench_core: tks_core_clock_measure: %s\n", tks_strerror(rc));
            return 1;
        }
        cpt[i] = c.cycles_per_tick;
        if (i + 1 < CALLS)
            tks_diags_free(&c.counter_diags); /* the last call's is printed below */
        printf("%4d  %11.5f  %8.4f  %8.2f  %-8s %6.4f", i + 1, c.cycles_per_tick, 100 * c.spread,
               ms[i], tks__report_add_check_name(c.add_check.verdict), c.add_check.add_cycles);
        if (tsc_hz > 0)
            printf("  %9.4f", c.cycles_per_tick * tsc_hz * 1e-9);
        printf("\n");
    }
    for (i = 0; i < CALLS; i++)
        sorted[i] = cpt[i];
    qsort(sorted, CALLS, sizeof sorted[0], bench_cmp_double);
    med = (sorted[CALLS / 2 - 1] + sorted[CALLS / 2]) / 2;
    lo = sorted[0];
    hi = sorted[CALLS - 1];
    printf("chains: %llu and %llu adds, %u rounds per call\n", (unsigned long long)c.adds_short,
           (unsigned long long)c.adds_long, c.rounds);
    printf("across %d calls: median %.5f, min %.5f, max %.5f, (max-min)/median %.3f%% "
           "(target < 1%%)\n", CALLS, med, lo, hi, 100 * (hi - lo) / med);
    if (tsc_hz > 0)
        printf("core clock at a TSC of %.6g Hz: median %.4f GHz (%.4f .. %.4f)\n", tsc_hz,
               med * tsc_hz * 1e-9, lo * tsc_hz * 1e-9, hi * tsc_hz * 1e-9);
    else
        printf("core clock: give the TSC rate in Hz as the first argument to convert the ratio\n");
    qsort(ms, CALLS, sizeof ms[0], bench_cmp_double);
    printf("time per call: median %.2f ms, max %.2f ms\n", (ms[CALLS / 2 - 1] + ms[CALLS / 2]) / 2,
           ms[CALLS - 1]);
    {
        char *note = c.counter_diags.n ? tks_diag_message(&c.counter_diags.items[0]) : NULL;
        printf("counter: %s (%s)\n", c.counter ? "yes" : "no", note ? note : "");
        free(note);
        tks_diags_free(&c.counter_diags);
    }
    if (c.counter)
        printf("counter cycles/tick %.5f (chain %.5f, differ by %.3f%%)\n",
               c.counter_cycles_per_tick, c.cycles_per_tick,
               100 * (c.counter_cycles_per_tick - c.cycles_per_tick) / c.cycles_per_tick);
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_core [TSC_HZ]\nHow stable the counter-less core clock is: ten measurements, their spread, the wall time\nof each; the core frequency at TSC_HZ (else at the rate measured here).\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
