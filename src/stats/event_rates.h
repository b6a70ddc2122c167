/* SPDX-License-Identifier: MIT */
/* event_rates.h: event counts per execution from batches: the ratio of the sums, with the 95%
 * interval of a ratio estimator over the batches. Pure. */
#ifndef TKS_STATS_EVENT_RATES_H
#define TKS_STATS_EVENT_RATES_H

#include <stddef.h>

#include "tickscope/stats.h"

/* counts[i * stride] events over execs[i * stride] executions, i < n (two fields of an array
 * of structs): sum(counts) / sum(execs), its
 * interval t(n - 1) standard errors of the ratio either side (infinite for one batch). NaN and
 * TKS_EINVAL without a batch or executions. */
int tks__event_rate(const double *counts, size_t stride, const double *execs, size_t n,
                    tks_interval *out);
/* The same from running sums, for counts kept one pass at a time (the regions): n batches,
 * sums of d (events), e (executions), d*d, e*e and d*e. */
typedef struct tks__event_sums {
    double n, d, e, dd, ee, de;
} tks__event_sums;
void tks__event_sums_add(tks__event_sums *s, double d, double e);
void tks__event_sums_merge(tks__event_sums *to, const tks__event_sums *from);
int tks__event_rate_sums(const tks__event_sums *s, tks_interval *out);
/* a less b, the half-widths added in quadrature. */
tks_interval tks__interval_less(const tks_interval *a, const tks_interval *b);

#endif
