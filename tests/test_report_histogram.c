/* SPDX-License-Identifier: MIT */
/* test_report_histogram.c: terminal histograms' bins: on the quantum, outliers folded into counted
 * rows and never dropped, equal and extreme values. */
#include "histogram_util.h"

static void test_quantised(void)
{
    static const uint64_t even[] = {50, 52, 52, 52, 54, 54, 54, 54, 54, 56, 56, 58};
    static const uint64_t odd[] = {51, 53, 53, 55};
    static const uint64_t expect[] = {1, 3, 5, 2, 1};
    tks__histogram h;

    CHECK_EQ_U64(tks__histogram_build(even, 12, 2, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 50);
    CHECK_EQ_U64(h.width, 2);
    CHECK_EQ_U64(h.nbins, 5);
    for (size_t b = 0; b < 5 && b < h.nbins; b++)
        CHECK_EQ_U64(h.counts[b], expect[b]);
    CHECK_EQ_U64(h.below, 0);
    CHECK_EQ_U64(h.above, 0);
    CHECK_EQ_U64(h.total, 12);
    tks__histogram_free(&h);
    CHECK(h.counts == NULL);

    CHECK_EQ_U64(tks__histogram_build(odd, 4, 2, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 50);
    CHECK_EQ_U64(h.width, 2);
    CHECK_EQ_U64(h.nbins, 3);
    if (h.nbins == 3) {
        CHECK_EQ_U64(h.counts[0], 1);
        CHECK_EQ_U64(h.counts[1], 2);
        CHECK_EQ_U64(h.counts[2], 1);
    }
    tks__histogram_free(&h);
}

/* (2) A range too wide for one bin per quantum: the bins are the narrowest multiple of q that
 * fits max_bins. 0..999 in 10 bins of multiples of 3: 99 * 10 < 1000, so 102 (34 quanta). */
static void test_wide(void)
{
    uint64_t *x = malloc(1000 * sizeof *x);
    tks__histogram h;

    CHECK(x != NULL);
    if (!x)
        return;
    for (size_t i = 0; i < 1000; i++)
        x[i] = i;
    CHECK_EQ_U64(tks__histogram_build(x, 1000, 3, 10, &h), 0);
    CHECK_EQ_U64(h.lo, 0);
    CHECK_EQ_U64(h.width, 102);
    CHECK_EQ_U64(h.nbins, 10);
    if (h.nbins == 10) {
        CHECK_EQ_U64(h.counts[0], 102);
        CHECK_EQ_U64(h.counts[8], 102);
        CHECK_EQ_U64(h.counts[9], 1000 - 9 * 102);
    }
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);

    /* 1000..1999, q = 7: lo = 994 (142 * 7); 1006 ticks need 10 bins of 105 (98 is too narrow).
     * The first bin [994, 1098] holds 1000..1098, the last [1939, 2043] holds 1939..1999. */
    for (size_t i = 0; i < 1000; i++)
        x[i] = 1000 + i;
    CHECK_EQ_U64(tks__histogram_build(x, 1000, 7, 10, &h), 0);
    CHECK_EQ_U64(h.lo, 994);
    CHECK_EQ_U64(h.width, 105);
    CHECK_EQ_U64(h.nbins, 10);
    if (h.nbins == 10) {
        CHECK_EQ_U64(h.counts[0], 99);
        CHECK_EQ_U64(h.counts[1], 105);
        CHECK_EQ_U64(h.counts[9], 61);
    }
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);

    /* The default is 24 bins. */
    for (size_t i = 0; i < 1000; i++)
        x[i] = i;
    CHECK_EQ_U64(tks__histogram_build(x, 1000, 0, 0, &h), 0);
    CHECK_EQ_U64(h.width, 42); /* 999 / 24 + 1 */
    CHECK_EQ_U64(h.nbins, 24);
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);
    free(x);
}

/* (3) 990 values in 100..109 (99 of each) with 1..5 far below and 999996..1000000 far above.
 * Q1 = 102, Q3 = 107, so the far fences are 87 and 122; the 1st and 99th percentiles (100 and
 * 109) lie inside them. The bins run from the smallest sample inside (100) to the largest
 * (109), one tick each, and the ten far values are folded, counted and their extremes kept. */
