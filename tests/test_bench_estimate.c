/* SPDX-License-Identifier: MIT */
/* test_bench_estimate.c: the benchmark estimators against synthetic windows with known answers:
 * quantised readings whose true difference lies between timer steps, identical distributions
 * (zero inside the interval), lines with noise and interrupt spikes for the throughput slope. */
#include <stdlib.h>

#include "check.h"
#include "stats/estimate.h"

/* A fixed-seed generator, so the tests give the same answer every run. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A window of true length d read by a timer that steps by q: the start falls at a uniform phase
 * of the step, so the reading is q * floor((phase + d) / q) and its mean is exactly d. */
static uint64_t quantised(double d, uint64_t q)
{
    double phase = uniform() * (double)q;
    return q * (uint64_t)((phase + d) / (double)q);
}

#define N 100000
static uint64_t real[N], empty[N], scratch[2 * N];
static uint32_t ks[N];

static void test_latency_between_steps(void)
{
    /* Empty window 48.6 ticks, block 7.7 ticks, timer step 2: every reading is even, yet the
     * phase-averaged mean recovers 7.7. Minimum and median can only be whole steps. */
    tks__estimate e;
    for (size_t i = 0; i < N; i++) {
        empty[i] = quantised(48.6, 2);
        real[i] = quantised(48.6 + 7.7, 2);
    }
    CHECK(tks__estimate_latency(real, empty, N, 2, scratch, &e) == 0);
    CHECK_NEAR(e.mean.value, 7.7, 0.02);
    CHECK(e.mean.lo < 7.7 && 7.7 < e.mean.hi);
    CHECK(e.mean.hi - e.mean.lo < 0.05);
    CHECK_EQ_U64((uint64_t)e.min.value % 2, 0);
    CHECK_NEAR(e.min.value, 56 - 48, 0);
    CHECK(e.median.value == 6 || e.median.value == 8);
    CHECK(e.median.lo <= e.median.value && e.median.value <= e.median.hi);
    CHECK_NEAR(e.empty.pa_mean, 48.6, 0.01);
    CHECK_EQ_U64(e.k_max, 1);
    CHECK(isnan(e.slope.value));
}

static void test_latency_nothing(void)
{
    /* The same distribution twice: zero must lie inside both intervals. */
    tks__estimate e;
    for (size_t i = 0; i < N; i++) {
        empty[i] = quantised(52.3, 2);
        real[i] = quantised(52.3, 2);
    }
    CHECK(tks__estimate_latency(real, empty, N, 2, scratch, &e) == 0);
    CHECK(e.mean.lo < 0 && 0 < e.mean.hi);
    CHECK(e.median.lo <= 0 && 0 <= e.median.hi);
    CHECK_NEAR(e.mean.value, 0, 0.02);
}

static void test_latency_exact(void)
{
    /* Hand-worked: real {60, 62, 62, 64}, empty {50, 50, 52, 52}, quantum 2.
     * min 60 - 50 = 10; median 62 - 51 = 11; means 62 - 51 = 11 (nothing trimmed). */
    uint64_t r[4] = {60, 62, 62, 64}, m[4] = {50, 50, 52, 52}, s[8];
    tks__estimate e;
    CHECK(tks__estimate_latency(r, m, 4, 2, s, &e) == 0);
    CHECK_NEAR(e.min.value, 10, 0);
    CHECK_NEAR(e.median.value, 11, 0);
    CHECK_NEAR(e.mean.value, 11, 1e-12);
    CHECK_NEAR(e.real.pa_mean, 62, 0);
    CHECK_NEAR(e.empty.pa_mean, 51, 0);
}

/* Windows of k executions of a block costing `per` ticks, on a harness of `base` ticks, read by
 * a timer of step q, with spikes (interrupts) of `spike` ticks in a fraction of them. */
static size_t line(double base, double per, uint64_t q, double spike_rate, double spike)
{
    size_t n = 0;
    for (uint32_t point = 1; point <= 8; point++)
        for (size_t s = 0; s < N / 8; s++, n++) {
            double extra = uniform() < spike_rate ? spike : 0;
            ks[n] = 100 * point;
            real[n] = quantised(base + per * ks[n] + extra, q);
            empty[n] = quantised(base, q);
        }
    return n;
}

