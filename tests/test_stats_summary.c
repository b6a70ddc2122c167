/* SPDX-License-Identifier: MIT */
/* test_stats_summary.c: one ensemble's figures on arrays small enough to check by hand:
 * quantiles, median confidence interval, MAD, Tukey outliers and the phase-averaged mean. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/sort.h"
#include "tickscope.h"

#define M UINT64_MAX

static uint64_t scratch[2000];

static void test_errors(void)
{
    uint64_t x[] = { 1 };
    tks_summary s;
    CHECK(tks_summarize(x, 0, 1, scratch, &s) == TKS_EINVAL);
    CHECK(tks_summarize(NULL, 1, 1, scratch, &s) == TKS_EINVAL);
    CHECK(tks_summarize(x, 1, 1, NULL, &s) == TKS_EINVAL);
    CHECK(tks_summarize(x, 1, 1, scratch, NULL) == TKS_EINVAL);
    CHECK(isnan(tks_quantile_sorted(x, 0, 0.5)));
    CHECK(isnan(tks_quantile_sorted(NULL, 1, 0.5)));
}

static void test_quantiles(void)
{
    /* Type 7: h = (n-1) p, interpolate between sorted[floor h] and the next.
     * {10,20,30,40}: p=0.5 -> h=1.5 -> 25; p=0.25 -> h=0.75 -> 10 + 0.75*10 = 17.5;
     * p=0.9 -> h=2.7 -> 30 + 0.7*10 = 37. Ends and out-of-range p clamp. */
    uint64_t s[] = { 10, 20, 30, 40 };
    CHECK_NEAR(tks_quantile_sorted(s, 4, 0.5), 25.0, 1e-12);
    CHECK_NEAR(tks_quantile_sorted(s, 4, 0.25), 17.5, 1e-12);
    CHECK_NEAR(tks_quantile_sorted(s, 4, 0.9), 37.0, 1e-12);
    CHECK_NEAR(tks_quantile_sorted(s, 4, 0.0), 10.0, 0);
    CHECK_NEAR(tks_quantile_sorted(s, 4, 1.0), 40.0, 0);
    CHECK_NEAR(tks_quantile_sorted(s, 4, -1.0), 10.0, 0);
    CHECK_NEAR(tks_quantile_sorted(s, 4, 2.0), 40.0, 0);
    CHECK_NEAR(tks_quantile_sorted(s, 1, 0.3), 10.0, 0);
    /* Near 2^64 nothing wraps: {M-3, M-1}, p=0.5 -> M-2, which as a double is 2^64. */
    uint64_t big[] = { M - 3, M - 1 };
    CHECK_NEAR(tks_quantile_sorted(big, 2, 0.5), 0x1p64, 0);
}

