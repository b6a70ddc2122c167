/* state.h: one run of one benchmark as TKS_MEASURE drives it: a pilot to learn the block's cost,
 * a plan (repetition counts, storage) from the timer quantum and the time budget, then batches of
 * paired windows until the budget is spent. */
#ifndef TKS_BENCH_STATE_H
#define TKS_BENCH_STATE_H

#include "sample/placement.h"
#include "tickscope/bench.h"

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

enum tks__phase { TKS_PHASE_START, TKS_PHASE_PILOT, TKS_PHASE_MAIN, TKS_PHASE_DONE };

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

    /* The reference, one entry per batch: mean ticks of the long chain minus the short one's. */
    double *ref;
    size_t *ref_end;        /* kept windows up to and including that batch's */
    size_t n_ref, ref_cap;
    uint64_t ref_windows;   /* windows the reference took (its cost) */

    struct tks__pacing pacing;
    uint32_t rt_pauses;
};

/* Ready a state for one run (no allocation yet: the plan allocates after the pilot). */
void tks__state_init(struct tks_state *st);
/* Release the storage (unless it was handed to a result). */
void tks__state_release(struct tks_state *st);

#endif
