/* SPDX-License-Identifier: MIT */
/* tickscope/analysis.h: the tickscope command's answers as library calls: which way of reading
 * the clock can be trusted here (validation), and how small a difference it sees (resolution). */
#ifndef TICKSCOPE_ANALYSIS_H
#define TICKSCOPE_ANALYSIS_H

#include "common.h"
#include "diag.h"
#include "method.h"
#include "platform.h"
#include "sample.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Progress of a long analysis: stage(ctx, label) when a stretch of sampling starts (label such
 * as "validate lfence" or "resolution") and stage(ctx, NULL) when it is over; in between,
 * progress(ctx, done, total), never inside a measured window. Either function may be NULL. */
typedef void (*tks_stage_fn)(void *ctx, const char *label);

/* Called once per run of samples while they exist (the library keeps none after it): run is
 * what the sampler took, ens[0..run->ensembles) their summaries, quantum the timer step. The
 * hook may reorder run->ticks (the library has finished with them). A nonzero return stops the
 * analysis, which returns that value. For --raw CSV files and figures. */
typedef int (*tks_samples_fn)(void *ctx, enum tks_method m, const tks_sample_run *run,
                              const tks_summary *ens, uint64_t quantum);

/* How the kernel module owned the CPU, merged over the runs of one analysis. */
typedef struct tks_kernel_stats {
    int cpu;                        /* -1: no kernel run */
    uint64_t sections;              /* stretches with interrupts (or preemption) off */
    uint64_t section_max_ticks;     /* the longest of them */
} tks_kernel_stats;

/* How and where every analysis takes its samples, and who hears of them. */
typedef struct tks_analysis_common {
    int pin_cpu;               /* >= 0: run on this CPU (default -1) */
    int fifo;                  /* SCHED_FIFO, user-space runs only */
    enum tks_where where;      /* default TKS_WHERE_USER */
    const char *kernel_device; /* NULL: /dev/tickscope */
    uint32_t kernel_methods;   /* kernel runs: what the module runs (tks_kernel_info.methods);
                                  0: probed once at the start */
    tks_stage_fn stage;
    tks_progress_fn progress;
    void *progress_ctx;        /* for stage and progress */
    tks_samples_fn on_samples; /* the analysis's samples (each says which) */
    void *samples_ctx;
} tks_analysis_common;

/* ---------------------------------------------------------------- validation
 * The white paper's empty-window experiment for each method (E ensembles of S samples with
 * nothing between the two readings), summarised with its statistics; the dependent-add chain
 * that shows which methods let the measured code escape the window; and the method to use. */

#define TKS_VALIDATE_CHAIN_ADDS 200u
#define TKS_VALIDATE_CHAIN_ROUNDS 5

typedef struct tks_validate_options {
    uint32_t methods;          /* TKS_METHOD_BIT set of methods to measure (default: all) */
    uint32_t ensembles;        /* per method, 1..TKS_ENSEMBLES_MAX (default 100) */
    uint32_t samples;          /* per ensemble, 2..TKS_SAMPLES_MAX (default 10000) */
    double budget_s;           /* wall time per method: slow methods get fewer samples, never
                                  fewer than 100 (default 0.4; 0: no budget); a
                                  method that can never be recommended gets a quarter of
                                  it, never fewer than 50 samples */
    int chain;                 /* measure the dependent-add chain (default 1) */
    uint64_t quantum;          /* > 0: the timer step of tks_method_default's fenced reads as
                                  already measured (tks_platform.quantum.quantum), with
                                  unfenced_step, instead of measuring it again (default 0) */
    uint64_t unfenced_step;
    tks_analysis_common common; /* on_samples: each method's empty-window samples (not the
                                   chain's) */
} tks_validate_options;

TKS_API void tks_validate_options_init(tks_validate_options *o);

/* One method's empty window. */
typedef struct tks_method_validation {
    int selected, available, eligible;
    const char *ineligible_reason;  /* why it can never be recommended here, or NULL */
    int rc;                         /* 0, or the error that stopped this method alone */
    uint32_t ensembles, samples;    /* as taken */
    int budget_limited;             /* fewer samples per ensemble to fit the budget */
    uint64_t discarded;             /* migrated + negative */
    uint64_t discarded_migrated, discarded_negative;
    tks_across across;
    tks_ergodicity erg;
    double median;                  /* median of the ensemble medians */
    double pa_mean;                 /* median of the ensemble phase-averaged means */
    double seconds;
    /* The chain: TKS_VALIDATE_CHAIN_ADDS dependent adds minus the empty window, median over
     * TKS_VALIDATE_CHAIN_ROUNDS rounds. */
    int chain_done;
    double chain_net_min, chain_net_mean;
} tks_method_validation;

