/* SPDX-License-Identifier: MIT */
/* bench_rings.c: does one process's interval hold the next process's figure when the code
 * touches memory? Runs bodies/bench_rings_bodies (pointer chases over rings of 16 KiB, 512 KiB,
 * 4 MiB and 64 MiB: L1, L2, L3 and DRAM here) in 10 fresh processes at the defaults (latency
 * mode), and prints per size: the spread of the core-cycle figures across processes, the
 * median width of the intervals, how many of the 10 intervals hold the 10-process median, and
 * how many runs said anything (a warning or note). The target: each run's interval holds
 * the median in at least 9 of 10, or the run says its interval is within-process.
 * Usage: bench_rings [path/to/tickscope]   (not used: the bodies are found beside this program) */
#include <math.h>

#include "child.h"
#include "result_doc.h"
#include "tickscope.h"

#define RUNS 10

static const char *const sizes[] = {"ring/16", "ring/512", "ring/4096", "ring/65536"};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static int bench_main(void)
{
    struct bodies bo;
    double cyc[NSIZES][RUNS], lo[NSIZES][RUNS], hi[NSIZES][RUNS], width[NSIZES][RUNS];
    int got[NSIZES] = {0}, said[NSIZES] = {0}, failed = 0;
    char first[NSIZES][160] = {{0}};
    double t0 = bench_now();
    if (bodies_open("bench_rings", "bench_rings_bodies", &bo) != 0)
        return 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("bench_rings: %d fresh processes, defaults (latency mode), 64 dependent loads an "
           "execution\n", RUNS);
    for (int run = 0; run < RUNS; run++) {
        struct doc d;
        if (bodies_run(&bo, "latency", &d) != 0) {
            failed = 1;
            continue;
        }
        for (size_t s = 0; s < NSIZES; s++) {
            const struct fig *f = find(&d, sizes[s]);
            int k = got[s];
            if (!f || !f->ok || !isfinite(f->core_cycles))
                continue;
            cyc[s][k] = f->core_cycles;
            lo[s][k] = f->cycles_lo;
            hi[s][k] = f->cycles_hi;
            width[s][k] = (f->cycles_hi - f->cycles_lo) / 2 / f->core_cycles;
            if (f->n_warnings && said[s]++ == 0)
                snprintf(first[s], sizeof first[s], "%s", f->warning);
            got[s]++;
        }
    }
    printf("%-11s %12s %9s %10s %12s %7s\n", "ring", "median cy", "spread", "+-interval",
           "holds median", "said");
    for (size_t s = 0; s < NSIZES; s++) {
        struct spread sp = spread_of(cyc[s], (size_t)got[s]);
        int hold = 0;
        for (int i = 0; i < got[s]; i++)
            hold += lo[s][i] <= sp.median && sp.median <= hi[s][i];
        printf("%-11s %12.2f %8.1f%% %9.2f%% %8d/%-3d %3d/%-3d %s\n", sizes[s], sp.median / 64,
               100 * sp.range, 100 * spread_of(width[s], (size_t)got[s]).median, hold, got[s],
               said[s], got[s], first[s]);
    }
    printf("(core cycles a load; spread = (max - min) / median across processes; %.0f s)\n",
           bench_now() - t0);
    bodies_close(&bo);
    return failed;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_rings [path/to/tickscope]\nWhether one process's interval holds the next process's figure for pointer chases from L1 to DRAM.\n");
    return status >= 0 ? status : bench_main();
}