static void test_outliers(void)
{
    uint64_t x[1000];
    size_t n = 0;
    tks__histogram h;

    for (uint64_t v = 1; v <= 5; v++)
        fill(x, &n, v, 1);
    for (uint64_t v = 100; v <= 109; v++)
        fill(x, &n, v, 99);
    for (uint64_t v = 999996; v <= 1000000; v++)
        fill(x, &n, v, 1);
    CHECK_EQ_U64(n, 1000);
    CHECK_EQ_U64(tks__histogram_build(x, n, 1, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 100);
    CHECK_EQ_U64(h.width, 1);
    CHECK_EQ_U64(h.nbins, 10);
    for (size_t b = 0; b < h.nbins; b++)
        CHECK_EQ_U64(h.counts[b], 99);
    CHECK_EQ_U64(h.below, 5);
    CHECK_EQ_U64(h.below_min, 1);
    CHECK_EQ_U64(h.above, 5);
    CHECK_EQ_U64(h.above_max, 1000000);
    CHECK_EQ_U64(h.total, 1000);
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);

    /* With 4 bins at most, the 10 ticks need bins 3 wide: [100,102] .. [109,111]. */
    CHECK_EQ_U64(tks__histogram_build(x, n, 1, 4, &h), 0);
    CHECK_EQ_U64(h.width, 3);
    CHECK_EQ_U64(h.nbins, 4);
    if (h.nbins == 4) {
        CHECK_EQ_U64(h.counts[0], 3 * 99);
        CHECK_EQ_U64(h.counts[3], 99);
    }
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);
}

/* (4) All values equal: one bin, one quantum wide, on the multiple of q at or below the value. */
static void test_all_equal(void)
{
    uint64_t x[1000];
    size_t n = 0;
    tks__histogram h;

    fill(x, &n, 77, 1000);
    CHECK_EQ_U64(tks__histogram_build(x, n, 4, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 76);
    CHECK_EQ_U64(h.width, 4);
    CHECK_EQ_U64(h.nbins, 1);
    if (h.nbins == 1)
        CHECK_EQ_U64(h.counts[0], 1000);
    CHECK_EQ_U64(h.below + h.above, 0);
    tks__histogram_free(&h);

    n = 0;
    fill(x, &n, 0, 3);
    CHECK_EQ_U64(tks__histogram_build(x, n, 1, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 0);
    CHECK_EQ_U64(h.width, 1);
    CHECK_EQ_U64(h.nbins, 1);
    if (h.nbins == 1)
        CHECK_EQ_U64(h.counts[0], 3);
    tks__histogram_free(&h);
}

/* (5) One sample, and samples at the top of the uint64_t range, where bin ends could wrap. */
static void test_single_and_extremes(void)
{
    static const uint64_t one[] = {12345};
    static const uint64_t top[] = {UINT64_MAX - 1, UINT64_MAX};
    static const uint64_t span[] = {0, UINT64_MAX};
    tks__histogram h;
    char *text;
    int rc = -100;

    CHECK_EQ_U64(tks__histogram_build(one, 1, 10, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 12340);
    CHECK_EQ_U64(h.width, 10);
    CHECK_EQ_U64(h.nbins, 1);
    if (h.nbins == 1)
        CHECK_EQ_U64(h.counts[0], 1);
    CHECK_EQ_U64(h.total, 1);
    tks__histogram_free(&h);

    text = hist_text(one, 1, 10, 12345.0, 12345.0, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK_STR(text, "12340-12349  \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "  1  100.0%  median, mean\n");
    free(text);

    CHECK_EQ_U64(tks__histogram_build(top, 2, 1, 0, &h), 0);
    CHECK_EQ_U64(h.lo, UINT64_MAX - 1);
    CHECK_EQ_U64(h.nbins, 2);
    CHECK_EQ_U64(sum_counts(&h), 2);
    tks__histogram_free(&h);
    text = hist_text(top, 2, 1, 1.8446744073709552e19, 1.8446744073709552e19, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK(text != NULL && strstr(text, "18446744073709551615  ") != NULL);
    free(text);

    /* 2^64 - 1 ticks in one bin: the width cannot be a multiple of q = 2^63 + 1 that large, so
     * the single bin is one quantum wide and the top sample is folded above, not lost. */
    CHECK_EQ_U64(tks__histogram_build(span, 2, (UINT64_C(1) << 63) + 1, 1, &h), 0);
    CHECK_EQ_U64(h.lo, 0);
    CHECK_EQ_U64(h.width, (UINT64_C(1) << 63) + 1);
    CHECK_EQ_U64(h.nbins, 1);
    CHECK_EQ_U64(h.above, 1);
    CHECK_EQ_U64(h.above_max, UINT64_MAX);
    CHECK_EQ_U64(sum_counts(&h), 2);
    tks__histogram_free(&h);
    CHECK_EQ_U64(tks__histogram_build(span, 2, 1, 1, &h), 0);
    CHECK_EQ_U64(h.width, UINT64_MAX);
    CHECK_EQ_U64(h.nbins, 1);
    CHECK_EQ_U64(h.above, 1);
    tks__histogram_free(&h);
}


/* (6) The whole chart, worked out by hand. Bars are out of 20 characters for the largest count
 * (100): 20 -> 4, 60 -> 12, 18 -> 3.6 -> 4, and 1 -> 0.2, shown as one '#' because a row with
 * samples must never look like an empty bin. */
int main(void)
{
    test_quantised();
    test_wide();
    test_outliers();
    test_all_equal();
    test_single_and_extremes();
    CHECK_DONE();
}
