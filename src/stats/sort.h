/* SPDX-License-Identifier: MIT */
/* sort.h: sorting sample arrays, for the layers that need order statistics of their own. */
#ifndef TKS_STATS_SORT_H
#define TKS_STATS_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Ascending, in place. */
void tks__sort_u64(uint64_t *x, size_t n);
/* x[0..n) ascending into out (which may be x); by digits where that is faster, with a buffer of
 * n values it allocates (a comparison sort when it cannot). */
void tks__sort_u64_into(const uint64_t *x, size_t n, uint64_t *out);
/* The median of v[0..n) (the mean of the middle two for even n), sorting v in place; NaN for
 * n == 0. */
double tks__median(double *v, size_t n);

#endif
