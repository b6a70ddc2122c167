/* SPDX-License-Identifier: MIT */
/* test_stats_bins.c: the histogram binning rule (stats/bins.h) on hand-worked cases: which samples
 * form the bulk, bins of whole quanta on a lattice, and sorted and unsorted input binned alike. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "stats/bins.h"
#include "tickscope.h"

#define EINVAL_U64 ((uint64_t)(int64_t)TKS_EINVAL)

static void fill(uint64_t *x, size_t *n, uint64_t v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        x[(*n)++] = v;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Both entry points on x (ascending): the sorted one, and the unsorted one on x reversed, which
 * must agree; *first and *last from the sorted one. */
static void bulk_both(const uint64_t *x, size_t n, uint64_t q, uint64_t *first, uint64_t *last)
{
    uint64_t *rev = malloc(n * sizeof *rev), f2 = 1, l2 = 0, mn = 1;

    CHECK(rev != NULL);
    *first = 1;
    *last = 0;
    CHECK_EQ_U64(tks__bins_bulk_sorted(x, n, q, first, last), 0);
    if (!rev)
        return;
    for (size_t i = 0; i < n; i++)
        rev[i] = x[n - 1 - i];
    CHECK_EQ_U64(tks__bins_bulk(rev, n, q, &f2, &l2, &mn), 0);
    CHECK_EQ_U64(f2, *first);
    CHECK_EQ_U64(l2, *last);
    CHECK_EQ_U64(mn, x[0]);
    free(rev);
}

/* 200 samples, q = 2: 10, 20 x 50, 100 x 52, 60 x 54, 18 x 58, 900. Q1 = 52, Q3 = 54 (IQR 2),
 * far fences 46 and 60; the 1st and 99th percentiles (50 and 58) lie inside them. The bulk is
 * the samples in [46, 60]: 50..58, not the fences. */
static void test_fences(void)
{
    uint64_t x[200], first, last;
    size_t n = 0;

    fill(x, &n, 10, 1);
    fill(x, &n, 50, 20);
    fill(x, &n, 52, 100);
    fill(x, &n, 54, 60);
    fill(x, &n, 58, 18);
    fill(x, &n, 900, 1);
    bulk_both(x, n, 2, &first, &last);
    CHECK_EQ_U64(first, 50);
    CHECK_EQ_U64(last, 58);
}

/* 80 x 44, 15 x 46, 4 x 48, 1000, q = 2. Q1 = Q3 = 44: the IQR is taken as one quantum, so the
 * far fences are 38 and 50. The 99th percentile is at rank 0.99 * 99 = 98.01, between 48 and
 * 1000: 57.52. The bulk is the samples in [38, 57]: 44..48; 1000 stays out. (Taking rank 98
 * alone, as the gnuplot histogram once did, gives the same samples here, but that histogram also
 * ran its bins to the fence at 50, one empty bar past the data.) */
static void test_quantised_tail(void)
{
    uint64_t x[100], first, last;
    size_t n = 0;

    fill(x, &n, 44, 80);
    fill(x, &n, 46, 15);
    fill(x, &n, 48, 4);
    fill(x, &n, 1000, 1);
    bulk_both(x, n, 2, &first, &last);
    CHECK_EQ_U64(first, 44);
    CHECK_EQ_U64(last, 48);
}

/* The quantiles interpolate. Two samples 0 and 100: Q1 = 25, Q3 = 75, fences -125 and 225, so
 * both are in the bulk (the lower order statistic alone would make Q1 = Q3 = 0 and leave 100
 * out). 0 then 99 x 1000: the 1st percentile is at rank 0.99, 0 + 0.99 * 1000 = 990, and the
 * fences are 997 and 1003, so 0 is folded away (the lower order statistic, 0, would keep it and
 * stretch the bins over 1000 empty ticks). */
