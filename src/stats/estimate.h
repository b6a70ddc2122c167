/* SPDX-License-Identifier: MIT */
/* estimate.h: the cost of one execution of a benchmark's block from paired windows (the real one
 * and the empty one taken just before it): minimum, median and phase-averaged mean with
 * confidence intervals, and in throughput mode the least-squares slope over repetition counts.
 * Pure functions over sample arrays, like the rest of stats/. */
#ifndef TKS_STATS_ESTIMATE_H
#define TKS_STATS_ESTIMATE_H

#include "stats/student_t.h"
#include "tickscope/stats.h"

typedef struct tks__estimate {
    tks_interval min, median, mean, slope; /* per execution, ticks, empty window subtracted */
    double intercept, slope_r2;            /* throughput */
    size_t points;                         /* throughput: distinct k */
    tks_summary real, empty;               /* real windows (the largest k in throughput) and empty ones */
    uint64_t k_max;
} tks__estimate;

/* Latency: one execution per real window. real[i] and empty[i], i < n, n >= 2. scratch holds n. */
int tks__estimate_latency(const uint64_t *real, const uint64_t *empty, size_t n, uint64_t quantum,
                         uint64_t *scratch, tks__estimate *out);

/* Throughput: real[i] held k[i] executions. At least three distinct k, each seen twice or more;
 * scratch holds 2n values. The slope is fitted through each k's phase-averaged mean; its interval
 * is the wider of the fit's residual scatter (t with points - 2 degrees of freedom) and the
 * per-point intervals carried through the fit. */
int tks__estimate_throughput(const uint64_t *real, const uint32_t *k, const uint64_t *empty, size_t n,
                            uint64_t quantum, uint64_t *scratch, tks__estimate *out);

#endif
