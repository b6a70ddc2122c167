/* SPDX-License-Identifier: MIT */
/* summary.c: one ensemble's figures: the paper's min, max, deviation and variance, plus robust
 * order statistics, Tukey outliers and the quantum-aware phase-averaged mean. */
#include "stats/moments.h"
#include "stats/sort.h"
#include "stats/u128.h"
#include "tickscope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void tks__sort_u64(uint64_t *x, size_t n)
{
    qsort(x, n, sizeof *x, cmp_u64);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tks__median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double tks_quantile_sorted(const uint64_t *sorted, size_t n, double p)
{
    if (!sorted || n == 0 || isnan(p))
        return NAN;
    if (p <= 0)
        return (double)sorted[0];
    if (p >= 1)
        return (double)sorted[n - 1];
    long double h = (long double)p * (long double)(n - 1);
    size_t lo = (size_t)h;
    if (lo >= n - 1)
        return (double)sorted[n - 1];
    /* The difference is taken in integers so that values near 2^64 do not cancel. */
    return (double)((long double)sorted[lo] +
                    (h - (long double)lo) * (long double)(sorted[lo + 1] - sorted[lo]));
}

/* 4 x the type-7 quantile at p = k/4. (n-1)k/4 has a fractional part in quarters, so this is
 * an exact integer and the fences below can be compared with samples exactly. Below 2^67. */
static tks__u128 quartile_x4(const uint64_t *s, size_t n, unsigned k)
{
    uint64_t frac;
    size_t lo = (size_t)tks__u128_lo(tks__u128_divmod64(tks__u128_mul64((uint64_t)(n - 1), k), 4, &frac));
    tks__u128 q = tks__u128_mul64(s[lo], 4);
    if (frac)
        q = tks__u128_add(q, tks__u128_mul64(frac, s[lo + 1] - s[lo]));
    return q;
}

/* First index i with scale * s[i] > bound (strict) or >= bound (not strict). bound is signed. */
static size_t first_past(const uint64_t *s, size_t n, unsigned scale, tks__u128 bound, int strict)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        tks__u128 v = tks__u128_mul64(s[mid], scale);
        if (strict ? tks__s128_lt(bound, v) : tks__s128_le(bound, v))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Distribution-free interval: the order statistics at ranks n/2 -+ 1.96 sqrt(n)/2 (rounded
 * outwards) cover the median with about 95% probability whatever the distribution. */
static void median_ci(const uint64_t *s, size_t n, tks_summary *out)
{
    double half = 0.98 * sqrt((double)n);
    double j = floor((double)n / 2 - half), k = ceil((double)n / 2 + 1 + half);
    j = j < 1 ? 1 : (j > (double)n ? (double)n : j);
    k = k < 1 ? 1 : (k > (double)n ? (double)n : k);
    out->median_lo = (double)s[(size_t)j - 1];
    out->median_hi = (double)s[(size_t)k - 1];
}

/* Deviations from the median grow leftwards from index n/2 and rightwards from it, so merging
 * the two runs visits them in increasing order: the MAD needs no second sort. m2 is twice the
 * median, which keeps every deviation (doubled) an exact integer. */
static double mad_sorted(const uint64_t *s, size_t n, tks__u128 m2)
{
    size_t a = (n - 1) / 2, b = n / 2, left = b, right = b;
    tks__u128 dev_a = tks__u128_from(0), dev = tks__u128_from(0);

    for (size_t k = 0; k <= b; k++) {
        int take_left;
        if (left == 0)
            take_left = 0;
        else if (right == n)
            take_left = 1;
        else
            take_left = tks__u128_le(tks__u128_sub(m2, tks__u128_mul64(s[left - 1], 2)),
                                    tks__u128_sub(tks__u128_mul64(s[right], 2), m2));
        dev = take_left ? tks__u128_sub(m2, tks__u128_mul64(s[--left], 2))
                        : tks__u128_sub(tks__u128_mul64(s[right++], 2), m2);
        if (k == a)
            dev_a = dev;
    }
    return (double)(tks__u128_to_ld(tks__u128_add(dev_a, dev)) / 4);
}

static void order_statistics(const uint64_t *s, size_t n, tks_summary *out)
{
    tks__u128 m2 = tks__u128_add64(tks__u128_from(s[(n - 1) / 2]), s[n / 2]);

    out->median = (double)(tks__u128_to_ld(m2) / 2);
    out->q1 = (double)(tks__s128_to_ld(quartile_x4(s, n, 1)) / 4);
    out->q3 = (double)(tks__s128_to_ld(quartile_x4(s, n, 3)) / 4);
    median_ci(s, n, out);
    out->mad = mad_sorted(s, n, m2);
}

/* Tukey's fences at 1.5 IQR count outliers; the far fences at 3 IQR choose the inliers. Both
 * take the IQR as at least one quantum: a quantised timer (samples all 52 or 78) has IQR 0, and
 * without the floor every reading one step away would be an outlier and be trimmed, biasing the
 * phase average. Bounds are scaled by 8 (inner) and 4 (far) to stay in integers. */
static void fences(const uint64_t *s, size_t n, uint64_t quantum, tks_summary *out)
{
    tks__u128 q1 = quartile_x4(s, n, 1), q3 = quartile_x4(s, n, 3);
    tks__u128 w = tks__u128_sub(q3, q1), q4 = tks__u128_mul64(quantum, 4);
    tks__u128 w3;
    size_t lo, hi;

    if (tks__s128_lt(w, q4))
        w = q4;
    w3 = tks__u128_mul_small(w, 3);
    /* Signed: the lower fences go below zero when the spread is wide. */
    out->outliers_low = first_past(s, n, 8, tks__u128_sub(tks__u128_mul_small(q1, 2), w3), 0);
    out->outliers_high = n - first_past(s, n, 8, tks__u128_add(tks__u128_mul_small(q3, 2), w3), 1);
    lo = first_past(s, n, 4, tks__u128_sub(q1, w3), 0);
    hi = first_past(s, n, 4, tks__u128_add(q3, w3), 1);
    out->pa_n = hi - lo;
    tks__moments_u64_stride(s + lo, hi - lo, sizeof *s, &out->pa_mean, &out->inlier_variance);
    /* Standard error with the unbiased variance: var * n/(n-1) / n. */
    out->pa_ci = hi - lo > 1 ? 1.96 * sqrt(out->inlier_variance / (double)(hi - lo - 1)) : 0;
}

int tks_summarize(const uint64_t *x, size_t n, uint64_t quantum, uint64_t *scratch,
                  tks_summary *out)
{
    if (!x || !scratch || !out || n == 0)
        return TKS_EINVAL;
    if (quantum == 0)
        quantum = 1;
    tks__sort_u64_into(x, n, scratch);

    memset(out, 0, sizeof *out);
    out->n = n;
    out->min = scratch[0];
    out->max = scratch[n - 1];
    out->max_deviation = out->max - out->min;
    tks__moments_u64_stride(scratch, n, sizeof *scratch, &out->mean, &out->variance);
    order_statistics(scratch, n, out);
    fences(scratch, n, quantum, out);
    return TKS_OK;
}
