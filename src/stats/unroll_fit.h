/* SPDX-License-Identifier: MIT */
/* unroll_fit.h: the cost of one copy of a snippet from windows unrolled k times for several k,
 * estimated per stretch of the run and fitted by least squares; and a ratio of two such costs
 * (the snippet over a reference chain of known cost) with its interval. Pure. */
#ifndef TKS_STATS_UNROLL_FIT_H
#define TKS_STATS_UNROLL_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/stats.h"

#define TKS__UNROLL_DISCARDED UINT64_MAX /* a window that is not a sample (the CPU changed) */
#define TKS__UNROLL_BLOCKS_MAX 16

typedef struct tks__unroll_fit {
    tks_fit fit;              /* through every (k, block mean of ticks / loops) point */
    double value, lo, hi;     /* ticks per copy (the slope) and its 95% interval */
    double half_fit;          /* the fit's own half-width, t(points - 2) x slope_se */
    double half_between;      /* t(blocks - 1) x the standard error of the blocks' slopes (0: n/a) */
    size_t blocks;            /* stretches fitted apart */
    double block_slope[TKS__UNROLL_BLOCKS_MAX];
    uint64_t kept, discarded; /* windows within the fences; left out (fenced off or marked) */
} tks__unroll_fit;

/* ticks[r * nk + j] is the window of round r (time order) unrolled k[j] times, each window
 * `loops` iterations of the loop; TKS__UNROLL_DISCARDED marks one that is no sample. The rounds
 * are cut into `blocks` stretches (1..TKS__UNROLL_BLOCKS_MAX, at most rounds); in each, every
 * k's windows are reduced to the mean of those within max(5 scaled MADs, quantum) of their
 * median (an interrupt adds thousands of ticks to one window), divided by loops. The interval
 * is the wider of the fit's and the between-blocks one. TKS_EINVAL for fewer than two distinct
 * k, no rounds, or a block and k with no window; TKS_ENOMEM. */
int tks__unroll_estimate(const uint64_t *ticks, size_t rounds, const uint32_t *k, size_t nk,
                    uint64_t loops, uint64_t quantum, size_t blocks, tks__unroll_fit *out);

/* num / den, both unroll fits over the same blocks: the value num->value / den->value, a 95%
 * interval combining their relative half-widths in quadrature, widened to the t interval of the
 * blocks' own ratios when that is wider. 0, or TKS_EINVAL when den is not positive. */
int tks__unroll_ratio(const tks__unroll_fit *num, const tks__unroll_fit *den, double *value,
                      double *lo, double *hi);

#endif
