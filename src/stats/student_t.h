/* SPDX-License-Identifier: MIT */
/* student_t.h: Student's t distribution for every number of degrees of freedom: its distribution
 * function from the regularised incomplete beta function, and its quantiles by inverting it. */
#ifndef TKS_STATS_STUDENT_T_H
#define TKS_STATS_STUDENT_T_H

#include <stddef.h>

/* The regularised incomplete beta function I_x(a, b), a > 0, b > 0, 0 <= x <= 1 (NaN outside). */
double tks__inc_beta(double x, double a, double b);

/* P(T <= t) for T with dof > 0 degrees of freedom (dof need not be whole). */
double tks__t_cdf(double t, double dof);

/* The t with P(T <= t) = p, 0 < p < 1, dof > 0; NaN outside. */
double tks__t_quantile(double p, double dof);

/* Student's t at 97.5% (the half-width factor of a two-sided 95% interval) for dof degrees of
 * freedom; infinite for none. */
double tks__t975(size_t dof);

#endif
