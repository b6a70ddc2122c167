/* SPDX-License-Identifier: MIT */
/* test_stats_compare.c: the comparison tests on hand-checked data: Mann-Whitney U (exact and
 * normal with ties), the Hodges-Lehmann shift and its interval, the bootstrap, the paired t. */
#include <math.h>

#include "check.h"
#include "stats/rank_tests.h"
#include "tickscope/common.h"

static void utest_exact(void)
{
    /* every y above every x: U = 16 of 16; the exact two-sided p is 2 * 1/70 */
    const double x[] = {1, 2, 3, 4}, y[] = {5, 6, 7, 8};
    const double y2[] = {1.5, 2.5, 3.5, 4.5};
    tks__utest t;
    CHECK(tks__mann_whitney(x, 4, y, 4, &t) == 0);
    CHECK_NEAR(t.u, 16, 1e-12);
    CHECK(t.exact);
    CHECK_NEAR(t.p, 2.0 / 70, 1e-12);
    /* the 16 differences y - x run 1..7 (1, 2, 3, 4, 3, 2, 1 of each): median 4; the interval's
     * order statistic: 16/2 - 1.96 sqrt(16 * 9 / 12) = 1.21, so the 1st and the 16th */
    CHECK_NEAR(t.shift, 4, 1e-12);
    CHECK_NEAR(t.lo, 1, 1e-12);
    CHECK_NEAR(t.hi, 7, 1e-12);
    /* and the other way round: U = 0, the same p, the shift negated */
    CHECK(tks__mann_whitney(y, 4, x, 4, &t) == 0);
    CHECK_NEAR(t.u, 0, 1e-12);
    CHECK_NEAR(t.p, 2.0 / 70, 1e-12);
    CHECK_NEAR(t.shift, -4, 1e-12);
    /* interleaved: U = 1 + 2 + 3 + 4 = 10; the counts of U for 4 and 4 are the coefficients of
     * the Gaussian binomial [8 choose 4]: 1 1 2 3 5 5 7 7 8 7 7 5 5 3 2 1 1 (70 in all), so
     * P(U >= 10) = (7+5+5+3+2+1+1)/70 = 24/70 */
    CHECK(tks__mann_whitney(x, 4, y2, 4, &t) == 0);
    CHECK_NEAR(t.u, 10, 1e-12);
    CHECK_NEAR(t.p, 48.0 / 70, 1e-12);
    CHECK_NEAR(t.shift, 0.5, 1e-12);
}

/* The smallest two-sided p of the exact test: 2 / C(nx + ny, nx). */
static void utest_min_p(void)
{
    const double x[] = {1, 2, 3}, y[] = {4, 5, 6, 7, 8};
    tks__utest t;
    CHECK_NEAR(tks__utest_min_p(2, 2), 1.0 / 3, 1e-15);
    CHECK_NEAR(tks__utest_min_p(3, 3), 0.1, 1e-15);
    CHECK_NEAR(tks__utest_min_p(3, 4), 2.0 / 35, 1e-15);
    CHECK_NEAR(tks__utest_min_p(4, 3), 2.0 / 35, 1e-15);
    CHECK_NEAR(tks__utest_min_p(4, 4), 2.0 / 70, 1e-15);
    CHECK_NEAR(tks__utest_min_p(2, 10), 2.0 / 66, 1e-15);
    CHECK_NEAR(tks__utest_min_p(1, 1), 1, 0);
    CHECK_NEAR(tks__utest_min_p(0, 5), 1, 0);
    CHECK_NEAR(tks__utest_min_p(20, 20), 2 / 137846528820.0, 1e-22);
    /* what the test gives when every y is above every x */
    CHECK(tks__mann_whitney(x, 3, y, 5, &t) == 0);
    CHECK_NEAR(t.p, tks__utest_min_p(3, 5), 1e-12);
}