static void test_interpolation(void)
{
    static const uint64_t two[] = {0, 100};
    uint64_t x[100], first, last;
    size_t n = 0;

    bulk_both(two, 2, 1, &first, &last);
    CHECK_EQ_U64(first, 0);
    CHECK_EQ_U64(last, 100);

    fill(x, &n, 0, 1);
    fill(x, &n, 1000, 99);
    bulk_both(x, n, 1, &first, &last);
    CHECK_EQ_U64(first, 1000);
    CHECK_EQ_U64(last, 1000);
    /* With a quantum of 10 the IQR counts as 10: fences 970 and 1030, still above 990. */
    bulk_both(x, n, 10, &first, &last);
    CHECK_EQ_U64(first, 1000);
    /* With a quantum of 400 the far fence is -200: 0 belongs to the bulk. */
    bulk_both(x, n, 400, &first, &last);
    CHECK_EQ_U64(first, 0);
    CHECK_EQ_U64(last, 1000);
}

/* One sample; all equal; the ends of the uint64_t range, where fences and selection could wrap. */
static void test_extremes(void)
{
    static const uint64_t one[] = {12345};
    static const uint64_t top[] = {UINT64_MAX - 1, UINT64_MAX};
    static const uint64_t span[] = {0, UINT64_MAX};
    uint64_t x[50], first, last;
    size_t n = 0;

    bulk_both(one, 1, 10, &first, &last);
    CHECK_EQ_U64(first, 12345);
    CHECK_EQ_U64(last, 12345);
    fill(x, &n, 77, 50);
    bulk_both(x, n, 4, &first, &last);
    CHECK_EQ_U64(first, 77);
    CHECK_EQ_U64(last, 77);
    bulk_both(top, 2, 1, &first, &last);
    CHECK_EQ_U64(first, UINT64_MAX - 1);
    CHECK_EQ_U64(last, UINT64_MAX);
    bulk_both(span, 2, 1, &first, &last);
    CHECK_EQ_U64(first, 0);
    CHECK_EQ_U64(last, UINT64_MAX);
}

/* Pseudo-random samples, sorted and shuffled, with far values and values near 2^64: selection
 * must find the same bulk as indexing the sorted copy. */
static void test_sorted_unsorted_agree(void)
{
    static uint64_t x[5000], s[5000];
    uint64_t state = 0x9e3779b97f4a7c15u;
    int same = 1;

    for (int c = 0; c < 40; c++) {
        size_t n = 1 + (size_t)(c * 127 % 5000);
        uint64_t f1 = 0, l1 = 0, f2 = 1, l2 = 1, mn = 0;
        for (size_t i = 0; i < n; i++) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            x[i] = c % 4 == 3 ? state : 1000 + state % (c + 2) * 26 +
                                            (state % 97 == 0 ? state % 1000000 : 0);
        }
        for (size_t i = 0; i < n; i++)
            s[i] = x[i];
        qsort(s, n, sizeof *s, cmp_u64);
        CHECK_EQ_U64(tks__bins_bulk_sorted(s, n, (uint64_t)c % 30, &f1, &l1), 0);
        CHECK_EQ_U64(tks__bins_bulk(x, n, (uint64_t)c % 30, &f2, &l2, &mn), 0);
        same &= f1 == f2 && l1 == l2 && mn == s[0];
    }
    CHECK(same);
}

