/* SPDX-License-Identifier: MIT */
/* bins.c: the histogram binning rule shared by the terminal and gnuplot histograms, so the same
 * samples are binned alike whichever draws them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/bins.h"
#include "tickscope.h"

/* The order statistics of the samples, from a sorted array by index or else by selection. */
struct order {
    const uint64_t *x;
    size_t n;
    int sorted;
    uint64_t mn, mx;
    uint64_t *counts; /* SELECT_BUCKETS of them, unsorted only */
};

/* The k-th smallest (0-based) of x[0..n), all in [lo, hi], without copying or sorting the
 * samples: count them in buckets over [lo, hi], keep the bucket holding rank k, repeat until it
 * is one value wide. Each pass narrows the range 4096-fold, so even a 64-bit range takes six;
 * a --paper run's 10^8 samples are never duplicated in memory. *le is the number of samples at
 * or below the result, which tells whether rank k + 1 holds the same value. */
#define SELECT_BUCKETS 4096
static uint64_t select_rank(const struct order *o, size_t k, size_t *le)
{
    uint64_t lo = o->mn, hi = o->mx, *counts = o->counts;

    *le = o->n; /* lo == hi from the start: every sample is that value */
    while (lo < hi) {
        uint64_t width = (hi - lo) / SELECT_BUCKETS + 1, cum = 0, start;
        size_t i, b;

        memset(counts, 0, SELECT_BUCKETS * sizeof *counts);
        for (i = 0; i < o->n; i++) {
            if (o->x[i] < lo)
                cum++;
            else if (o->x[i] <= hi)
                counts[(o->x[i] - lo) / width]++;
        }
        for (b = 0; b < SELECT_BUCKETS - 1 && cum + counts[b] <= k; b++)
            cum += counts[b];
        *le = (size_t)(cum + counts[b]);
        start = lo + (uint64_t)b * width;
        hi = hi - start < width - 1 ? hi : start + (width - 1);
        lo = start;
    }
    return lo;
}

/* The smallest sample above v (there is one: v is not the largest). */
static uint64_t next_above(const struct order *o, uint64_t v)
{
    uint64_t best = UINT64_MAX;

    for (size_t i = 0; i < o->n; i++)
        if (o->x[i] > v && o->x[i] < best)
            best = o->x[i];
    return best;
}

/* The type-7 quantile at p (0 < p < 1), computed exactly as tks_quantile_sorted computes it, so
 * sorted and unsorted input give the same bins and the terminal's bins stay where they were. */
static long double quantile(const struct order *o, double p)
{
    long double h = (long double)p * (long double)(o->n - 1);
    size_t k = (size_t)h, le;
    uint64_t a, b;

    if (k >= o->n - 1)
        return (long double)o->mx;
    if (o->sorted) {
        a = o->x[k];
        b = o->x[k + 1];
    } else {
        a = select_rank(o, k, &le);
        b = h == (long double)k ? a : le > k + 1 ? a : next_above(o, a);
    }
    /* Rounded through double as tks_quantile_sorted's result is. */
    return (double)((long double)a + (h - (long double)k) * (long double)(b - a));
}

/* Whole ticks at or above / at or below x, saturating: quantiles are doubles, and one near 2^64
 * can round past the largest uint64_t. */
static uint64_t ceil_u64(long double x)
{
    long double c = ceill(x);

    if (!(c > 0))
        return 0;
    return c >= 0x1p64L ? UINT64_MAX : (uint64_t)c;
}

static uint64_t floor_u64(long double x)
{
    long double f = floorl(x);

    if (!(f > 0))
        return 0;
    return f >= 0x1p64L ? UINT64_MAX : (uint64_t)f;
}

/* The fences and percentiles as a range of whole ticks: the bins then start at the smallest
 * sample inside it and end at the largest, not at the fences: between a fence and the nearest
 * sample there is nothing to draw, and empty bins there would only push the data into wider
 * bins. */
