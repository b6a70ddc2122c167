/* SPDX-License-Identifier: MIT */
/* tickscope/paired.h: is B faster than A? Two benchmarks measured in turns, in the same process on
 * the same CPU, in randomised ABBA blocks, so that the machine's drift (a guest's core clock, the
 * other tenants) lands on both alike; the ratio B/A with a confidence interval from the blocks'
 * paired differences, and a verdict. tks_main programs do this with --compare A,B; a main of
 * your own calls tks_paired_run. */
#ifndef TICKSCOPE_PAIRED_H
#define TICKSCOPE_PAIRED_H

#include "bench.h"
#include "common.h"
#include "diag.h"
#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tks_paired_options {
    unsigned blocks;          /* ABBA blocks, 2..1000 (default 16); each is four runs */
    double run_time;          /* seconds of sampling per run (default: the runner options'
                                 min_time spread over the blocks' runs, at least 2 ms) */
    double threshold;         /* relative: B/A within 1 +- threshold is "indistinguishable"
                                 (default 0.01) */
    uint64_t seed;            /* the block orders' generator (0: from the clock) */
} tks_paired_options;

TKS_API void tks_paired_options_init(tks_paired_options *po);

enum tks_verdict {
    TKS_VERDICT_INDISTINGUISHABLE, /* the interval of B/A lies within 1 +- threshold */
    TKS_VERDICT_SLOWER,            /* B is slower: the interval lies above 1 (and is not all
                                      within the threshold) */
    TKS_VERDICT_FASTER,            /* B is faster: the interval lies below 1 */
    TKS_VERDICT_INCONCLUSIVE       /* the interval holds 1 and reaches past the threshold */
};
/* "indistinguishable", "slower", "faster", "inconclusive". */
TKS_API const char *tks_verdict_name(enum tks_verdict v);

/* issue 26: a work counter both benchmarks set: each side's mean over its runs of Google
 * Benchmark's figure (a rate: per second), and over the runs that had a core clock, per core
 * cycle (NaN when not a rate). */
typedef struct tks_paired_counter {
    char name[TKS_WORK_COUNTER_NAME];
    double a, b;
    double a_per_cycle, b_per_cycle;
    size_t a_runs, b_runs, a_cycle_runs, b_cycle_runs;
} tks_paired_counter;

typedef struct tks_paired_result {
    char a[128], b[128];      /* the two benchmarks' names */
    size_t blocks;            /* blocks measured: each gives one paired difference */
    int cpu;                  /* the CPU both ran on (-1: unknown) */
    /* B/A: the geometric mean over the blocks of (B's two runs) / (A's two runs), each run's
     * figure its headline estimate (latency: the phase-averaged mean, not the minimum;
     * throughput: the slope), and a 95% t interval from the blocks' log differences. NaN where
     * a unit is missing (no core clock, no TSC rate). */
    tks_interval ratio_ticks, ratio_core, ratio_ns;
    /* Each benchmark's mean over its runs, per execution. */
    double a_ticks, b_ticks, a_core, b_core, a_ns, b_ns;
    enum tks_verdict verdict; /* on core cycles where both have them, else on ticks */
    int verdict_core;         /* the verdict was taken in core cycles */
    double threshold;
    double seconds;           /* wall time of the whole comparison */
    char error[512];          /* why it failed ("" when it did not) */
    tks_diags diags;          /* warnings and notes, coded (tickscope/diag.h); owned */
    /* issue 26: the work counters both A and B set (new members at the end) */
    tks_paired_counter counters[TKS_WORK_COUNTERS_MAX];
    size_t n_counters;
    /* the event counters (o->counters) both counted: each side's mean count per iteration over
     * its runs (the per_cycle members NaN) */
    tks_paired_counter events[TKS_EVENTS_MAX];
    size_t n_events;
} tks_paired_result;

/* Measure benchmark a (argument arg_a) and b (arg_b) in turns: po->blocks blocks of four runs,
 * each block A B B A or B A A B at random, every run pinned to one CPU (o->pin_cpu, else the
 * CPU the caller is on). o gives the method, the mode and the rest, as for tks_run_benchmark;
 * p the machine (tks_platform_probe). Fills r (release it with tks_paired_result_free). 0; TKS_EINVAL (bad arguments,
 * or a run failed: r->error says which and why); TKS_ENOMEM. Prints nothing. */
TKS_API int tks_paired_run(const tks_options *o, const tks_platform *p,
                           const tks_paired_options *po, const tks_benchmark_spec *a,
                           long long arg_a, const tks_benchmark_spec *b, long long arg_b,
                           tks_paired_result *r);
TKS_API void tks_paired_result_free(tks_paired_result *r);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_PAIRED_H */
