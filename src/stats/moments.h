/* SPDX-License-Identifier: MIT */
/* moments.h: exact moments of values read at a byte stride, so that one field of an array of
 * structs (say every ensemble's minimum) is summarised in place, without copying it out. */
#ifndef TKS_STATS_MOMENTS_H
#define TKS_STATS_MOMENTS_H

#include <stddef.h>

/* Mean and population variance of n uint64_t values, exact up to the final division. */
void tks__moments_u64_stride(const void *base, size_t n, size_t stride, double *mean,
                            double *variance);
/* Population variance of n doubles. */
double tks__variance_double_stride(const void *base, size_t n, size_t stride);

#endif
