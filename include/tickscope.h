/* tickscope.h: the public API of libtickscope.
 * Clock reads live in <tickscope/clock.h>; this header adds errors, the sampler and the statistics. */
#ifndef TICKSCOPE_H
#define TICKSCOPE_H

#include <stddef.h>
#include <stdint.h>
#include "tickscope/clock.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TKS_VERSION_STRING "0.1.0"

/* Errors: functions that can fail return 0 or one of these (negative). */
#define TKS_OK        0
#define TKS_EINVAL   (-1)  /* bad argument */
#define TKS_ENOMEM   (-2)  /* allocation failed */
#define TKS_EUNAVAIL (-3)  /* method or feature not available on this CPU */
#define TKS_EIO      (-4)  /* file could not be written or read */
#define TKS_EPERM    (-5)  /* not permitted (pinning, real-time priority) */
#define TKS_EDISCARD (-6)  /* too many samples had to be discarded */
#define TKS_ERANGE   (-7)  /* a count or size is out of the supported range */

const char *tks_strerror(int err);

/* ---------------------------------------------------------------- statistics
 * Pure functions over sample arrays (ticks). Moments are exact: sums are kept in
 * 128-bit (and wider) integers and only the final division is done in floating point.
 * Variances are population variances (divide by n), as in the white paper's var_calc. */

/* One ensemble: the paper's per-row figures plus robust ones. */
typedef struct tks_summary {
    uint64_t n;
    uint64_t min, max;
    uint64_t max_deviation;   /* max - min (the paper's "max deviation") */
    double mean;              /* exact sum / n */
    double variance;          /* population variance from an exact numerator */
    double median, q1, q3;    /* quantiles, linear interpolation between order statistics */
    double median_lo, median_hi; /* ~95% distribution-free confidence interval of the median */
    double mad;               /* median absolute deviation (unscaled) */
    uint64_t outliers_low, outliers_high; /* outside Tukey's fences (1.5 IQR) */
    /* Phase-averaged mean: mean of the inliers (within Tukey's far fences, 3 IQR, the IQR taken
     * as at least one quantum). Readings start at random phases of the timer quantum, so this
     * mean resolves durations below one quantum where the minimum and median cannot. */
    double pa_mean, pa_ci;    /* estimate and ~95% half-width (1.96 standard errors) */
    double inlier_variance;   /* population variance of those inliers */
    uint64_t pa_n;            /* how many samples the inlier figures use */
} tks_summary;

/* Summarise x[0..n). scratch must hold n values (it receives a sorted copy of x).
 * quantum: the timer step in ticks (1 if unknown). */
int tks_summarize(const uint64_t *x, size_t n, uint64_t quantum, uint64_t *scratch,
                  tks_summary *out);

/* Quantile p in [0,1] of sorted[0..n), linear interpolation (Hyndman-Fan type 7). */
double tks_quantile_sorted(const uint64_t *sorted, size_t n, double p);

/* Exact population variance of x[0..n) (0 for n < 2). Works for any uint64_t values. */
double tks_variance_u64(const uint64_t *x, size_t n);
/* Population variance of doubles (two-pass, long double accumulators). */
double tks_variance_double(const double *x, size_t n);

/* Across ensembles: the paper's closing figures. */
typedef struct tks_across {
    size_t ensembles;
    uint32_t spurious_minimums;  /* ensembles whose minimum is below the previous one's */
    double total_variance;       /* mean of the ensemble variances */
    uint64_t abs_max_deviation;  /* largest ensemble max deviation */
    double variance_of_variances;
    double variance_of_minimums; /* exact */
    uint64_t min_of_minimums, max_of_minimums;
    double mean_inlier_variance;
    double variance_of_inlier_variances;
} tks_across;

int tks_across_ensembles(const tks_summary *ens, size_t count, tks_across *out);

/* Ergodicity, the paper's "variance of variances and of minimums tend to zero", made
 * quantum-aware and robust to the interrupts user space cannot switch off. See README. */
typedef struct tks_ergodicity {
    int ergodic;                 /* both criteria hold */
    int minimum_stable;          /* max_of_minimums - min_of_minimums <= quantum */
    int variance_stable;         /* sd of inlier variances <= max(quantum^2, 0.5 * mean) */
    double minimum_spread;       /* in ticks */
    double variance_sd;          /* sqrt(variance_of_inlier_variances) */
    double variance_limit;       /* the bound variance_sd was compared with */
} tks_ergodicity;

int tks_ergodicity_test(const tks_across *a, uint64_t quantum, tks_ergodicity *out);

/* Least squares y = intercept + slope * x. */
typedef struct tks_fit {
    size_t n;
    double slope, intercept;
    double r2;                   /* coefficient of determination (1 when all y are equal and fit) */
    double residual_sd;          /* sqrt(SSR / (n - 2)), 0 for n <= 2 */
    double slope_se, intercept_se;
} tks_fit;

int tks_linear_fit(const double *x, const double *y, size_t n, tks_fit *out);

