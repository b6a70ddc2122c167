/* SPDX-License-Identifier: MIT */
/* bins.h: the one binning rule of tickscope's histograms (terminal and gnuplot): which samples
 * are the bulk worth drawing, and bins of whole timer quanta over them. Pure: no I/O. */
#ifndef TKS_STATS_BINS_H
#define TKS_STATS_BINS_H

#include <stddef.h>
#include <stdint.h>

/* The smallest and largest sample of the bulk: the samples within Tukey's far fences (3 IQR, the
 * IQR taken as at least one quantum, as the summary's inliers are), widened to the 1st and 99th
 * percentiles; quantiles are type 7 (linear between order statistics) as tks_quantile_sorted's.
 * sorted[0..n) ascending; quantum 0 is taken as 1. 0, or TKS_EINVAL. */
int tks__bins_bulk_sorted(const uint64_t *sorted, size_t n, uint64_t quantum, uint64_t *first,
                         uint64_t *last);
/* The same for x[0..n) in any order, found by selection: the samples are neither copied nor
 * sorted. Also gives their minimum (may be NULL). 0, TKS_EINVAL or TKS_ENOMEM. */
int tks__bins_bulk(const uint64_t *x, size_t n, uint64_t quantum, uint64_t *first, uint64_t *last,
                  uint64_t *min);

/* The first index of sorted[0..n) holding a value >= v (n if none), by bisection: a bin's
 * samples in a sorted array are a run found in a few comparisons. */
size_t tks__bins_first_from(const uint64_t *sorted, size_t n, uint64_t v);

/* Bins over [first, last]: each the narrowest whole number of quanta that fits the range into
 * max_bins bins, the first starting on the lattice origin + k * quantum at or below first. */
typedef struct tks__bins {
    uint64_t lo;    /* the first bin starts here */
    uint64_t width; /* a multiple of the quantum */
    size_t nbins;   /* 1..max_bins */
} tks__bins;

/* first <= last and origin <= first; quantum and max_bins 0 are taken as 1. A range near 2^64
 * ticks that no multiple of the quantum can cover in max_bins bins gets bins that fall short
 * of last. */
void tks__bins_layout(uint64_t first, uint64_t last, uint64_t origin, uint64_t quantum,
                     size_t max_bins, tks__bins *b);

#endif
