/* SPDX-License-Identifier: MIT */
/* state.h: one run of one benchmark as TKS_MEASURE drives it: a pilot to learn the block's cost,
 * a plan (repetition counts, storage) from the timer quantum and the time budget, then batches of
 * paired windows until the budget is spent. */
#ifndef TKS_RUNNER_STATE_H
#define TKS_RUNNER_STATE_H

#include "sample/placement.h"
#include "stats/add_check_fit.h"
#include "tickscope/bench.h"

#define TKS_TOUCH_MAX_S 4.0 /* a touch run (--explain's working set) stops after this long */
#define TKS_BATCH_MAX 64u  /* pairs per batch: small, so real and empty windows interleave finely */
#define TKS_POINTS_MAX 16u /* repetition counts in throughput mode */
/* The interleaved core-clock reference: after every batch, TKS_REF_SAMPLES windows each of two
 * chains of dependent register adds (one core cycle an add, the chain `info` uses), through the
 * same method. A guest's core clock drifts against the TSC from one second to the next; the
 * chains measured in the same stretch as the benchmark convert its ticks into core cycles at the
 * rate that held while it ran. Two lengths, differenced, cancel what the fences add to a chain
 * (a 200-add chain against an empty window reads some 3 cycles short). */
#define TKS_REF_LONG 200u
#define TKS_REF_SHORT 50u
#define TKS_REF_ADDS (TKS_REF_LONG - TKS_REF_SHORT) /* the cycles the difference stands for */
#define TKS_REF_SAMPLES 4u
/* The same reference also gives latency mode its harness: the short chain less TKS_REF_SHORT
 * adds at the long-minus-short rate is what the fences cost around a non-empty window, and an
 * empty window (timed in latency mode only, same method) is what they cost around nothing. The two
 * differ by a few to some fifteen core cycles, either way round, depending on the CPU (measured:
 * an empty LFENCE window 8 ticks shorter than the line through 1..100 adds on a Zen 5 guest, a
 * 200-add chain 3 cycles short of it on Zen 4): a latency window with the empty window
 * subtracted is off by that gap, which the runner takes out. */

/* Latency mode times the short chain and the empty window this many times a batch: the gap is a
 * small difference of two quantised means, and a block near one timer step is read to within a
 * tenth of a cycle only if the gap is known as well as the block's own windows are. */
#define TKS_GAP_SAMPLES 48u
#define TKS_COMPANION_TICKS 100.0
#define TKS_COMPANION_EVERY 4u
#define TKS_COMPANION_PAIRS 16u
#define TKS_FLOOR_SHORT 16u
#define TKS_FLOOR_LONG 144u

enum tks__phase {
    TKS_PHASE_START, TKS_PHASE_WARMUP, TKS_PHASE_PILOT, TKS_PHASE_MAIN, TKS_PHASE_DONE,
    TKS_PHASE_TOUCH /* --explain's working set: the block alone, its pages counted */
};

struct tks_state {
    /* Given by the runner. */
    const char *name;
    long long arg;
    enum tks_method method;
    enum tks_mode mode;
    double min_time;        /* seconds of sampling */
    unsigned long fixed_windows; /* > 0: this many windows (at least what the fit needs), no clock */
    uint64_t quantum;
    double tsc_hz;          /* 0: unknown (a tick is then taken as a nanosecond for planning) */
    int check_aux;
    const char *root;       /* for the RT limits when pacing */
    int fifo_on;
    /* Google Benchmark's --benchmark_min_warmup_time (seconds of batches dropped before the
     * pilot) and --benchmark_dry_run (one pair of windows, then done, no plan). */
    double warmup_time;
    int dry_run;
    double warmup_end;
    /* ---- issue 26: every argument of the run (arg is the first); the work counters the body
     * set (work_counters.c); the executions of the block in every window handed out so far
     * (tks_state_iterations). */
    tks_args args;
    tks_work_counter work[TKS_WORK_COUNTERS_MAX];
    size_t n_work;
    uint64_t executed;

    /* Progress. */
    enum tks__phase phase;
    int entered;            /* TKS_MEASURE calls */
    int skipped;
    char reason[200];       /* why the run failed or was skipped */
    int error;              /* TKS_E* */
    unsigned pilots;
    double pilot_pair_s;    /* wall time of one pair at k = 1 */
    double pilot_cost;      /* ticks per execution, from the pilot */
    double pilot_overhead;  /* empty window, ticks */

    /* The plan. */
    uint32_t ks[TKS_POINTS_MAX];
    size_t nk, point;       /* point: the one the current batch measures */
    size_t per_point[TKS_POINTS_MAX];
    size_t min_per_point;
    double start, deadline;