/* Bins of whole quanta on the lattice origin + k q: the narrowest multiple of q that fits. */
static void test_layout(void)
{
    tks__bins b;

    /* 0..999 in 10 bins of multiples of 3: 99 * 10 < 1000, so 102 (34 quanta). */
    tks__bins_layout(0, 999, 0, 3, 10, &b);
    CHECK_EQ_U64(b.lo, 0);
    CHECK_EQ_U64(b.width, 102);
    CHECK_EQ_U64(b.nbins, 10);
    /* 1000..1999, q = 7 on the multiples: lo = 994 (142 * 7); 1006 ticks need 10 bins of 105. */
    tks__bins_layout(1000, 1999, 0, 7, 10, &b);
    CHECK_EQ_U64(b.lo, 994);
    CHECK_EQ_U64(b.width, 105);
    CHECK_EQ_U64(b.nbins, 10);
    /* The same on the lattice of 1000: no shift, and 1000 ticks fit 10 bins of 105 too. */
    tks__bins_layout(1000, 1999, 1000, 7, 10, &b);
    CHECK_EQ_U64(b.lo, 1000);
    CHECK_EQ_U64(b.width, 105);
    CHECK_EQ_U64(b.nbins, 10);
    /* Quantum 26 on the lattice of 1000: 1030 starts at 1026 (1000 + 26); one value, one bin. */
    tks__bins_layout(1030, 1030, 1000, 26, 200, &b);
    CHECK_EQ_U64(b.lo, 1026);
    CHECK_EQ_U64(b.width, 26);
    CHECK_EQ_U64(b.nbins, 1);
    /* 0..9999 in at most 200 bins of q = 1: 50 wide, exactly 200 of them. */
    tks__bins_layout(0, 9999, 0, 1, 200, &b);
    CHECK_EQ_U64(b.width, 50);
    CHECK_EQ_U64(b.nbins, 200);
    /* Room for more bins than the range needs: one quantum each, no more bins than values. */
    tks__bins_layout(50, 58, 0, 2, 24, &b);
    CHECK_EQ_U64(b.lo, 50);
    CHECK_EQ_U64(b.width, 2);
    CHECK_EQ_U64(b.nbins, 5);
    /* Quantum and bin count 0 are taken as 1. */
    tks__bins_layout(5, 9, 0, 0, 0, &b);
    CHECK_EQ_U64(b.lo, 5);
    CHECK_EQ_U64(b.width, 5);
    CHECK_EQ_U64(b.nbins, 1);
    /* 2^64 - 1 ticks in one bin: no multiple of q = 2^63 + 1 covers them, so one quantum and
     * the bins fall short; with q = 1 the bin is 2^64 - 1 wide. */
    tks__bins_layout(0, UINT64_MAX, 0, (UINT64_C(1) << 63) + 1, 1, &b);
    CHECK_EQ_U64(b.width, (UINT64_C(1) << 63) + 1);
    CHECK_EQ_U64(b.nbins, 1);
    tks__bins_layout(0, UINT64_MAX, 0, 1, 1, &b);
    CHECK_EQ_U64(b.width, UINT64_MAX);
    CHECK_EQ_U64(b.nbins, 1);
}

static void test_first_from_and_errors(void)
{
    static const uint64_t s[] = {1, 3, 3, 5};
    uint64_t first, last;

    CHECK_EQ_U64(tks__bins_first_from(s, 4, 0), 0);
    CHECK_EQ_U64(tks__bins_first_from(s, 4, 3), 1);
    CHECK_EQ_U64(tks__bins_first_from(s, 4, 4), 3);
    CHECK_EQ_U64(tks__bins_first_from(s, 4, 6), 4);
    CHECK_EQ_U64(tks__bins_first_from(s, 0, 1), 0);

    CHECK_EQ_U64(tks__bins_bulk_sorted(NULL, 4, 1, &first, &last), EINVAL_U64);
    CHECK_EQ_U64(tks__bins_bulk_sorted(s, 0, 1, &first, &last), EINVAL_U64);
    CHECK_EQ_U64(tks__bins_bulk_sorted(s, 4, 1, NULL, &last), EINVAL_U64);
    CHECK_EQ_U64(tks__bins_bulk(NULL, 4, 1, &first, &last, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__bins_bulk(s, 0, 1, &first, &last, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__bins_bulk(s, 4, 1, &first, NULL, NULL), EINVAL_U64);
    /* The minimum is optional. */
    CHECK_EQ_U64(tks__bins_bulk(s, 4, 1, &first, &last, NULL), 0);
    CHECK_EQ_U64(first, 1);
    CHECK_EQ_U64(last, 5);
}

int main(void)
{
    test_fences();
    test_quantised_tail();
    test_interpolation();
    test_extremes();
    test_sorted_unsorted_agree();
    test_layout();
    test_first_from_and_errors();
    CHECK_DONE();
}
