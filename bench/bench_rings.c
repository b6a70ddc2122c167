/* SPDX-License-Identifier: MIT */
/* bench_rings.c: does one process's interval hold the next process's figure when the code
 * touches memory, and when it does not, does the run say so? Runs bodies/bench_rings_bodies
 * (pointer chases over rings of 16 KiB, 512 KiB, 4 MiB and 64 MiB: L1, L2, L3 and DRAM here) in
 * 10 fresh processes at the defaults (latency mode), and prints per size: the spread of the
 * core-cycle figures across processes, the median width of the intervals, how many of the 10
 * intervals hold the 10-process median, how many runs carry bench.within_process ("within"), and
 * how many do either ("held|said": the target, at least 9 of 10). Each default run is
 * timed beside a run of the same program with --processes 1 (one process, no second one: the
 * default before bench.within_process), for the default's cost. Then the false alarms: chains of
 * dependent instructions (bench_latency's bodies, compute-bound: their figure does not move
 * between processes beyond their intervals), 10 default processes, how many carry the
 * diagnostic. Usage: bench_rings [path/to/tickscope]   (not used: the bodies are found beside
 * this program) */
#include <math.h>

#include "child.h"
#include "result_doc.h"
#include "tickscope.h"

#define RUNS 10

static const char *const sizes[] = {"ring/16", "ring/512", "ring/4096", "ring/65536"};
#define NSIZES (sizeof sizes / sizeof sizes[0])
static const char *const chains[] = {"add20", "imul20", "crc40", "load20", "fma20",
                                     "add100", "imul100", "crc100", "load100", "fma100"};
#define NCHAINS (sizeof chains / sizeof chains[0])

struct row {
    double cyc[RUNS], lo[RUNS], hi[RUNS], width[RUNS];
    int within[RUNS], got, said;
    char first[160];
};

static void take(struct row *w, const struct doc *d, const char *name)
{
    const struct fig *f = find(d, name);
    int k = w->got;
    if (!f || !f->ok || !isfinite(f->core_cycles))
        return;
    w->cyc[k] = f->core_cycles;
    w->lo[k] = f->cycles_lo;
    w->hi[k] = f->cycles_hi;
    w->width[k] = (f->cycles_hi - f->cycles_lo) / 2 / f->core_cycles;
    w->within[k] = f->within_process;
    if (f->n_warnings && w->said++ == 0)
        snprintf(w->first, sizeof w->first, "%s", f->warning);
    w->got++;
}

/* The row's line: median per unit, spread, interval, holds median, within, held or within. */
static void print_row(const char *name, const struct row *w, double unit, int first)
{
    struct spread sp = spread_of(w->cyc, (size_t)w->got);
    int hold = 0, within = 0, either = 0;
    for (int i = 0; i < w->got; i++) {
        int h = w->lo[i] <= sp.median && sp.median <= w->hi[i];
        hold += h;
        within += w->within[i];
        either += h || w->within[i];
    }
    printf("%-11s %10.2f %7.1f%% %9.2f%% %5d/%-3d %5d/%-3d %5d/%-3d %s\n", name, sp.median / unit,
           100 * sp.range, 100 * spread_of(w->width, (size_t)w->got).median, hold, w->got,
           within, w->got, either, w->got, first ? w->first : "");
}

static const char header[] = "%-11s %10s %8s %10s %9s %9s %9s\n";

static int rings(void)
{
    struct bodies bo;
    struct row w[NSIZES];
    double with[RUNS], without[RUNS];
    int failed = 0, timed = 0;
    char *one[] = {"--processes=1", NULL};
    memset(w, 0, sizeof w);
    if (bodies_open("bench_rings", "bench_rings_bodies", &bo) != 0)
        return 1;
    printf("bench_rings: %d fresh processes, defaults (latency mode), 64 dependent loads an "
           "execution\n", RUNS);
    for (int run = 0; run < RUNS; run++) {
        struct doc d, d1;
        if (bodies_run(&bo, "latency", &d) != 0 || bodies_run_with(&bo, "latency", one, &d1)) {
            failed = 1;
            continue;
        }
        with[timed] = d.seconds;
        without[timed++] = d1.seconds;
        for (size_t s = 0; s < NSIZES; s++)
            take(&w[s], &d, sizes[s]);
    }
    printf(header, "ring", "median cy", "spread", "+-interval", "holds med", "within",
           "held|said");
    for (size_t s = 0; s < NSIZES; s++)
        print_row(sizes[s], &w[s], 64, 1);
    printf("(core cycles a load; spread = (max - min) / median across processes)\n"
           "cost: the default run %.2f s, with --processes 1 (no second process) %.2f s: %.2fx "
           "(medians of %d, run alternately)\n",
           spread_of(with, (size_t)timed).median, spread_of(without, (size_t)timed).median,
           spread_of(with, (size_t)timed).median / spread_of(without, (size_t)timed).median,
           timed);
    bodies_close(&bo);
    return failed;
}

static int false_alarms(void)
{
    struct bodies bo;
    struct row w[NCHAINS];
    int failed = 0, alarms = 0, total = 0;
    char *filter[] = {"--filter=^(add|imul|fma)(20|100)$|^(crc|load)(20|40|100)$", NULL};
    memset(w, 0, sizeof w);
    if (bodies_open("bench_rings", "bench_latency_bodies", &bo) != 0)
        return 1;
    for (int run = 0; run < RUNS; run++) {
        struct doc d;
        if (bodies_run_with(&bo, "latency", filter, &d) != 0) {
            failed = 1;
            continue;
        }
        for (size_t c = 0; c < NCHAINS; c++)
            take(&w[c], &d, chains[c]);
    }
    printf("\nfalse alarms: compute-bound chains, %d fresh processes, defaults (latency mode)\n",
           RUNS);
    printf(header, "chain", "median cy", "spread", "+-interval", "holds med", "within",
           "held|said");
    for (size_t c = 0; c < NCHAINS; c++) {
        print_row(chains[c], &w[c], 1, 0);
        for (int i = 0; i < w[c].got; i++)
            alarms += w[c].within[i];
        total += w[c].got;
    }
    printf("bench.within_process on %d of %d compute-bound runs\n", alarms, total);
    bodies_close(&bo);
    return failed;
}

static int bench_main(void)
{
    double t0 = bench_now();
    int failed;
    setvbuf(stdout, NULL, _IOLBF, 0);
    failed = rings();
    failed |= false_alarms();
    printf("(%.0f s)\n", bench_now() - t0);
    return failed;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_rings [path/to/tickscope]\nWhether one process's interval holds the next process's figure for pointer chases from L1 to DRAM, and whether the run says so when not.\n");
    return status >= 0 ? status : bench_main();
}