static void test_all_equal(void)
{
    /* The paper's flat ensemble: everything 0 but the centre. */
    uint64_t x[100];
    tks_summary s;
    for (int i = 0; i < 100; i++)
        x[i] = 452;
    CHECK(tks_summarize(x, 100, 1, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.n, 100);
    CHECK_EQ_U64(s.min, 452);
    CHECK_EQ_U64(s.max, 452);
    CHECK_EQ_U64(s.max_deviation, 0);
    CHECK_NEAR(s.mean, 452.0, 0);
    CHECK_NEAR(s.variance, 0.0, 0);
    CHECK_NEAR(s.median, 452.0, 0);
    CHECK_NEAR(s.mad, 0.0, 0);
    CHECK_EQ_U64(s.outliers_low, 0);
    CHECK_EQ_U64(s.outliers_high, 0);
    CHECK_EQ_U64(s.pa_n, 100);
    CHECK_NEAR(s.pa_mean, 452.0, 0);
    CHECK_NEAR(s.pa_ci, 0.0, 0);
}

static void test_one_outlier(void)
{
    /* 999 x 44 and one 10044 (placed first, so the sort matters).
     * mean = 44 + 10000/1000 = 54; variance = (1000 * 10^8 - 10^8) / 10^6 = 99900.
     * q1 = q3 = median = 44, IQR 0: the 10044 is one high Tukey outlier.
     * Far fences with quantum 1: w = max(0, 1) = 1, [44 - 3, 44 + 3] = [41, 47]: pa_n = 999,
     * pa_mean = 44 exactly, inlier variance 0, pa_ci 0. MAD: 999 deviations 0 -> 0. */
    static uint64_t x[1000];
    tks_summary s;
    x[0] = 10044;
    for (int i = 1; i < 1000; i++)
        x[i] = 44;
    CHECK(tks_summarize(x, 1000, 1, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.min, 44);
    CHECK_EQ_U64(s.max, 10044);
    CHECK_EQ_U64(s.max_deviation, 10000);
    CHECK_NEAR(s.mean, 54.0, 0);
    CHECK_NEAR(s.variance, 99900.0, 0);
    CHECK_NEAR(s.median, 44.0, 0);
    CHECK_NEAR(s.q1, 44.0, 0);
    CHECK_NEAR(s.q3, 44.0, 0);
    CHECK_NEAR(s.mad, 0.0, 0);
    CHECK_EQ_U64(s.outliers_low, 0);
    CHECK_EQ_U64(s.outliers_high, 1);
    CHECK_EQ_U64(s.pa_n, 999);
    CHECK_NEAR(s.pa_mean, 44.0, 0);
    CHECK_NEAR(s.inlier_variance, 0.0, 0);
    CHECK_NEAR(s.pa_ci, 0.0, 0);
    /* The input is left alone; scratch holds the sorted copy. */
    CHECK_EQ_U64(x[0], 10044);
    CHECK_EQ_U64(scratch[0], 44);
    CHECK_EQ_U64(scratch[999], 10044);
}

static void test_median_ci(void)
{
    /* n = 20, values 1..20 shuffled. 0.98 sqrt(20) = 4.3827;
     * j = floor(10 - 4.3827) = floor(5.617) = 5, k = ceil(11 + 4.3827) = ceil(15.38) = 16:
     * median_lo = 5th smallest = 5, median_hi = 16th smallest = 16. median = (10+11)/2. */
    uint64_t x[20] = { 7, 19, 3, 12, 1, 20, 15, 9, 5, 11, 17, 2, 14, 8, 18, 4, 13, 6, 16, 10 };
    tks_summary s;
    CHECK(tks_summarize(x, 20, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.median, 10.5, 0);
    CHECK_NEAR(s.median_lo, 5.0, 0);
    CHECK_NEAR(s.median_hi, 16.0, 0);
    /* n = 10 (the last ten of x): 0.98 sqrt(10) = 3.099; j = floor(1.901) = 1,
     * k = ceil(9.099) = 10: the smallest (2) and the largest (18). */
    CHECK(tks_summarize(x + 10, 10, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.median_lo, 2.0, 0);
    CHECK_NEAR(s.median_hi, 18.0, 0);
    /* n = 1: j = floor(0.5 - 0.98) = -1 and k = ceil(2.48) = 3 clamp to rank 1. */
    CHECK(tks_summarize(x, 1, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.median_lo, 7.0, 0);
    CHECK_NEAR(s.median_hi, 7.0, 0);
    /* n = 100 (0, 10, ..., 990): j = floor(50 - 9.8) = 40, k = ceil(51 + 9.8) = 61:
     * the 40th and 61st smallest, 390 and 600. */
    uint64_t y[100];
    for (int i = 0; i < 100; i++)
        y[i] = (uint64_t)(99 - i) * 10;
    CHECK(tks_summarize(y, 100, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.median_lo, 390.0, 0);
    CHECK_NEAR(s.median_hi, 600.0, 0);
}

static void test_mad(void)
{
    tks_summary s;
    /* {1,2,3,4,100}: median 3, |dev| {2,1,0,1,97} -> sorted {0,1,1,2,97} -> 1. */
    uint64_t a[] = { 100, 1, 4, 2, 3 };
    CHECK(tks_summarize(a, 5, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.mad, 1.0, 0);
    /* {1,2,4,7}: median 3, |dev| {2,1,1,4} -> {1,1,2,4} -> (1+2)/2 = 1.5. */
    uint64_t b[] = { 7, 4, 2, 1 };
    CHECK(tks_summarize(b, 4, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.median, 3.0, 0);
    CHECK_NEAR(s.mad, 1.5, 0);
    /* {1,3,6,10,15,21}: median 8, |dev| {7,5,2,2,7,13} -> {2,2,5,7,7,13} -> (5+7)/2 = 6.
     * The two middle deviations come from opposite sides of the median. */
    uint64_t c[] = { 21, 15, 10, 6, 3, 1 };
    CHECK(tks_summarize(c, 6, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.mad, 6.0, 0);
    /* {1,2,3,8,9}: median 3, |dev| {2,1,0,5,6} -> {0,1,2,5,6} -> 2: the left run is used up
     * before the middle rank is reached. */
    uint64_t d[] = { 9, 8, 3, 2, 1 };
    CHECK(tks_summarize(d, 5, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.mad, 2.0, 0);
    /* {M-4, M-2, M}: median M-2, |dev| {2,0,2} -> 2. In doubles all three are 2^64: 0. */
    uint64_t e[] = { M, M - 4, M - 2 };
    CHECK(tks_summarize(e, 3, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.mad, 2.0, 0);
    CHECK_NEAR(s.variance, 8.0 / 3.0, 1e-15); /* d = {4,0,2}: (3*20 - 36)/9 = 24/9 */
    CHECK_EQ_U64(s.max_deviation, 4);
}

static void test_tukey(void)
{
    tks_summary s;
    /* {1,4,5,6,9}: q1 = sorted[1] = 4, q3 = sorted[3] = 6, IQR 2, fences [1, 9]. Values on a
     * fence are not outliers (strictly outside only). */
    uint64_t a[] = { 9, 1, 5, 6, 4 };
    CHECK(tks_summarize(a, 5, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.q1, 4.0, 0);
    CHECK_NEAR(s.q3, 6.0, 0);
    CHECK_EQ_U64(s.outliers_low, 0);
    CHECK_EQ_U64(s.outliers_high, 0);
    /* {0,4,5,6,10}: same quartiles, 0 < 1 and 10 > 9: one of each. */
    uint64_t b[] = { 10, 0, 5, 6, 4 };
    CHECK(tks_summarize(b, 5, 1, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.outliers_low, 1);
    CHECK_EQ_U64(s.outliers_high, 1);
    /* {0, 10..19, 40}, n = 12: h1 = 11/4 = 2.75 -> q1 = 11 + 0.75 = 11.75;
     * h3 = 8.25 -> q3 = 17 + 0.25 = 17.25; IQR 5.5; fences 11.75 - 8.25 = 3.5 and
     * 17.25 + 8.25 = 25.5: 0 is low, 40 is high. median = (14+15)/2 = 14.5.
     * Far fences (w = 5.5): [11.75 - 16.5, 17.25 + 16.5] = [-4.75, 33.75]: 0 stays, 40 goes.
     * pa_n = 11, pa_mean = (0 + 145)/11; sum of squares 10^2..19^2 = 2470 - 285 = 2185,
     * inlier variance (11*2185 - 145^2)/121 = (24035 - 21025)/121 = 3010/121;
     * pa_ci = 1.96 sqrt((3010/121)/10). */
    uint64_t c[] = { 40, 19, 0, 18, 10, 17, 11, 16, 12, 15, 13, 14 };
    CHECK(tks_summarize(c, 12, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.q1, 11.75, 0);
    CHECK_NEAR(s.q3, 17.25, 0);
    CHECK_NEAR(s.median, 14.5, 0);
    CHECK_EQ_U64(s.outliers_low, 1);
    CHECK_EQ_U64(s.outliers_high, 1);
    CHECK_EQ_U64(s.pa_n, 11);
    CHECK_NEAR(s.pa_mean, 145.0 / 11.0, 1e-13);
    CHECK_NEAR(s.inlier_variance, 3010.0 / 121.0, 1e-13);
    CHECK_NEAR(s.pa_ci, 1.96 * sqrt(3010.0 / 1210.0), 1e-13);
    /* mean of all 12: (0 + 145 + 40)/12 = 185/12. */
    CHECK_NEAR(s.mean, 185.0 / 12.0, 1e-13);
}

static void test_far_fences_inclusive(void)
{
    /* Sorted {a, 10, 11, 12, b}: q1 = 10, q3 = 12, IQR 2 (>= quantum 1). Inner fences
     * [10 - 3, 12 + 3] = [7, 15]; far fences [10 - 6, 12 + 6] = [4, 18].
     * {4, 10, 11, 12, 18}: both ends are Tukey outliers but sit on the far fences, which are
     * inclusive: pa_n = 5, pa_mean = 55/5 = 11.
     * {3, 10, 11, 12, 19}: both ends are outside: pa_n = 3, pa_mean = 11, variance 2/3. */
    uint64_t a[] = { 18, 11, 4, 12, 10 }, b[] = { 19, 11, 3, 12, 10 };
    tks_summary s;
    CHECK(tks_summarize(a, 5, 1, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.outliers_low, 1);
    CHECK_EQ_U64(s.outliers_high, 1);
    CHECK_EQ_U64(s.pa_n, 5);
    CHECK_NEAR(s.pa_mean, 11.0, 0);
    CHECK(tks_summarize(b, 5, 1, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.pa_n, 3);
    CHECK_NEAR(s.pa_mean, 11.0, 0);
    CHECK_NEAR(s.inlier_variance, 2.0 / 3.0, 1e-15);
    CHECK_NEAR(s.pa_ci, 1.96 * sqrt(1.0 / 3.0), 1e-15); /* sqrt((2/3) / 2) */
}

static void test_pa_mean_far_outlier(void)
{
    /* 100 samples 100,101,...,199 (mean 149.5) and one interrupt-sized 1,000,000.
     * n = 101: q1 = sorted[25] = 125, q3 = sorted[75] = 175, IQR 50, far fences
     * [125 - 150, 175 + 150] = [-25, 325]: the 1,000,000 is dropped, pa_mean = 149.5, while the
     * plain mean is (14950 + 10^6)/101. Inlier variance: 1..100 shifted, (100^2 - 1)/12. */
    static uint64_t x[101];
    tks_summary s;
    for (int i = 0; i < 100; i++)
        x[i] = 100 + (uint64_t)i;
    x[100] = 1000000;
    CHECK(tks_summarize(x, 101, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.q1, 125.0, 0);
    CHECK_NEAR(s.q3, 175.0, 0);
    CHECK_EQ_U64(s.pa_n, 100);
    CHECK_NEAR(s.pa_mean, 149.5, 0);
    CHECK_NEAR(s.mean, (14950.0 + 1e6) / 101.0, 1e-9);
    CHECK_NEAR(s.inlier_variance, 9999.0 / 12.0, 1e-12);
    CHECK_NEAR(s.pa_ci, 1.96 * sqrt(9999.0 / 12.0 / 99.0), 1e-12);
    CHECK_EQ_U64(s.outliers_high, 1);
    CHECK_EQ_U64(s.outliers_low, 0);
}

static void test_quantum_fences(void)
{
    /* 90 x 52 and 10 x 78 (a 26-tick timer, readings one step apart). q1 = q3 = 52, IQR 0.
     * quantum 26: w = 26, far fences [52 - 78, 52 + 78] = [-26, 130]: nothing trimmed,
     * pa_n = 100, pa_mean = (90*52 + 10*78)/100 = (4680 + 780)/100 = 54.6;
     * inlier variance: d = 0 or 26, 0.9*0.1*26^2 = 60.84.
     * quantum 1: w = 1, [49, 55]: the 78s go, pa_mean = 52. Tukey's inner fences take the same
     * floor: with quantum 26 they are [13, 91] and a reading one step up is no outlier; with
     * quantum 1 they are [50.5, 53.5] and the ten 78s are. */
    uint64_t x[100];
    tks_summary s;
    for (int i = 0; i < 100; i++)
        x[i] = i % 10 == 3 ? 78 : 52;
    CHECK(tks_summarize(x, 100, 26, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.pa_n, 100);
    CHECK_NEAR(s.pa_mean, 54.6, 1e-12);
    CHECK_NEAR(s.inlier_variance, 60.84, 1e-12);
    CHECK_EQ_U64(s.outliers_high, 0);
    CHECK(tks_summarize(x, 100, 1, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.pa_n, 90);
    CHECK_NEAR(s.pa_mean, 52.0, 0);
    CHECK_EQ_U64(s.outliers_high, 10);
    /* quantum 0 is treated as 1. */
    CHECK(tks_summarize(x, 100, 0, scratch, &s) == TKS_OK);
    CHECK_EQ_U64(s.pa_n, 90);
}

static void test_near_2_64(void)
{
    /* {M-2, M}: mean M-1 (2^64 as a double), variance 1, quartiles exact in integers:
     * q1 = M-2 + 0.5, q3 = M - 0.5; fences keep both; MAD 1. */
    uint64_t x[] = { M, M - 2 };
    tks_summary s;
    CHECK(tks_summarize(x, 2, 1, scratch, &s) == TKS_OK);
    CHECK_NEAR(s.variance, 1.0, 0);
    CHECK_NEAR(s.inlier_variance, 1.0, 0);
    CHECK_EQ_U64(s.pa_n, 2);
    CHECK_NEAR(s.mad, 1.0, 0);
    CHECK_EQ_U64(s.max_deviation, 2);
    CHECK_EQ_U64(s.outliers_low + s.outliers_high, 0);
}

/* The digit sort against a comparison sort: spreads of one to six passes, a span reaching
 * 2^64 - 1, sorting in place and into another buffer, sizes below and above its threshold. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void test_sort_into(void)
{
    static uint64_t x[3000], out[3000], want[3000];
    const unsigned bits[] = {0, 5, 11, 12, 33, 64};
    const size_t sizes[] = {1, 100, 3000};
    uint64_t g = 0x9E3779B97F4A7C15ull;
    for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            size_t n = sizes[z];
            for (size_t i = 0; i < n; i++) {
                g ^= g << 13, g ^= g >> 7, g ^= g << 17;
                x[i] = 1000 + (bits[b] == 64 ? g : bits[b] ? g & ((1ull << bits[b]) - 1) : 0);
            }
            if (bits[b] == 64 && n > 2)
                x[0] = 0, x[1] = UINT64_MAX;
            memcpy(want, x, n * sizeof *x);
            qsort(want, n, sizeof *want, cmp_u64);
            tks__sort_u64_into(x, n, out);
            CHECK(memcmp(out, want, n * sizeof *x) == 0);
            tks__sort_u64_into(x, n, x);
            CHECK(memcmp(x, want, n * sizeof *x) == 0);
        }
}

int main(void)
{
    test_errors();
    test_quantiles();
    test_all_equal();
    test_one_outlier();
    test_median_ci();
    test_mad();
    test_tukey();
    test_far_fences_inclusive();
    test_pa_mean_far_outlier();
    test_quantum_fences();
    test_near_2_64();
    test_sort_into();
    CHECK_DONE();
}
