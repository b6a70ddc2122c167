/* SPDX-License-Identifier: MIT */
/* tickscope/work_counters.h: what one execution of a benchmark's block gets done, and the user
 * counters, as Google Benchmark has them (included by tickscope/bench.h; not for direct
 * inclusion). Work counters are what the body says; event counters (hardware and software
 * events the kernel counts) are another thing.
 *
 *     Google Benchmark                                 tickscope (after TKS_MEASURE, or before)
 *     state.SetBytesProcessed(state.iterations()       tks_state_set_bytes_processed(st,
 *                             * state.range(0));           tks_state_iterations(st) * n);
 *                                                      or: tks_state_set_bytes_per_iteration(st, n);
 *     state.SetItemsProcessed(...)                     tks_state_set_items_processed(st, ...)
 *     state.counters["nodes"] = Counter(v, kIsRate);   tks_state_set_user_counter(st, "nodes", v,
 *                                                                                 TKS_COUNTER_RATE);
 *
 * An iteration is one execution of the block (in throughput mode, one repetition). A counter is
 * reported as Google Benchmark reports it (its flags applied over the run's iterations and
 * their time: bytes_per_second, items_per_second, user counters by name) and, for a rate, also
 * per core cycle. Set counters outside the TKS_MEASURE block (the block is timed). */
#ifndef TICKSCOPE_WORK_COUNTERS_H
#define TICKSCOPE_WORK_COUNTERS_H

/* A user counter's flags: Google Benchmark's Counter::Flags and OneK. */
#define TKS_COUNTER_DEFAULT 0u
#define TKS_COUNTER_RATE 1u                    /* divided by the iterations' time (kIsRate) */
#define TKS_COUNTER_AVG_THREADS 2u             /* divided by the threads: 1 here */
#define TKS_COUNTER_AVG_THREADS_RATE 3u
#define TKS_COUNTER_ITERATION_INVARIANT 4u     /* multiplied by the iterations */
#define TKS_COUNTER_ITERATION_INVARIANT_RATE 5u
#define TKS_COUNTER_AVG_ITERATIONS 8u          /* divided by the iterations */
#define TKS_COUNTER_AVG_ITERATIONS_RATE 9u
#define TKS_COUNTER_INVERT 16u                 /* 1 / the result, always last (kInvert) */
#define TKS_COUNTER_K1024 32u                  /* shown with Ki, Mi, Gi (kIs1024); else k, M, G */

#define TKS_WORK_COUNTERS_MAX 16   /* counters per run */
#define TKS_WORK_COUNTER_NAME 48   /* bytes of a name, its terminator included */

/* One counter of a run. The figures are computed once, after the run, from its iterations (every
 * execution of the block, tks_state_iterations) and its time per iteration (the headline ns)
 * and core cycles per iteration; NaN where a unit is missing. */
typedef struct tks_work_counter {
    char name[TKS_WORK_COUNTER_NAME];
    double value;              /* as the body set it */
    unsigned flags;            /* TKS_COUNTER_* */
    tks_interval figure;       /* Google Benchmark's figure (a rate: per second), with the
                                  interval the time's 95% interval gives it */
    tks_interval per_cycle;    /* a rate: the same per core cycle instead of per second */
} tks_work_counter;

/* Bytes and items one iteration processes: reported as bytes_per_second and items_per_second
 * (and per core cycle). Any time in the body. */
TKS_API void tks_state_set_bytes_per_iteration(struct tks_state *st, double bytes);
TKS_API void tks_state_set_items_per_iteration(struct tks_state *st, double items);
/* Google Benchmark's SetBytesProcessed and SetItemsProcessed: the total over the run's
 * iterations, divided by the run's time; call them after TKS_MEASURE with a count from
 * tks_state_iterations (before it the count is 0, and so is the rate, as in Google Benchmark). */
TKS_API void tks_state_set_bytes_processed(struct tks_state *st, double total);
TKS_API void tks_state_set_items_processed(struct tks_state *st, double total);
/* A user counter (Google Benchmark's state.counters[name] = Counter(value, flags, oneK)): set
 * again, it is replaced. A name is 1 to 47 characters; more than TKS_WORK_COUNTERS_MAX
 * counters, or a bad name, fails the run with the reason. */
TKS_API void tks_state_set_user_counter(struct tks_state *st, const char *name, double value,
                                        unsigned flags);
/* Executions of the block so far in this run, every window's (warm-up included): Google
 * Benchmark's state.iterations(). The counters' flags divide and multiply by its final value. */
TKS_API unsigned long long tks_state_iterations(const struct tks_state *st);

#endif /* TICKSCOPE_WORK_COUNTERS_H */
