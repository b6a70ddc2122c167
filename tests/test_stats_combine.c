/* SPDX-License-Identifier: MIT */
/* test_stats_combine.c: agreement and inverse-variance combination of two estimates, on
 * hand-worked intervals: what latency mode does with a small block's fenced-window figure and its
 * figure in a stream. */
#include <math.h>

#include "stats/combine.h"

#include "check.h"

static tks_interval iv(double v, double half)
{
    return (tks_interval){v, v - half, v + half};
}

static void test_agree(void)
{
    tks_interval win = iv(1.10, 0.30), stream = iv(1.00, 0.01), far = iv(1.60, 0.05);
    /* |1.10 - 1.00| = 0.10 against hypot(0.30, 0.01) = 0.3002: agree, excess negative */
    CHECK(tks__intervals_excess(&win, &stream) < 0);
    CHECK(tks__intervals_agree(&win, &stream, 0));
    /* one fenced window of 100 independent adds against the stream: 24.6 +-0.3 and 19.3 +-0.1 */
    tks_interval w = iv(24.6, 0.3), s = iv(19.3, 0.1);
    CHECK(!tks__intervals_agree(&w, &s, 0.03));
    /* 0.60 apart, intervals covering 0.30: excess 0.30, let through by a 20% slack of 1.60 */
    CHECK_NEAR(tks__intervals_excess(&far, &stream), 0.60 - hypot(0.05, 0.01), 1e-12);
    CHECK(!tks__intervals_agree(&far, &stream, 0.03));
    CHECK(tks__intervals_agree(&far, &stream, 0.4));
    /* symmetric, and NaN never agrees */
    CHECK(tks__intervals_agree(&stream, &win, 0));
    tks_interval nan = iv(NAN, 0.1);
    CHECK(!tks__intervals_agree(&nan, &stream, 1));
}

static void test_combine(void)
{
    /* equal half-widths: the midpoint, the half-width over sqrt(2) */
    tks_interval a = iv(1.0, 0.2), b = iv(1.2, 0.2), c = tks__intervals_combine(&a, &b);
    CHECK_NEAR(c.value, 1.1, 1e-12);
    CHECK_NEAR((c.hi - c.lo) / 2, 0.2 / sqrt(2), 1e-12);
    /* weights 1/h^2: 1/0.01 and 1/0.04, so 4:1 toward the narrower; half 1/sqrt(100 + 25) */
    tks_interval n = iv(2.0, 0.1), w = iv(3.0, 0.2);
    c = tks__intervals_combine(&n, &w);
    CHECK_NEAR(c.value, (100 * 2.0 + 25 * 3.0) / 125, 1e-12);
    /* |2 - 3| exceeds hypot(0.1, 0.2): the excess widens the interval */
    CHECK_NEAR((c.hi - c.lo) / 2, 1 / sqrt(125.0) + (1.0 - hypot(0.1, 0.2)), 1e-12);
    /* the window figure of one add (+-0.3) and its stream figure (+-0.004): the stream's, nearly */
    tks_interval win = iv(1.12, 0.30), stream = iv(0.998, 0.004);
    c = tks__intervals_combine(&win, &stream);
    CHECK(fabs(c.value - 0.998) < 0.001);
    CHECK((c.hi - c.lo) / 2 < 0.004);
    CHECK(c.lo <= 0.998 && 0.998 <= c.hi);
    /* an exact figure is taken as it is, from either side */
    tks_interval exact = iv(5.0, 0);
    c = tks__intervals_combine(&exact, &a);
    CHECK_NEAR(c.value, 5.0, 0);
    c = tks__intervals_combine(&a, &exact);
    CHECK_NEAR(c.value, 5.0, 0);
}

int main(void)
{
    test_agree();
    test_combine();
    CHECK_DONE();
}
