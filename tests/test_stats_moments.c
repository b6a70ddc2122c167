/* SPDX-License-Identifier: MIT */
/* test_stats_moments.c: exact variance of tick counts, including values near 2^64 where a
 * double or a 128-bit sum of squares gives the wrong answer. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "tickscope.h"

#define M UINT64_MAX

static void test_small(void)
{
    /* {2, 4, 4, 4, 5, 5, 7, 9}: mean 40/8 = 5, squared deviations 9+1+1+1+0+0+4+16 = 32,
     * population variance 32/8 = 4. */
    uint64_t x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    CHECK_NEAR(tks_variance_u64(x, 8), 4.0, 0);
    /* {1, 2}: mean 1.5, variance (0.25 + 0.25)/2 = 0.25. */
    CHECK_NEAR(tks_variance_u64(x, 0), 0.0, 0);
    uint64_t y[] = { 1, 2 };
    CHECK_NEAR(tks_variance_u64(y, 2), 0.25, 0);
    /* n < 2 and NULL give 0. */
    CHECK_NEAR(tks_variance_u64(y, 1), 0.0, 0);
    CHECK_NEAR(tks_variance_u64(NULL, 5), 0.0, 0);
}

static void test_all_equal(void)
{
    /* The paper's flat case: every sample the same, variance exactly 0. */
    uint64_t x[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = 44;
    CHECK_NEAR(tks_variance_u64(x, 1000), 0.0, 0);
    /* n copies of UINT64_MAX: 0, not garbage from overflowing squares. */
    for (int i = 0; i < 1000; i++)
        x[i] = M;
    CHECK_NEAR(tks_variance_u64(x, 1000), 0.0, 0);
}

static void test_one_outlier(void)
{
    /* 999 x 44 and one 10044. Shifted by 44: sum d = 10000, sum d^2 = 10^8.
     * numerator = 1000 * 10^8 - 10000^2 = 10^11 - 10^8 = 999 * 10^8; / 1000^2 = 99900. */
    static uint64_t x[1000];
    for (int i = 0; i < 999; i++)
        x[i] = 44;
    x[999] = 10044;
    CHECK_NEAR(tks_variance_u64(x, 1000), 99900.0, 0);
}

static void test_near_2_64(void)
{
    /* {M, M-2}: mean M-1, deviations +-1, variance 1. A double rounds both to 2^64: 0. */
    uint64_t a[] = { M, M - 2 };
    CHECK_NEAR(tks_variance_u64(a, 2), 1.0, 0);
    /* {M, M-1, M-3}: d = {3, 2, 0}, sum 5, sum sq 13, numerator 3*13 - 25 = 14, / 9. */
    uint64_t b[] = { M, M - 1, M - 3 };
    CHECK_NEAR(tks_variance_u64(b, 3), 14.0 / 9.0, 1e-15);
    /* {0, M, 0, M}: two values M apart, half each: variance M^2/4 = 2^126 - 2^63 + 1/4,
     * which rounds to exactly 2^126 as a double. sum d^2 = 2 M^2 > 2^128, so a 128-bit sum of
     * squares wraps; n * sum d^2 = 8 M^2 needs 131 bits. */
    uint64_t c[] = { 0, M, 0, M };
    CHECK_NEAR(tks_variance_u64(c, 4), 0x1p126, 0);
    /* 1000 values alternating 0 and M: sum d^2 = 500 M^2 (carries into the third limb),
     * numerator 1000 * 500 M^2 - (500 M)^2 = 250000 M^2, / 10^6 = M^2/4 again. */
    static uint64_t d[1000];
    for (int i = 0; i < 1000; i++)
        d[i] = (i & 1) ? M : 0;
    CHECK_NEAR(tks_variance_u64(d, 1000), 0x1p126, 0);
    /* {0, 0, M}: mean M/3, variance (1/3)(2/3) M^2 = 2 M^2 / 9 ~ 0.2222 * 2^128. The reference
     * is computed in long double (64-bit mantissa), well inside the tolerance. */
    uint64_t e[] = { 0, 0, M };
    long double ref = (long double)M * (long double)M * 2 / 9;
    CHECK_NEAR(tks_variance_u64(e, 3), (double)ref, (double)ref * 1e-15);
    /* {0, a, b} with a = 13043817307731275572, b = 13043818342934227234 (both near 2^63.5):
     * numerator 3(a^2 + b^2) - (a + b)^2 = 2(a^2 - ab + b^2) = 0xffffffffffffffff00033d8f289ce458.
     * The two 256-bit terms have equal second limbs and the low limb borrows, so this fails
     * unless the borrow is carried through the equal limb. variance = numerator / 9. */
    uint64_t g[] = { 0, 13043817307731275572ull, 13043818342934227234ull };
    long double num = (long double)0xffffffffffffffffull * 0x1p64L + 0x00033d8f289ce458ull;
    CHECK_NEAR(tks_variance_u64(g, 3), (double)(num / 9), (double)(num / 9) * 1e-15);
    /* A large offset with a small spread: {2^63 + 1, 2^63 + 3} has variance 1; doubles are
     * 2048 apart near 2^63, so a double computation sees two equal values and says 0. */
    uint64_t f[] = { (1ull << 63) + 1, (1ull << 63) + 3 };
    CHECK_NEAR(tks_variance_u64(f, 2), 1.0, 0);
}

static void test_double(void)
{
    /* Same set as test_small, as doubles: 4. */
    double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    CHECK_NEAR(tks_variance_double(x, 8), 4.0, 1e-15);
    /* Offset by 1e9: a one-pass sum of squares loses everything; two-pass gives 4. */
    for (int i = 0; i < 8; i++)
        x[i] += 1e9;
    CHECK_NEAR(tks_variance_double(x, 8), 4.0, 1e-9);
    /* {1.5}: 0; n = 0 and NULL: 0. */
    CHECK_NEAR(tks_variance_double(x, 1), 0.0, 0);
    CHECK_NEAR(tks_variance_double(x, 0), 0.0, 0);
    CHECK_NEAR(tks_variance_double(NULL, 3), 0.0, 0);
    /* {0.5, 1.5, 2.5}: mean 1.5, variance (1 + 0 + 1)/3 = 2/3. */
    double y[] = { 0.5, 1.5, 2.5 };
    CHECK_NEAR(tks_variance_double(y, 3), 2.0 / 3.0, 1e-15);
}

int main(void)
{
    test_small();
    test_all_equal();
    test_one_outlier();
    test_near_2_64();
    test_double();
    CHECK_DONE();
}
