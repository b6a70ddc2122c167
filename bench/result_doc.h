/* SPDX-License-Identifier: MIT */
/* result_doc.h: one benchmark report, from either harness (tickscope's JSON or Google
 * Benchmark's), as bench_user compares it. */
#ifndef TKS_BENCH_RESULT_DOC_H
#define TKS_BENCH_RESULT_DOC_H

#include <limits.h>
#include <stddef.h>

#define MAX_BENCH 32

struct fig {
    char name[64];
    int ok;
    double ticks;       /* tickscope's headline (NAN for Google Benchmark) */
    double ns, cpu_ns;  /* real_time and cpu_time in ns */
    double core_cycles; /* tickscope's headline in core cycles */
    double cycles_lo, cycles_hi; /* its interval (core_cycles_ci) */
    double ticks_lo, ticks_hi;   /* the ticks' interval (ticks_ci) */
    /* Latency mode: the fenced windows' figure with the add chain's gap (adds_gap_core_cycles
     * and its interval; NaN when absent), and the correction the headline took. */
    double adds_cycles, adds_lo, adds_hi;
    char gap_source[8];
    double quantum;     /* tickscope: the timer step, ticks */
    size_t n_warnings;  /* tickscope: the result's warnings, the first kept */
    char warning[160];
    int within_process; /* tickscope: carries bench.within_process */
    int add_chain_slow; /* tickscope: carries core.add_chain_slow (the adds were found slow) */
};

struct doc {
    size_t n;
    struct fig b[MAX_BENCH];
    double cycles_per_tick; /* tickscope's context.core.cycles_per_tick (NAN otherwise) */
    double tsc_hz;
    double quantum;
    char method[32];
    double seconds; /* bodies_run: the program's wall time */
};

/* One figure across the processes that measured it. */
struct spread {
    size_t n;
    double median, min, max, range, cv; /* range and cv relative to the median and the mean */
};
/* v[0..n) left as it is; every field NaN when n is 0 (or memory runs out). */
struct spread spread_of(const double *v, size_t n);

/* Only "iteration" rows: aggregate rows (from --repetitions) are not figures of one run. */
int parse_doc(const char *text, struct doc *d);
const struct fig *find(const struct doc *d, const char *name);
/* Run args (stdout to /dev/null; args write their JSON to out) and read the JSON back. */
int run_json(char *const *args, const char *out, struct doc *d, double *seconds);

/* A bench's bodies program (bodies/NAME beside the bench) and a scratch file for its JSON. */
struct bodies {
    char exe[PATH_MAX + 32], tmp[64], out[PATH_MAX], out_opt[PATH_MAX + 8];
};
/* 0, or -1 after saying why on stderr. */
int bodies_open(const char *bench, const char *name, struct bodies *b);
/* One run of the bodies program in mode ("latency", "throughput"), quiet, its figures in d. */
int bodies_run(struct bodies *b, const char *mode, struct doc *d);
/* The same with more options (NULL-terminated, at most 8), e.g. a --filter. */
int bodies_run_with(struct bodies *b, const char *mode, char *const *more, struct doc *d);
void bodies_close(struct bodies *b);

#endif
