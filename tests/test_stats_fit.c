/* SPDX-License-Identifier: MIT */
/* test_stats_fit.c: the least-squares line (cost per step, overhead) and the resolution of a
 * growing-work series, on exact lines and small noisy sets worked by hand. */
#include <math.h>
#include <stddef.h>

#include "check.h"
#include "tickscope.h"

static void test_fit_errors(void)
{
    double x[] = { 1, 1, 1 }, y[] = { 1, 2, 3 };
    tks_fit f;
    CHECK(tks_linear_fit(x, y, 1, &f) == TKS_EINVAL);
    CHECK(tks_linear_fit(x, y, 0, &f) == TKS_EINVAL);
    CHECK(tks_linear_fit(x, y, 3, &f) == TKS_EINVAL); /* all x equal */
    CHECK(tks_linear_fit(NULL, y, 3, &f) == TKS_EINVAL);
    CHECK(tks_linear_fit(y, NULL, 3, &f) == TKS_EINVAL);
    CHECK(tks_linear_fit(y, x, 3, NULL) == TKS_EINVAL);
}

static void test_fit_exact(void)
{
    /* y = 3 + 2x on x = 0..4: slope 2, intercept 3, r2 1, no residuals, no error. */
    double x[] = { 0, 1, 2, 3, 4 }, y[] = { 3, 5, 7, 9, 11 };
    tks_fit f;
    CHECK(tks_linear_fit(x, y, 5, &f) == TKS_OK);
    CHECK_EQ_U64(f.n, 5);
    CHECK_NEAR(f.slope, 2.0, 1e-15);
    CHECK_NEAR(f.intercept, 3.0, 1e-14);
    CHECK_NEAR(f.r2, 1.0, 1e-15);
    CHECK_NEAR(f.residual_sd, 0.0, 1e-14);
    CHECK_NEAR(f.slope_se, 0.0, 1e-14);
    CHECK_NEAR(f.intercept_se, 0.0, 1e-14);
    /* The paper's growing loop, offset like real timings: 2 ticks per step on top of 2036
     * ticks, x = 1000..1009. Centred sums keep this exact. */
    double bx[10], by[10];
    for (int i = 0; i < 10; i++) {
        bx[i] = 1000 + i;
        by[i] = 2036 + 2.0 * (1000 + i);
    }
    CHECK(tks_linear_fit(bx, by, 10, &f) == TKS_OK);
    CHECK_NEAR(f.slope, 2.0, 1e-12);
    CHECK_NEAR(f.intercept, 2036.0, 1e-9);
    CHECK_NEAR(f.r2, 1.0, 1e-12);
    /* Two points: the line through them, residual_sd 0 by definition. */
    CHECK(tks_linear_fit(x, y, 2, &f) == TKS_OK);
    CHECK_NEAR(f.slope, 2.0, 1e-15);
    CHECK_NEAR(f.residual_sd, 0.0, 0);
    /* All y equal: slope 0, r2 1 (nothing left to explain, and the fit explains it). */
    double flat[] = { 7, 7, 7, 7, 7 };
    CHECK(tks_linear_fit(x, flat, 5, &f) == TKS_OK);
    CHECK_NEAR(f.slope, 0.0, 0);
    CHECK_NEAR(f.intercept, 7.0, 0);
    CHECK_NEAR(f.r2, 1.0, 0);
    CHECK_NEAR(f.residual_sd, 0.0, 0);
}

static void test_fit_noisy(void)
{
    /* x = 1..5, y = {2,4,5,4,5}. mean x 3, mean y 4; Sxx = 4+1+0+1+4 = 10;
     * Sxy = (-2)(-2) + (-1)(0) + 0 + (1)(0) + (2)(1) = 6; slope 0.6; intercept 4 - 1.8 = 2.2.
     * Fitted 2.8 3.4 4.0 4.6 5.2; residuals -0.8 0.6 1 -0.6 -0.2; SSR = 0.64+0.36+1+0.36+0.04
     * = 2.4; SST = 4+0+1+0+1 = 6; r2 = 1 - 2.4/6 = 0.6. residual_sd = sqrt(2.4/3) = sqrt(0.8);
     * slope_se = sqrt(0.8)/sqrt(10) = sqrt(0.08); intercept_se = sqrt(0.8) sqrt(1/5 + 9/10)
     * = sqrt(0.88). */
    double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
    tks_fit f;
    CHECK(tks_linear_fit(x, y, 5, &f) == TKS_OK);
    CHECK_NEAR(f.slope, 0.6, 1e-15);
    CHECK_NEAR(f.intercept, 2.2, 1e-15);
    CHECK_NEAR(f.r2, 0.6, 1e-15);
    CHECK_NEAR(f.residual_sd, sqrt(0.8), 1e-15);
    CHECK_NEAR(f.slope_se, sqrt(0.08), 1e-15);
    CHECK_NEAR(f.intercept_se, sqrt(0.88), 1e-15);
}

