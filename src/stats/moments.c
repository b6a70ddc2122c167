/* SPDX-License-Identifier: MIT */
/* moments.c: exact mean and population variance of tick counts, and a careful one for doubles.
 * Integer sums are kept wide enough never to overflow; only the final division is rounded. */
#include "stats/moments.h"
#include "stats/u128.h"
#include "tickscope.h"

#include <stddef.h>
#include <stdint.h>


static uint64_t u64_at(const void *base, size_t i, size_t stride)
{
    return *(const uint64_t *)(const void *)((const char *)base + i * stride);
}

static double double_at(const void *base, size_t i, size_t stride)
{
    return *(const double *)(const void *)((const char *)base + i * stride);
}

/* out = a * b for little-endian 64-bit limbs; the caller guarantees na + nb <= 4, so the
 * product fits and every carry lands inside out. */
static void mul_limbs(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = 0;
    for (int i = 0; i < na; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < nb; j++) {
            /* (2^64-1)^2 + 2 (2^64-1) = 2^128 - 1: cannot overflow. */
            tks__u128 t = tks__u128_add64(tks__u128_add64(tks__u128_mul64(a[i], b[j]), out[i + j]), carry);
            out[i + j] = tks__u128_lo(t);
            carry = tks__u128_hi(t);
        }
        out[i + nb] = carry;
    }
}

/* a -= b; the caller guarantees a >= b. */
static void sub_limbs(uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t d = a[i] - b[i];
        uint64_t next = (a[i] < b[i]) || (d < borrow);
        a[i] = d - borrow;
        borrow = next;
    }
}

static long double limbs_to_ld(const uint64_t a[4])
{
    long double v = 0;
    for (int i = 3; i >= 0; i--)
        v = v * 0x1p64L + (long double)a[i];
    return v;
}

/* d*d added to a 192-bit sum: n < 2^64 squares below 2^128 each cannot reach 2^192. */
static void add_square(uint64_t acc[3], uint64_t d)
{
    tks__u128 sq = tks__u128_mul64(d, d);
    tks__u128 low = tks__u128_add(tks__u128_make(acc[1], acc[0]), sq);
    acc[2] += tks__u128_lt(low, sq);
    acc[0] = tks__u128_lo(low);
    acc[1] = tks__u128_hi(low);
}

/* n * sum(d^2) - (sum d)^2 >= 0 (Cauchy-Schwarz), below 2^256. */
static long double variance_numerator(size_t n, tks__u128 s1, const uint64_t s2[3])
{
    uint64_t count = (uint64_t)n, lhs[4], rhs[4];
    uint64_t s1_limbs[2] = { tks__u128_lo(s1), tks__u128_hi(s1) };
    mul_limbs(s2, 3, &count, 1, lhs);
    mul_limbs(s1_limbs, 2, s1_limbs, 2, rhs);
    sub_limbs(lhs, rhs);
    return limbs_to_ld(lhs);
}

/* Shifting by the minimum keeps the sums small for the usual case (timings close together)
 * and makes the arithmetic exact for any values. */
void tks__moments_u64_stride(const void *base, size_t n, size_t stride, double *mean,
                            double *variance)
{
    uint64_t min = UINT64_MAX, s2[3] = { 0, 0, 0 };
    tks__u128 s1 = tks__u128_from(0);

    if (n == 0) {
        *mean = 0;
        *variance = 0;
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (u64_at(base, i, stride) < min)
            min = u64_at(base, i, stride);
    for (size_t i = 0; i < n; i++) {
        uint64_t d = u64_at(base, i, stride) - min;
        s1 = tks__u128_add64(s1, d);
        add_square(s2, d);
    }
    /* min + floor(s1/n) is at most the maximum, so it fits; the remainder adds the fraction. */
    uint64_t r;
    tks__u128 q = tks__u128_divmod64(s1, (uint64_t)n, &r);
    *mean = (double)((long double)(min + tks__u128_lo(q)) + (long double)r / (long double)n);
    *variance = (double)(variance_numerator(n, s1, s2) / (long double)n / (long double)n);
}

double tks_variance_u64(const uint64_t *x, size_t n)
{
    double mean, variance;
    if (!x || n < 2)
        return 0;
    tks__moments_u64_stride(x, n, sizeof *x, &mean, &variance);
    return variance;
}

/* Two passes; the second subtracts the residual sum (corrected two-pass algorithm) to cancel
 * the rounding error left in the mean. */
double tks__variance_double_stride(const void *base, size_t n, size_t stride)
{
    long double sum = 0, sq = 0, resid = 0, mean;

    if (n < 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        sum += double_at(base, i, stride);
    mean = sum / (long double)n;
    for (size_t i = 0; i < n; i++) {
        long double d = double_at(base, i, stride) - mean;
        sq += d * d;
        resid += d;
    }
    return (double)((sq - resid * resid / (long double)n) / (long double)n);
}

double tks_variance_double(const double *x, size_t n)
{
    if (!x)
        return 0;
    return tks__variance_double_stride(x, n, sizeof *x);
}