static void utest_ties(void)
{
    /* U = 2 (y = 2: one x below, two tied) + 8 + 15 = 25; ties: 2 three times, 4 twice, so
     * sum(t^3 - t) = 24 + 6; var = 30/12 (12 - 30/110) = 29.318; z = (|25 - 15| - 0.5)/sqrt(var)
     * = 1.75451, two-sided p = erfc(z / sqrt 2) = 0.079344 */
    const double x[] = {1, 2, 2, 3, 5}, y[] = {2, 4, 4, 6, 7, 8};
    tks__utest t;
    CHECK(tks__mann_whitney(x, 5, y, 6, &t) == 0);
    CHECK(!t.exact);
    CHECK_NEAR(t.u, 25, 1e-12);
    CHECK_NEAR(t.p, 0.0793437, 1e-6);
    /* 30 differences, the 15th and 16th are 2 and 3; 30/2 - 1.96 sqrt(30 * 12 / 12) = 4.26:
     * the 4th (-1) and the 27th (6) */
    CHECK_NEAR(t.shift, 2.5, 1e-12);
    CHECK_NEAR(t.lo, -1, 1e-12);
    CHECK_NEAR(t.hi, 6, 1e-12);
    /* everything equal: no evidence at all */
    CHECK(tks__mann_whitney(x + 1, 2, x + 1, 2, &t) == 0);
    CHECK_NEAR(t.p, 1, 1e-12);
    CHECK_NEAR(t.shift, 0, 1e-12);
}

static void utest_bad(void)
{
    const double x[] = {1, NAN};
    tks__utest t;
    CHECK(tks__mann_whitney(x, 0, x, 1, &t) == TKS_EINVAL);
    CHECK(tks__mann_whitney(x, 2, x, 1, &t) == TKS_EINVAL);
    CHECK(tks__mann_whitney(NULL, 1, x, 1, &t) == TKS_EINVAL);
}

static void bootstrap(void)
{
    /* one figure a side, each with a standard error of 1% of itself: the ratio 1.05 with an
     * interval of about 1.05 +- 1.96 * 1.05 * sqrt(2) * 1% = [1.021, 1.079] */
    const double x[] = {100}, xs[] = {1}, y[] = {105}, ys[] = {1.05};
    const double same[] = {100}, wide[] = {10};
    tks__bootstrap b, b2;
    CHECK(tks__bootstrap_ratio(x, xs, 1, y, ys, 1, 20000, 7, &b) == 0);
    CHECK_NEAR(b.ratio, 1.05, 1e-12);
    CHECK_NEAR(b.lo, 1.021, 0.004);
    CHECK_NEAR(b.hi, 1.079, 0.004);
    CHECK(b.p < 0.001);
    /* reproducible from its seed */
    CHECK(tks__bootstrap_ratio(x, xs, 1, y, ys, 1, 20000, 7, &b2) == 0);
    CHECK(b.lo == b2.lo && b.hi == b2.hi && b.p == b2.p);
    /* no change and wide intervals: nothing to see */
    CHECK(tks__bootstrap_ratio(x, wide, 1, same, wide, 1, 20000, 7, &b) == 0);
    CHECK(b.lo < 1 && b.hi > 1 && b.p > 0.5);
    /* several figures without intervals: resampling alone */
    {
        const double a[] = {10, 11, 10.5}, c[] = {20, 21, 20.5};
        CHECK(tks__bootstrap_ratio(a, NULL, 3, c, NULL, 3, 5000, 1, &b) == 0);
        CHECK(b.lo > 1.8 && b.hi < 2.2 && b.p < 0.01);
    }
    CHECK(tks__bootstrap_ratio(x, xs, 0, y, ys, 1, 100, 1, &b) == TKS_EINVAL);
    {
        const double neg[] = {-1};
        CHECK(tks__bootstrap_ratio(neg, NULL, 1, y, ys, 1, 100, 1, &b) == TKS_EINVAL);
    }
}

static void paired(void)
{
    /* mean 2, sample sd 1 (1, 2, 3): half-width t(2) * 1 / sqrt(3) = 4.302653 / 1.732 */
    const double d[] = {1, 2, 3};
    double m, h;
    tks__paired_t(d, 3, &m, &h);
    CHECK_NEAR(m, 2, 1e-12);
    CHECK_NEAR(h, 4.302653 / sqrt(3), 1e-6);
    tks__paired_t(d, 1, &m, &h);
    CHECK(isinf(h));
}

static void normal(void)
{
    /* the generator's normal deviates: mean 0, variance 1 within sampling error */
    uint64_t s = 42;
    double sum = 0, sq = 0;
    for (int i = 0; i < 100000; i++) {
        double z = tks__rand_normal(&s);
        sum += z;
        sq += z * z;
    }
    CHECK_NEAR(sum / 100000, 0, 0.02);
    CHECK_NEAR(sq / 100000, 1, 0.02);
}

int main(void)
{
    utest_exact();
    utest_min_p();
    utest_ties();
    utest_bad();
    bootstrap();
    paired();
    normal();
    CHECK_DONE();
}