static void test_resolution(void)
{
    double est[40], unc[40], frac = -1;
    for (int i = 0; i < 40; i++)
        unc[i] = 0;
    /* The paper's 3.3.1: +4 ticks every 2 instructions. est = 4 floor(i/2), n = 20.
     * k = 1: steps alternate +0 and +4, 10 of 19 resolved (0.53 < 0.95).
     * k = 2: every step is +4: 18/18 = 1: resolution 2. */
    for (int i = 0; i < 20; i++)
        est[i] = 4.0 * (i / 2);
    CHECK_EQ_U64(tks_resolution(est, unc, 20, 0.95, &frac), 2);
    CHECK_NEAR(frac, 1.0, 0);
    /* Flat: nothing ever resolved, 0, fraction 0. */
    for (int i = 0; i < 20; i++)
        est[i] = 44;
    frac = -1;
    CHECK_EQ_U64(tks_resolution(est, unc, 20, 0.95, &frac), 0);
    CHECK_NEAR(frac, 0.0, 0);
    /* est = i with uncertainty 1 each: a step of k is resolved when k > sqrt(2) = 1.414: 2.
     * With uncertainty 2: k > sqrt(8) = 2.83: 3. */
    for (int i = 0; i < 20; i++) {
        est[i] = i;
        unc[i] = 1;
    }
    CHECK_EQ_U64(tks_resolution(est, unc, 20, 0.95, NULL), 2);
    for (int i = 0; i < 20; i++)
        unc[i] = 2;
    CHECK_EQ_U64(tks_resolution(est, unc, 20, 0.95, &frac), 3);
    CHECK_NEAR(frac, 1.0, 0);
    /* Coverage: est = i for i = 0..20 except est[10] = 9. k = 1 steps i = 1..20: only i = 10
     * (9 - 9 = 0) fails: 19/20 = 0.95. Coverage 0.95 gives 1; 0.96 gives 2, where
     * est[i] - est[i-2] >= 1 for every i = 2..20 (19/19). */
    for (int i = 0; i <= 20; i++) {
        est[i] = i;
        unc[i] = 0;
    }
    est[10] = 9;
    CHECK_EQ_U64(tks_resolution(est, unc, 21, 0.95, &frac), 1);
    CHECK_NEAR(frac, 0.95, 1e-15);
    CHECK_EQ_U64(tks_resolution(est, unc, 21, 0.96, &frac), 2);
    CHECK_NEAR(frac, 1.0, 0);
    /* Falling estimates are never resolved (the difference must be > 0). */
    for (int i = 0; i < 20; i++)
        est[i] = 100 - i;
    CHECK_EQ_U64(tks_resolution(est, unc, 20, 0.5, NULL), 0);
    /* k stops at (n-1)/2. est {0,0,1,1,2}: k = 1 resolves 2/4; k = 2 (= (5-1)/2) resolves 3/3.
     * With n = 4 ({0,0,1,1}) only k = 1 is tried (1/3): 0. */
    double s[] = { 0, 0, 1, 1, 2 };
    CHECK_EQ_U64(tks_resolution(s, unc, 5, 0.95, NULL), 2);
    CHECK_EQ_U64(tks_resolution(s, unc, 4, 0.95, NULL), 0);
    CHECK_EQ_U64(tks_resolution(s, unc, 0, 0.95, NULL), 0);
    CHECK_EQ_U64(tks_resolution(NULL, unc, 5, 0.95, NULL), 0);
}

int main(void)
{
    test_fit_errors();
    test_fit_exact();
    test_fit_noisy();
    test_resolution();
    CHECK_DONE();
}