static void test_throughput_slope(void)
{
    tks__estimate e;
    size_t n = line(48.6, 0.767, 2, 0, 0);
    CHECK(tks__estimate_throughput(real, ks, empty, n, 2, scratch, &e) == 0);
    CHECK_EQ_U64(e.points, 8);
    CHECK_EQ_U64(e.k_max, 800);
    CHECK_NEAR(e.slope.value, 0.767, 0.001);
    CHECK(e.slope.lo < 0.767 && 0.767 < e.slope.hi);
    CHECK_NEAR(e.intercept, 48.6, 0.5);
    CHECK(e.slope_r2 > 0.9999);
    /* min, median and mean per execution at k = 800, the empty window's subtracted. */
    CHECK_NEAR(e.mean.value, 0.767, 0.001);
}

static void test_throughput_spikes(void)
{
    /* 1% of windows hit by a 5,000-tick interrupt: the phase-averaged means drop them (Tukey's
     * far fences), so the slope stays put where a plain mean would not. */
    tks__estimate e;
    size_t n = line(48.6, 0.767, 2, 0.01, 5000);
    CHECK(tks__estimate_throughput(real, ks, empty, n, 2, scratch, &e) == 0);
    CHECK_NEAR(e.slope.value, 0.767, 0.002);
    CHECK(e.real.outliers_high > 0);
}

static void test_throughput_noisy_line(void)
{
    /* A line with scatter between points (a nonlinearity the per-point intervals do not see):
     * the residuals must widen the interval so that it still covers the true slope. */
    static const double wobble[8] = {3, -2, 4, -5, 1, 5, -4, -2};
    tks__estimate e;
    size_t n = line(48.6, 0.5, 2, 0, 0);
    for (size_t i = 0; i < n; i++)
        real[i] += (uint64_t)(10 + 2 * wobble[ks[i] / 100 - 1]) - 10;
    CHECK(tks__estimate_throughput(real, ks, empty, n, 2, scratch, &e) == 0);
    CHECK(e.slope.lo < 0.5 && 0.5 < e.slope.hi);
    CHECK(e.slope.hi - e.slope.lo > 0.005);
}

static void test_bad_input(void)
{
    uint64_t r[4] = {1, 2, 3, 4}, m[4] = {1, 1, 1, 1}, s[8];
    uint32_t two_ks[4] = {1, 1, 2, 2}, zero_k[6] = {0, 0, 1, 1, 2, 2};
    uint64_t r6[6] = {1, 1, 2, 2, 3, 3}, m6[6] = {0}, s6[12];
    tks__estimate e;
    CHECK(tks__estimate_latency(r, m, 1, 1, s, &e) == TKS_EINVAL);
    CHECK(tks__estimate_latency(NULL, m, 4, 1, s, &e) == TKS_EINVAL);
    CHECK(tks__estimate_throughput(r, two_ks, m, 4, 1, s, &e) == TKS_EINVAL); /* 2 points */
    CHECK(tks__estimate_throughput(r6, zero_k, m6, 6, 1, s6, &e) == TKS_EINVAL); /* k = 0 */
}

static void test_t(void)
{
    CHECK(isinf(tks__t975(0)));
    /* table values to three decimals (test_stats_student_t.c has more) */
    CHECK_NEAR(tks__t975(1), 12.706, 5e-4);
    CHECK_NEAR(tks__t975(6), 2.447, 5e-4);
    CHECK_NEAR(tks__t975(30), 2.042, 5e-4);
    CHECK_NEAR(tks__t975(1000), 1.962, 5e-4);
}

int main(void)
{
    test_latency_between_steps();
    test_latency_nothing();
    test_latency_exact();
    test_throughput_slope();
    test_throughput_spikes();
    test_throughput_noisy_line();
    test_bad_input();
    test_t();
    CHECK_DONE();
}
