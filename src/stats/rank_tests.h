/* SPDX-License-Identifier: MIT */
/* rank_tests.h: the tests behind "is B faster than A?": Mann-Whitney U with the Hodges-Lehmann shift
 * and its interval (enough figures a side), a smoothed bootstrap (few), and a t interval over
 * paired differences (A and B measured in turns). Pure functions, no I/O. */
#ifndef TKS_STATS_COMPARE_H
#define TKS_STATS_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* The smallest two-sided p the exact U test can give with nx and ny figures (all of one side
 * below all of the other): 2 / C(nx + ny, nx), at most 1. With 2 and 2 it is 1/3, with 3 and 3
 * 0.1, with 3 and 4 0.057: none can reach 5%; with 4 and 4 it is 0.029, with 3 and 5 0.036. */
double tks__utest_min_p(size_t nx, size_t ny);

typedef struct tks__utest {
    double u;        /* pairs (x_i, y_j) with y_j > x_i, ties counting a half */
    double p;        /* two-sided */
    int exact;       /* p from the exact distribution (no ties, both sides <= 20) */
    double shift;    /* Hodges-Lehmann: the median of all y_j - x_i */
    double lo, hi;   /* its ~95% distribution-free interval (order statistics of the
                        differences; the extremes when there are too few) */
} tks__utest;

/* y against x. 0; TKS_EINVAL (fewer than 1 a side, a NaN); TKS_ENOMEM. */
int tks__mann_whitney(const double *x, size_t nx, const double *y, size_t ny, tks__utest *out);

/* A side of a comparison with few figures: each figure with the standard error of its own
 * interval. */
typedef struct tks__bootstrap {
    double ratio;    /* mean(y) / mean(x) from the figures themselves */
    double lo, hi;   /* 2.5% and 97.5% of the bootstrap ratios */
    double p;        /* two-sided: twice the smaller share of ratios on one side of 1 */
} tks__bootstrap;

/* Smoothed bootstrap of mean(y) / mean(x): each draw resamples each side's figures with
 * replacement and moves each drawn figure by a normal deviate of its own standard error (se
 * may be NULL: none). draws > 0; seed makes it reproducible. 0 or TKS_EINVAL (no figures, a
 * mean of x not above 0). */
int tks__bootstrap_ratio(const double *x, const double *x_se, size_t nx, const double *y,
                         const double *y_se, size_t ny, size_t draws, uint64_t seed,
                         tks__bootstrap *out);

/* Mean of d[0..n) and the half-width of its 95% t interval (n - 1 degrees of freedom; infinite
 * for n < 2). */
void tks__paired_t(const double *d, size_t n, double *mean, double *half);

/* A small, fast generator for resampling (splitmix64) and a standard normal from it. */
uint64_t tks__rand_next(uint64_t *state);
double tks__rand_normal(uint64_t *state);

#endif
