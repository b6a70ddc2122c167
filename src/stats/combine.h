/* SPDX-License-Identifier: MIT */
/* combine.h: two estimates of one quantity, each a value with a ~95% interval: whether they
 * agree, and their inverse-variance combination (the narrower one weighs more). Pure functions,
 * like the rest of stats/. */
#ifndef TKS_STATS_COMBINE_H
#define TKS_STATS_COMBINE_H

#include "tickscope/stats.h"

/* By how much |a - b| exceeds what the two intervals' half-widths, combined in quadrature,
 * allow; <= 0 when they overlap that well. */
double tks__intervals_excess(const tks_interval *a, const tks_interval *b);

/* 1 when a and b agree: their excess is at most rel times the larger value (a slack for what
 * neither interval holds), else 0. NaN anywhere: 0. */
int tks__intervals_agree(const tks_interval *a, const tks_interval *b, double rel);

/* The inverse-variance mean of a and b, its half-width 1/sqrt(1/ha^2 + 1/hb^2) widened by their
 * excess when that is positive (two figures let through by the slack differ by more than their
 * intervals say). An exact figure (half-width 0) is taken as it is. */
tks_interval tks__intervals_combine(const tks_interval *a, const tks_interval *b);

#endif