/* Allocated by tks_validate_run (fields are only ever added at the end). */
typedef struct tks_validation {
    enum tks_where where;
    int chain;                      /* the chain was asked for */
    uint32_t chain_adds;            /* TKS_VALIDATE_CHAIN_ADDS */
    uint64_t quantum;               /* timer step of fenced reads, ticks */
    uint64_t unfenced_step;         /* smallest step of back-to-back unfenced reads (0: none) */
    enum tks_method quantum_method; /* the method the quantum was read through */
    int recommended;                /* enum tks_method, or -1 when no eligible method was measured */
    int reference;                  /* the method chain differences are compared with, or -1 */
    double seconds;
    tks_kernel_stats kernel;
    tks_method_validation methods[TKS_METHOD_COUNT]; /* indexed by enum tks_method */
    tks_diags diags;                /* why this method was recommended (or why none): one
                                       validate.* code (tickscope/diag.h); owned */
} tks_validation;

/* Runs everything. 0 with *out set (free it with tks_validation_free), or a TKS_E* code (bad
 * options, the quantum probe failing, memory, or what on_samples returned) with *out NULL. A
 * method failing alone is recorded in its methods[m].rc, not returned. */
TKS_API int tks_validate_run(const tks_validate_options *o, tks_validation **out);
TKS_API void tks_validation_free(tks_validation *v);

/* ---------------------------------------------------------------- resolution
 * The white paper's resolution test (3.3): ensemble n holds n dependent register adds
 * (n = 0..max_work); a straight line through the results; and the smallest step in n that the
 * minimum and the phase-averaged mean each see 95% of the time. */

typedef struct tks_resolution_options {
    int method;                /* enum tks_method, or -1 (default): the one a short validation
                                  of the methods fenced at both ends recommends */
    const char *method_reason; /* with a method: why it was chosen, for people (NULL: "given by
                                  the caller") */
    uint32_t max_work;         /* largest n, 1..TKS_WORK_MAX (default 100) */
    uint32_t samples;          /* per n, 2..TKS_SAMPLES_MAX (default 20000) */
    tks_analysis_common common; /* on_samples: the merged samples of every n (not the long
                                   chain's) */
} tks_resolution_options;

TKS_API void tks_resolution_options_init(tks_resolution_options *o);

typedef struct tks_resolution_point {
    uint32_t n;                /* dependent adds */
    uint64_t min;
    double median;
    double mean, mean_ci;      /* phase-averaged mean and its ~95% half-width */
    double variance;
    uint64_t max_deviation;
} tks_resolution_point;

/* Allocated by tks_resolution_run (fields are only ever added at the end). */
typedef struct tks_resolution_result {
    enum tks_method method;
    const char *method_reason;      /* why this method, for people (static or the caller's) */
    enum tks_where where;
    uint32_t max_work;
    uint64_t quantum;
    uint32_t npoints;               /* max_work + 1 */
    uint32_t samples_taken;         /* per n */
    uint64_t discarded;
    tks_resolution_point *points;   /* npoints of them, n = 0..max_work */
    tks_summary *ensembles;         /* the summary of each n, for figures */
    uint32_t spurious_minimums;
    tks_fit fit_mean, fit_min;      /* through the phase-averaged means of n >= 1 (all n when
                                     * max_work is 1); through the minimums of every n */
    double harness_gap;             /* the line's intercept less the empty window's mean, ticks:
                                     * what the fences cost around work and not around nothing */
    size_t res_min, res_mean;       /* instructions; 0: no step up to npoints / 2 is resolved */
    double res_min_fraction, res_mean_fraction;
    double long_chain_ticks_per_add;/* TKS_WORK_MAX adds minus a quarter of them, per add,
                                     * median of a few rounds: 1 / the core clock's cycles per tick */
    double seconds;
    tks_kernel_stats kernel;
} tks_resolution_result;

/* 0 with *out set (free it with tks_resolution_result_free), or a TKS_E* code with *out NULL:
 * TKS_EUNAVAIL when the given method cannot run where asked. */
TKS_API int tks_resolution_run(const tks_resolution_options *o, tks_resolution_result **out);
TKS_API void tks_resolution_result_free(tks_resolution_result *r);

#ifdef __cplusplus
}
#endif
#endif