/* The timer quantum from deltas between consecutive fenced reads: the largest q, from 1 up to
 * the smallest nonzero delta, that divides at least 99% of the nonzero deltas. 1 if none. */
uint64_t tks_quantum_from_deltas(const uint64_t *deltas, size_t n);

/* Resolution of a growing-work series: est[i] is the estimate with i units of work and unc[i]
 * its uncertainty (same units). A step of k units from i-k to i is resolved when
 * est[i] - est[i-k] > sqrt(unc[i]^2 + unc[i-k]^2) and > 0. The resolution is the smallest k
 * for which at least `coverage` (e.g. 0.95) of the steps i = k..n-1 are resolved; 0 when no
 * k up to (n-1)/2 qualifies. *fraction (may be NULL) receives that k's resolved fraction. */
size_t tks_resolution(const double *est, const double *unc, size_t n, double coverage,
                      double *fraction);

/* ---------------------------------------------------------------- sampling
 * E ensembles of S samples of one method's empty (or working) window, into a buffer allocated
 * before the first sample. The window of ensemble e holds work_start + e * work_step dependent
 * register adds (add %reg,%reg: add-immediate chains are folded at rename on recent Intel cores). */

#define TKS_WORK_MAX 200u          /* most dependent adds one window can carry */
#define TKS_SAMPLES_MAX 100000000u /* per ensemble */
#define TKS_ENSEMBLES_MAX 100000u

typedef void (*tks_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct tks_sample_plan {
    enum tks_method method;
    uint32_t ensembles;      /* E >= 1 */
    uint32_t samples;        /* S >= 2 per ensemble (upper bound when budget_s > 0) */
    uint32_t work_start;     /* dependent adds in ensemble 0 */
    uint32_t work_step;      /* added for each later ensemble */
    double budget_s;         /* > 0: fewer samples per ensemble (never below min_samples) so the run fits */
    uint32_t min_samples;    /* floor for the budget (0: 100) */
    int pin_cpu;             /* >= 0: pin to this CPU for the run; -1: leave the affinity alone */
    int fifo;                /* run ensembles under SCHED_FIFO, paced to stay clear of RT throttling */
    const char *root;        /* where /proc lives (NULL or "" for "/"): tests use fixture trees */
    tks_progress_fn progress;/* called between ensembles, never inside one */
    void *progress_ctx;
} tks_sample_plan;

typedef struct tks_sample_run {
    uint64_t *ticks;            /* ensembles x samples, row-major: ticks[e * samples + s] */
    uint32_t ensembles, samples;/* as taken (samples may be fewer than planned under a budget) */
    uint64_t discarded_migrated;/* begin and end TSC_AUX differed: the thread changed CPU */
    uint64_t discarded_negative;/* end reading before begin reading */
    uint64_t warmup_discarded;  /* first sample of each ensemble, taken and dropped */
    int aux_checked;            /* migrations could be detected (RDTSCP present) */
    int budget_limited;         /* samples were reduced to fit budget_s */
    double seconds_per_sample;  /* from the pilot run, wall clock */
    int pin_status;             /* 0 pinned or not asked; else an errno-style code */
    int fifo_status;            /* 0 under SCHED_FIFO or not asked; else an errno-style code */
    uint32_t rt_pauses;         /* pauses taken between ensembles to avoid RT throttling */
    double seconds;             /* wall time of the whole run */
} tks_sample_run;

/* Fill plan with defaults for method: 100 x 10000, no work, no pinning. */
void tks_sample_plan_init(tks_sample_plan *plan, enum tks_method method);
/* The CPU's features, probed once per process (CPUID traps under a hypervisor). */
const struct tks_cpu_features *tks_cpu_features_get(void);
/* Take the samples. On success run->ticks must be released with tks_sample_run_free. */
int tks_sample_take(const tks_sample_plan *plan, tks_sample_run *run);
void tks_sample_run_free(tks_sample_run *run);
/* Deltas between n+1 consecutive begin readings of a method, back to back. */
int tks_sample_read_deltas(enum tks_method method, uint64_t *deltas, size_t n);
/* The same with a varying amount of work before each reading, so that the deltas vary and the
 * timer's step is the only divisor they share (see tks_quantum_from_deltas). */
int tks_sample_read_spread_deltas(enum tks_method method, uint64_t *deltas, size_t n);
/* Look a method up by name; -1 if unknown. */
int tks_method_from_name(const char *name);

/* Summarise each of `ensembles` rows of `samples` values; scratch holds `samples` values. */
int tks_summarize_ensembles(const uint64_t *ticks, uint32_t ensembles, uint32_t samples,
                            uint64_t quantum, uint64_t *scratch, tks_summary *out);

/* The timer quantum seen through consecutive begin readings of a fenced method, and (if
 * unfenced_min is not NULL) the smallest nonzero step between back-to-back unfenced reads
 * (0 when no unfenced method exists). */
int tks_measure_quantum(enum tks_method fenced, uint64_t *quantum, uint64_t *unfenced_min);

#ifdef __cplusplus
}
#endif
#endif
