/* SPDX-License-Identifier: MIT */
/* bench_small.c: results near one timer step (the issue of one add): runs the bodies of
 * bench/small_bodies.c (one dependent add, two, and 100 independent adds) in RUNS fresh processes
 * in each mode and prints, per body and mode: the published cost for the CPU at hand, the median
 * of our core-cycle figures, how many processes read within the tolerance of it (one add: 0.05
 * cycles; the independent block: 1%), how many intervals exclude zero (resolved), how many
 * results carry a warning (and the first one), and how many intervals exclude both the truth and
 * the median of the other processes without a warning (target: none). Prints its figures; fails
 * only when something broke.
 * Usage: bench_small [path/to/tickscope]   (the argument, which `make bench` passes every bench,
 * is not used: the bodies are found through /proc/self/exe) */
#include <errno.h>
#include <limits.h>
#include <math.h>

#include "child.h"
#include "result_doc.h"
#include "tickscope.h"

#define RUNS 10

/* Adds a cycle the CPU issues: Zen 4 has four integer ALUs, Zen 5 six (AMD's scheduling model
 * for znver5 in GCC, Chips and Cheese), Golden Cove five (uops.info: ADD_01 (R64, R64)
 * reciprocal throughput 0.20 on Alder Lake-P). 0 when we know no published figure. */
static double alus(const tks_cpu_identity *id)
{
    if (!strcmp(id->vendor, "AuthenticAMD"))
        return id->family == 0x19 ? 4 : id->family == 0x1A ? 6 : 0;
    if (!strcmp(id->vendor, "GenuineIntel") && id->family == 6)
        switch (id->model) {
        case 0x97: case 0x9A: case 0xB7: case 0xBA: case 0xBF: case 0x8F: case 0xCF:
            return 5; /* Golden Cove and Raptor Cove cores */
        default:
            return 0;
        }
    return 0;
}

struct body {
    const char *name;
    double latency, throughput; /* published core cycles per execution; NaN: not defined */
    double tol;                 /* absolute tolerance in cycles (0: 1% of the figure) */
};

static void report(const struct body *b, const char *mode, double truth, const double *cyc,
                   const double *lo, const double *hi, const size_t *warned,
                   const char (*first)[160], int got)
{
    double others[RUNS], med = NAN;
    int within = 0, resolved = 0, silent_miss = 0, n_warned = 0, first_w = -1;
    double tol = b->tol > 0 ? b->tol : 0.01 * truth;
    for (int i = 0; i < got; i++) {
        size_t k = 0;
        for (int j = 0; j < got; j++)
            if (j != i)
                others[k++] = cyc[j];
        med = spread_of(others, k).median;
        within += isfinite(truth) && fabs(cyc[i] - truth) <= tol;
        resolved += lo[i] > 0;
        n_warned += warned[i] > 0;
        if (warned[i] && first_w < 0)
            first_w = i;
        silent_miss += !warned[i] && !(lo[i] <= med && med <= hi[i]) &&
                       !(isfinite(truth) && lo[i] <= truth && truth <= hi[i]);
    }
    char pub[16] = "-";
    if (isfinite(truth))
        snprintf(pub, sizeof pub, "%.3f", truth);
    med = spread_of(cyc, (size_t)got).median;
    printf("%-9s %-10s %9s %10.3f %7d/%-2d %7d/%-2d %7d/%-2d %11d\n", b->name, mode, pub, med,
           within, got, resolved, got, n_warned, got, silent_miss);
    if (first_w >= 0)
        printf("    first warning: %s\n", first[first_w]);
}

static int bench_main(int argc, char **argv)
{
    static const char *const modes[] = {"latency", "throughput"};
    struct bodies bo;
    tks_cpu_identity id;
    double a;
    int failed = 0;
    (void)argc;
    (void)argv;
    if (bodies_open("bench_small", "bench_small_bodies", &bo) != 0)
        return 1;
    memset(&id, 0, sizeof id);
    tks_cpu_identity_probe(&id);
    a = alus(&id);
    const struct body bodies[] = {
        {"add1", 1, 1, 0.05},
        {"add2", 2, 2, 0.05},
        {"indep100", NAN, a > 0 ? 100 / a : NAN, 0},
    };
    enum { NB = sizeof bodies / sizeof bodies[0] };
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("bench_small: %d processes per mode on %s (family 0x%X, model 0x%X); one add: latency "
           "1 cycle (Agner Fog, uops.info); 100 independent adds: 100 over the adds a cycle (%s)\n\n",
           RUNS, id.brand, id.family, id.model,
           a > 0 ? (a == 4 ? "4" : a == 5 ? "5" : "6") : "no published figure for this CPU");
    printf("%-9s %-10s %9s %10s %10s %10s %10s %11s\n", "body", "mode", "published", "ours (med)",
           "within", "resolved", "warned", "silent miss");
    for (size_t m = 0; m < 2; m++) {
        double cyc[NB][RUNS], lo[NB][RUNS], hi[NB][RUNS];
        size_t warned[NB][RUNS];
        char first[NB][RUNS][160];
        int got[NB] = {0};
        for (int run = 0; run < RUNS; run++) {
            struct doc d;
            if (bodies_run(&bo, modes[m], &d) != 0) {
                failed = 1;
                continue;
            }
            for (size_t b = 0; b < NB; b++) {
                const struct fig *f = find(&d, bodies[b].name);
                if (!f || !f->ok || !isfinite(f->core_cycles))
                    continue;
                cyc[b][got[b]] = f->core_cycles;
                lo[b][got[b]] = f->cycles_lo;
                hi[b][got[b]] = f->cycles_hi;
                warned[b][got[b]] = f->n_warnings;
                snprintf(first[b][got[b]], sizeof first[b][got[b]], "%s", f->warning);
                got[b]++;
            }
        }
        for (size_t b = 0; b < NB; b++) {
            if (got[b] < 2) {
                printf("%-9s %-10s (fewer than two runs measured it)\n", bodies[b].name, modes[m]);
                continue;
            }
            report(&bodies[b], modes[m], m ? bodies[b].throughput : bodies[b].latency, cyc[b],
                   lo[b], hi[b], warned[b], (const char(*)[160])first[b], got[b]);
        }
    }
    printf("\ntargets: one add 1.0 +-0.05 cycles in 9 of 10 processes in each mode, without a "
           "warning that contradicts it; the independent block flagged in latency mode and within "
           "1%% of the published figure in throughput mode; no silent miss.\n");
    bodies_close(&bo);
    return failed;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_small [path/to/tickscope]\nResults near one timer step: one dependent add, two, and 100 independent adds, in fresh processes per mode.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
