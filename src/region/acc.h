/* SPDX-License-Identifier: MIT */
/* acc.h: a region's figures merged over threads, with exact moments in 32-bit limbs (no
 * __int128, so i386 computes the same numbers), and the merge of per-thread reservoirs. Pure:
 * no globals, no I/O. */
#ifndef TKS_REGION_ACC_H
#define TKS_REGION_ACC_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/region.h"

typedef struct tks__region_acc {
    uint64_t count;
    uint32_t sum[4];          /* 128 bits, little-endian limbs */
    uint32_t sq[6];           /* 192 bits */
    uint64_t min, max;        /* min is UINT64_MAX while count is 0 */
    uint64_t ends_without_begin, unterminated, negative, moved;
    unsigned threads;
} tks__region_acc;

void tks__region_acc_init(tks__region_acc *a);
/* Add one thread's slot (its open passes count as unterminated). */
void tks__region_acc_merge_slot(tks__region_acc *a, const struct tks__region_slot *s);
/* The sum as a long double (exact below 2^64). */
long double tks__region_acc_sum(const tks__region_acc *a);
double tks__region_acc_mean(const tks__region_acc *a);
/* Population variance: (n * sum(x^2) - sum(x)^2) / n^2, the numerator in exact integers. */
double tks__region_acc_variance(const tks__region_acc *a);

/* Merge reservoirs into one uniform sample of at most cap values: source i kept len[i] of its
 * count[i] passes, and contributes floor(cap * count[i] / total) of them (never more than it
 * kept), chosen at random with the seed. Returns how many values were written to out. */
size_t tks__region_merge_kept(const uint64_t *const *kept, const size_t *len, const uint64_t *count,
                             size_t nsources, size_t cap, uint64_t seed, uint64_t *out);

/* The timer's step as a sample shows it: the gcd of the spacings between the values that occur
 * often (at least max(2, n/1000) times), so a rare odd reading does not make it 1. sorted: n
 * values, ascending. 1 when only one value is common (the step is then not seen). */
uint64_t tks__region_step_of(const uint64_t *sorted, size_t n);
/* A figure net of sub, never negative: raw - sub, except that a difference below resolution sets
 * bit in *below and is clamped at 0 (kept when between 0 and the resolution). NaN stays NaN. */
double tks__region_net(double raw, double sub, double resolution, unsigned bit, unsigned *below);

#endif
