/* SPDX-License-Identifier: MIT */
/* tickscope/stats.h: pure functions over sample arrays (ticks): the white paper's ensemble
 * statistics made exact and quantum-aware, robust estimates, fits and resolution. */
#ifndef TICKSCOPE_STATS_H
#define TICKSCOPE_STATS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A figure with its uncertainty: [lo, hi] is a ~95% confidence interval (in the figure's unit:
 * ticks for a benchmark's windows, core cycles where said). */
typedef struct tks_interval {
    double value, lo, hi;
} tks_interval;

/* The add check: does the reference chain of dependent adds, which every core-cycle figure rests
 * on, run one add a core cycle? Dependent multiplies and floating-point adds are timed beside it;
 * their latencies are whole numbers of cycles, so when both read the same fraction off a whole
 * number of adds, the adds ran slow (docs/benchmarks.md). */
typedef struct tks_add_check {
    enum tks_add_check_verdict {
        TKS_ADD_CHECK_NONE = 0, /* not read: too few windows, or a chain not near a whole number */
        TKS_ADD_CHECK_HOLDS,    /* one add a cycle, within 0.1% or three standard errors */
        TKS_ADD_CHECK_SLOW,     /* both chains say the adds took add_cycles cycles each */
        TKS_ADD_CHECK_DISAGREE  /* one chain says the adds ran over 0.5% slow, the other not,
                                 * or both put them over 5% off: nothing corrected */
    } verdict;
    double mul_adds, fp_adds;   /* the multiply's and the FP add's latency in adds (NaN: none) */
    double add_cycles;          /* core cycles an add took: 1 unless SLOW */
    double add_cycles_se;       /* its standard error; under HOLDS, what the check could not
                                 * tell from one cycle (its error, and what it saw above one) */
} tks_add_check;

/* Moments are exact: sums are kept in
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
    uint64_t outliers_low, outliers_high; /* outside Tukey's fences (1.5 IQR, at least 1 quantum) */
    /* Phase-averaged mean: mean of the inliers (within Tukey's far fences, 3 IQR, the IQR taken
     * as at least one quantum). Readings start at random phases of the timer quantum, so this
     * mean resolves durations below one quantum where the minimum and median cannot. */
    double pa_mean, pa_ci;    /* estimate and ~95% half-width (1.96 standard errors) */
    double inlier_variance;   /* population variance of those inliers */
    uint64_t pa_n;            /* how many samples the inlier figures use */
} tks_summary;

/* Summarise x[0..n). scratch must hold n values (it receives a sorted copy of x).
 * quantum: the timer step in ticks (1 if unknown). */
TKS_API int tks_summarize(const uint64_t *x, size_t n, uint64_t quantum, uint64_t *scratch,
                  tks_summary *out);

/* Quantile p in [0,1] of sorted[0..n), linear interpolation (Hyndman-Fan type 7). */
TKS_API double tks_quantile_sorted(const uint64_t *sorted, size_t n, double p);

/* Exact population variance of x[0..n) (0 for n < 2). Works for any uint64_t values. */
TKS_API double tks_variance_u64(const uint64_t *x, size_t n);
/* Population variance of doubles (two-pass, long double accumulators). */
TKS_API double tks_variance_double(const double *x, size_t n);

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

TKS_API int tks_across_ensembles(const tks_summary *ens, size_t count, tks_across *out);

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

TKS_API int tks_ergodicity_test(const tks_across *a, uint64_t quantum, tks_ergodicity *out);

/* Least squares y = intercept + slope * x. */
typedef struct tks_fit {
    size_t n;
    double slope, intercept;
    double r2;                   /* coefficient of determination (1 when all y are equal and fit) */
    double residual_sd;          /* sqrt(SSR / (n - 2)), 0 for n <= 2 */
    double slope_se, intercept_se;
} tks_fit;

TKS_API int tks_linear_fit(const double *x, const double *y, size_t n, tks_fit *out);

/* The timer quantum from deltas between consecutive fenced reads: the largest q, from 1 up to
 * the smallest nonzero delta, that divides at least 99% of the nonzero deltas. 1 if none. */
TKS_API uint64_t tks_quantum_from_deltas(const uint64_t *deltas, size_t n);

/* Resolution of a growing-work series: est[i] is the estimate with i units of work and unc[i]
 * its uncertainty (same units). A step of k units from i-k to i is resolved when
 * est[i] - est[i-k] > sqrt(unc[i]^2 + unc[i-k]^2) and > 0. The resolution is the smallest k
 * for which at least `coverage` (e.g. 0.95) of the steps i = k..n-1 are resolved; 0 when no
 * k up to (n-1)/2 qualifies. *fraction (may be NULL) receives that k's resolved fraction. */
TKS_API size_t tks_resolution(const double *est, const double *unc, size_t n, double coverage,
                      double *fraction);

/* Summarise each of `ensembles` rows of `samples` values; scratch holds `samples` values. */
TKS_API int tks_summarize_ensembles(const uint64_t *ticks, uint32_t ensembles, uint32_t samples,
                            uint64_t quantum, uint64_t *scratch, tks_summary *out);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_STATS_H */