static void bulk_ticks(const struct order *o, uint64_t quantum, uint64_t *lo, uint64_t *hi)
{
    long double q1 = quantile(o, 0.25), q3 = quantile(o, 0.75);
    long double p01 = quantile(o, 0.01), p99 = quantile(o, 0.99);
    long double iqr = q3 - q1;

    if (iqr < (long double)(quantum ? quantum : 1))
        iqr = (long double)(quantum ? quantum : 1);
    *lo = ceil_u64(fminl(q1 - 3 * iqr, p01));
    *hi = floor_u64(fmaxl(q3 + 3 * iqr, p99));
}

size_t tks__bins_first_from(const uint64_t *s, size_t n, uint64_t v)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] >= v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int tks__bins_bulk_sorted(const uint64_t *sorted, size_t n, uint64_t quantum, uint64_t *first,
                         uint64_t *last)
{
    struct order o = {sorted, n, 1, 0, 0, NULL};
    uint64_t lo, hi;
    size_t i, j;

    if (!sorted || n == 0 || !first || !last)
        return TKS_EINVAL;
    o.mn = sorted[0];
    o.mx = sorted[n - 1];
    bulk_ticks(&o, quantum, &lo, &hi);
    i = tks__bins_first_from(sorted, n, lo);
    j = hi == UINT64_MAX ? n : tks__bins_first_from(sorted, n, hi + 1);
    /* The range always holds a sample (it reaches from at most Q1 to at least Q3 and the
     * percentiles lie between samples); this only guards against rounding in the quantiles. */
    if (i >= j) {
        i = 0;
        j = n;
    }
    *first = sorted[i];
    *last = sorted[j - 1];
    return 0;
}

int tks__bins_bulk(const uint64_t *x, size_t n, uint64_t quantum, uint64_t *first, uint64_t *last,
                  uint64_t *min)
{
    struct order o = {x, n, 1, UINT64_MAX, 0, NULL};
    uint64_t lo, hi, in_lo = UINT64_MAX, in_hi = 0;
    int any = 0;

    if (!x || n == 0 || !first || !last)
        return TKS_EINVAL;
    for (size_t i = 0; i < n; i++) {
        o.mn = x[i] < o.mn ? x[i] : o.mn;
        o.mx = x[i] > o.mx ? x[i] : o.mx;
        o.sorted &= i == 0 || x[i - 1] <= x[i];
    }
    if (min)
        *min = o.mn;
    if (o.sorted)
        return tks__bins_bulk_sorted(x, n, quantum, first, last);
    if (!(o.counts = malloc(SELECT_BUCKETS * sizeof *o.counts)))
        return TKS_ENOMEM;
    bulk_ticks(&o, quantum, &lo, &hi);
    free(o.counts);
    for (size_t i = 0; i < n; i++)
        if (x[i] >= lo && x[i] <= hi) {
            any = 1;
            in_lo = x[i] < in_lo ? x[i] : in_lo;
            in_hi = x[i] > in_hi ? x[i] : in_hi;
        }
    /* As in the sorted case: only rounding could leave the range empty. */
    *first = any ? in_lo : o.mn;
    *last = any ? in_hi : o.mx;
    return 0;
}

void tks__bins_layout(uint64_t first, uint64_t last, uint64_t origin, uint64_t quantum,
                     size_t max_bins, tks__bins *b)
{
    uint64_t k, nbins;

    if (quantum == 0)
        quantum = 1;
    if (max_bins == 0)
        max_bins = 1;
    b->lo = first - (first - origin) % quantum;
    /* The narrowest bin that fits (last - lo + 1) ticks into max_bins bins, rounded up to whole
     * quanta; computed from last - lo, which cannot overflow where last - lo + 1 can. */
    k = (last - b->lo) / max_bins / quantum; /* one less than the quanta per bin */
    if (k >= UINT64_MAX / quantum) {
        /* Only a range near 2^64 ticks gets here. No multiple of the quantum is wide enough,
         * so the bins fall short of last. */
        b->width = UINT64_MAX / quantum * quantum;
    } else {
        b->width = (k + 1) * quantum;
    }
    nbins = (last - b->lo) / b->width + 1;
    b->nbins = (size_t)(nbins > max_bins ? max_bins : nbins);
}
