/* SPDX-License-Identifier: MIT */
/* bench_trust.c: do tickscope's core-cycle figures hold from one run to the next? Runs the chains
 * of bench/trust_bodies.c (100 dependent adds, imuls and crc32s) in RUNS fresh processes in each
 * mode, and prints for each body: the published cost, the median of our core-cycle figures and
 * how far it is from the published one (target: 2%), the spread across processes in core cycles
 * and in ticks ((max - min) / median; target: 1% in core cycles), how many of the processes'
 * core-cycle intervals contain the published cost (target: 8 in 10), how many contain the median
 * of the other processes' figures (the next run; target: 19 of 20, with intervals not ten times
 * too wide) and the intervals' median width. On a CPU known_cpu.h knows, a body and mode that
 * misses a target is marked MISSED and the exit status is 1; on any other there is no published
 * cost, a line says so, and only the spread and the next-run targets decide.
 * Usage: bench_trust [path/to/tickscope]   (the argument, which `make bench` passes every bench,
 * is not used: the bodies are found through /proc/self/exe) */
#include <errno.h>
#include <limits.h>
#include <math.h>

#include "child.h"
#include "known_cpu.h"
#include "result_doc.h"
#include "tickscope.h"

#define RUNS 20

/* Latency of one instruction of each chain, in core cycles: the same on AMD Zen 4, Zen 5 and Intel
 * Golden Cove (Agner Fog, "Instruction tables"; uops.info: ADD_01 (R64, R64), IMUL_R64_R64,
 * CRC32_R64_R64). On any other CPU (known_cpu.h) the figures are printed without them. */
static const struct body {
    const char *name;
    double cycles;
} bodies[] = {
    {"add100", 100 * 1.0},
    {"imul100", 100 * 3.0},
    {"crc32_100", 100 * 3.0},
};
#define NBODIES (sizeof bodies / sizeof bodies[0])

static int bench_main(int argc, char **argv)
{
    static const char *const modes[] = {"latency", "throughput"};
    struct bodies bo;
    tks_cpu_identity id;
    const char *cpu_name;
    int failed = 0, known, missed = 0;
    (void)argc;
    (void)argv;
    if (tks_cpu_identity_probe(&id) != 0) {
        fprintf(stderr, "bench_trust: cannot identify this CPU\n");
        return 1;
    }
    known = which_cpu(&id, &cpu_name) != CPU_OTHER;
    if (bodies_open("bench_trust", "bench_trust_bodies", &bo) != 0)
        return 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("bench_trust: %d processes per mode on %s (%s family 0x%x model 0x%x, %s); %s\n\n",
           RUNS, id.brand, id.vendor, id.family, id.model, cpu_name,
           known ? "published latencies from Agner Fog's tables and uops.info (the same on Zen 4, "
                   "Zen 5 and Golden Cove)"
                 : "no published latencies for this CPU: the columns against them are left out, "
                   "the spreads and the next-run check stand");
    printf("%-10s %-10s %9s %10s %7s %9s %9s %9s %9s %8s\n", "body", "mode", "published",
           "ours (med)", "error", "spread cy", "spread tk", "has truth", "has next", "CI width");
    for (size_t m = 0; m < 2; m++) {
        double cyc[NBODIES][RUNS], tk[NBODIES][RUNS], width[NBODIES][RUNS];
        double lo[NBODIES][RUNS], hi[NBODIES][RUNS];
        int covers[NBODIES] = {0}, got[NBODIES] = {0};
        for (int run = 0; run < RUNS; run++) {
            struct doc d;
            if (bodies_run(&bo, modes[m], &d) != 0) {
                failed = 1;
                continue;
            }
            for (size_t b = 0; b < NBODIES; b++) {
                const struct fig *f = find(&d, bodies[b].name);
                if (!f || !f->ok || !isfinite(f->core_cycles))
                    continue;
                cyc[b][got[b]] = f->core_cycles;
                tk[b][got[b]] = isfinite(f->ticks) ? f->ticks : NAN;
                width[b][got[b]] = (f->cycles_hi - f->cycles_lo) / f->core_cycles;
                lo[b][got[b]] = f->cycles_lo;
                hi[b][got[b]] = f->cycles_hi;
                covers[b] += f->cycles_lo <= bodies[b].cycles && bodies[b].cycles <= f->cycles_hi;
                got[b]++;
            }
        }
        for (size_t b = 0; b < NBODIES; b++) {
            double med, err, sc, st, w, others[RUNS];
            int next = 0, miss;
            if (got[b] < 2) {
                printf("%-10s %-10s %9s %10s   (fewer than two runs measured it)\n",
                       bodies[b].name, modes[m], "", "-");
                missed++;
                continue;
            }
            /* Does each process's interval hold the median of the others' figures? */
            for (int i = 0; i < got[b]; i++) {
                size_t k = 0;
                for (int j = 0; j < got[b]; j++)
                    if (j != i)
                        others[k++] = cyc[b][j];
                med = spread_of(others, k).median;
                next += lo[b][i] <= med && med <= hi[b][i];
            }
            sc = spread_of(cyc[b], (size_t)got[b]).range;
            med = spread_of(cyc[b], (size_t)got[b]).median;
            st = spread_of(tk[b], (size_t)got[b]).range;
            w = spread_of(width[b], (size_t)got[b]).median;
            err = med / bodies[b].cycles - 1;
            /* the targets: error 2%, spread 1% in core cycles, the published cost in 8 in 10
             * intervals (known CPUs), the next run's median in 19 of 20 */
            miss = sc > 0.01 || 20 * next < 19 * got[b];
            if (known)
                miss = miss || fabs(err) > 0.02 || 10 * covers[b] < 8 * got[b];
            missed += miss;
            if (known)
                printf("%-10s %-10s %9.1f %10.2f %+6.2f%% %8.2f%% %8.2f%% %5d/%-3d %5d/%-3d "
                       "%7.2f%%\n", bodies[b].name, modes[m], bodies[b].cycles, med, 100 * err,
                       100 * sc, 100 * st, covers[b], got[b], next, got[b], 100 * w);
            else
                printf("%-10s %-10s %9s %10.2f %7s %8.2f%% %8.2f%% %9s %5d/%-3d %7.2f%%\n",
                       bodies[b].name, modes[m], "-", med, "-", 100 * sc, 100 * st, "-", next,
                       got[b], 100 * w);
            if (miss)
                printf("%-10s %-10s ^ MISSED a target\n", "", "");
        }
    }
    printf("\ntargets: error within 2%%, spread in core cycles within 1%%, the published cost "
           "inside the interval in at least 8 in 10 processes, the others' median in 19 of 20."
           "\nLatency mode cancels the fences with the block's own windows (twice less once) "
           "where that agrees with the add chain's harness gap, else takes the gap out: see "
           "docs/benchmarks.md; bench_latency compares the two on more chains.\n");
    if (!known)
        printf("%s (family 0x%x model 0x%x) is not a CPU known_cpu.h knows: no published cost to "
               "judge against; the spread and next-run targets decide.\n", id.brand, id.family, id.model);
    printf("bench_trust: %d of %d rows missed a target%s\n", missed, (int)(2 * NBODIES),
           missed ? " (MISSED above; exit 1)" : "");
    bodies_close(&bo);
    return failed || missed;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_trust [path/to/tickscope]\nWhether the core-cycle figures hold from one process to the next, against published costs.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