    /* The batch being taken. */
    uint64_t b_empty[TKS_BATCH_MAX], b_real[TKS_BATCH_MAX];
    uint32_t b_n, b_k;
    double b_start;

    /* Kept windows. */
    uint64_t *real, *empty;
    uint32_t *k;
    size_t n, cap;
    uint64_t migrated, negative, warmup;

    /* The reference, one entry per batch: mean ticks of the long chain minus the short one's;
     * and (ref_gap) the short chain's harness less the empty window's, ticks. */
    double *ref, *ref_gap;
    /* Throughput mode: the empty repetition loop's ticks a repetition, one entry a batch
     * (TKS_FLOOR_LONG less TKS_FLOOR_SHORT repetitions, TKS_REF_SAMPLES windows each). */
    double *ref_floor;
    size_t *ref_end;        /* kept windows up to and including that batch's */
    /* The windows each entry was made from (reference_entry.c), n_ref times
     * tks__reference_windows(mode) of them: kept only for a recording (keep_ref_w). */
    int keep_ref_w;
    uint64_t *ref_w;
    size_t n_ref, ref_cap;
    uint64_t ref_windows;   /* windows the reference took (its cost) */
    /* The add check (stats/add_check_fit.h): TKS_ADD_CHECK_ROUNDS rounds of its windows when the
     * main phase starts and as many when it ends, laid out for the fit (chk[kind * 2 * rounds
     * + i]); check: its verdict, which every core-cycle figure of the run is converted with. */
    uint64_t *chk;
    uint32_t chk_taken;     /* takes so far: 0, 1 or 2 */
    tks__add_check check;

    /* Latency mode, a block under TKS_COMPANION_TICKS (or four timer steps): every
     * TKS_COMPANION_EVERY-th batch is a throughput batch, kept apart, so the runner can set the
     * two modes side by side and say when one fenced window is not the block's cost. */
    int companion, b_companion;
    uint32_t c_ks[TKS_POINTS_MAX];
    size_t c_nk, c_point;
    uint64_t *c_real, *c_empty;
    uint32_t *c_k;
    size_t c_n, c_cap;
    uint64_t batches;

    /* Latency mode without hooks (issue 30): every other batch (of those not the companion's)
     * times the block once and then twice back to back, kept apart: twice less once is the
     * block's cost with the fences' overlap of its own first and last instructions cancelled.
     * t_ref[i]: the reference entry taken after window i's batch (its rate). */
    int hooks, twice, b_twice;
    uint64_t *t_once, *t_twice;
    size_t *t_ref;
    size_t t_n, t_cap;

    /* --explain (explain_bench.c): throughput batches take the TKS__PERTURBED kernel, each
     * repetition followed by perturb_n units of work of this kind (bench_perturb.h; 0: none). */
    int perturb;
    uint32_t perturb_n;
    /* --explain's working set (runner.h): a touch run instead of a measurement (NULL: none),
     * from start, its pages counted at deadline, then again after as long while they grow. */
    struct tks__touched *touched;

    struct tks__pacing pacing;
    uint32_t rt_pauses;

    /* Event counters (--counters; runner/events_run.h): read around every batch, NULL when
     * none were asked for. */
    struct tks__run_events *events;
};

/* Ready a state for one run (no allocation yet: the plan allocates after the pilot). */
void tks__state_init(struct tks_state *st);
/* Release the storage (unless it was handed to a result). */
void tks__state_release(struct tks_state *st);
/* One reference's harness gap, ticks: the short chain's mean less the TKS_REF_SHORT adds it holds
 * (at the long-minus-short rate), less the empty window's mean. */
double tks__state_harness_gap(double long_mean, double short_mean, double none_mean);
/* The windows one reference entry is made from: latency mode, TKS_REF_SAMPLES of the long chain,
 * TKS_GAP_SAMPLES of the short one and as many empty; throughput mode, TKS_REF_SAMPLES each of
 * the long chain, the short one, and the empty repetition loop of TKS_FLOOR_LONG and of
 * TKS_FLOOR_SHORT repetitions. */
size_t tks__reference_windows(enum tks_mode mode);
/* The entry those windows make (w laid out as above): the long chain less the short (ticks), the
 * harness gap (latency; NaN otherwise) and the loop's floor a repetition (throughput; 0
 * otherwise). 0, or -1 when the windows give none. */
int tks__reference_entry(const uint64_t *w, enum tks_mode mode, uint64_t quantum, double *diff,
                         double *gap, double *floor);

#endif
