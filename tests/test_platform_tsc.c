/* SPDX-License-Identifier: MIT */
/* test_platform_tsc.c: the TSC-rate maths on synthetic clock pairs with known slope and noise, the
 * kernel-log parser, and the commonest-deltas helper (the per-boot cache: test_platform_cache.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture_util.h"
#include "platform/tsc_sources.h"
#include "tickscope.h"

#define N 2000

static uint64_t lo[N], hi[N], ns[N];

/* Pairs of a clock of `hz` ticks per second, sampled every 20 us, with the midpoint of each TSC
 * bracket displaced by `noise(i)` ticks and a bracket of 40 ticks. */
static void make_pairs(double hz, size_t n, int (*noise)(size_t))
{
    for (size_t i = 0; i < n; i++) {
        ns[i] = 5000000000ull + 20000ull * i;
        double mid = 1e12 + (double)(ns[i] - ns[0]) * hz / 1e9 + noise(i);
        lo[i] = (uint64_t)(mid - 20);
        hi[i] = (uint64_t)(mid + 20);
    }
}

static int no_noise(size_t i) { (void)i; return 0; }

/* Deterministic, roughly uniform on -10..10 ticks (sd about 6). */
static int lcg_noise(size_t i)
{
    static uint32_t s = 12345;
    (void)i;
    s = s * 1103515245u + 12345u;
    return (int)((s >> 16) % 21) - 10;
}

static void test_exact_slope(void)
{
    tks_tsc_calibration c;
    make_pairs(2.5e9, N, no_noise);
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK_NEAR(c.hz, 2.5e9, 1e-3);
    CHECK_NEAR(c.ppm, 0, 1e-6);
    CHECK_EQ_U64(c.points, N);
    CHECK_EQ_U64(c.used, N);
    CHECK_NEAR(c.bracket_ticks, 40, 1);
    /* 2000 points, 20 us apart: 39.98 ms from first to last. */
    CHECK_NEAR(c.seconds, 0.03998, 1e-9);
}

static void test_noisy_slope(void)
{
    /* 2.3 GHz plus 7 ppm. With noise sd ~6.06 ticks (uniform on 21 values) and the reference
     * times spread with sd 40 ms / sqrt(12) = 11.55 ms over 2000 points, the slope's standard
     * error is 6.06 / (sqrt(2000) * 1.155e7 ns) = 1.17e-8 ticks/ns, 0.0051 ppm of 2.3 ticks/ns;
     * the 95% figure is 1.96 times that: about 0.010 ppm. */
    double truth = 2.3e9 * (1 + 7e-6);
    tks_tsc_calibration c;
    make_pairs(truth, N, lcg_noise);
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK(c.ppm > 0.007 && c.ppm < 0.014);
    CHECK(fabs(c.hz - truth) / truth * 1e6 < 3 * c.ppm);
    /* 7 ppm off 2.3 GHz is told apart from 2.3 GHz itself. */
    CHECK(fabs(c.hz - 2.3e9) / 2.3e9 * 1e6 > 6.9);
}

static void test_wide_brackets_dropped(void)
{
    tks_tsc_calibration c;
    make_pairs(3e9, N, no_noise);
    /* An interrupt between the reads: the bracket is huge and its midpoint far off. */
    for (size_t i = 7; i < N; i += 97)
        hi[i] += 50000;
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK_EQ_U64(c.used, N - 21); /* i = 7, 104, ..., 1947: 21 of them */
    CHECK_NEAR(c.hz, 3e9, 1e-3);
    /* An end reading before the begin reading is not a bracket at all. */
    hi[3] = lo[3] - 1;
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK_EQ_U64(c.used, N - 22);
}

static void test_fit_errors(void)
{
    tks_tsc_calibration c;
    make_pairs(2e9, N, no_noise);
    CHECK(tks_tsc_fit(NULL, hi, ns, N, &c) == TKS_EINVAL);
    CHECK(tks_tsc_fit(lo, hi, ns, N, NULL) == TKS_EINVAL);
    CHECK(tks_tsc_fit(lo, hi, ns, 2, &c) == TKS_EINVAL);
    CHECK(tks_tsc_fit(lo, hi, ns, 0, &c) == TKS_EINVAL);
    for (size_t i = 0; i < 10; i++)
        ns[i] = ns[0];
    CHECK(tks_tsc_fit(lo, hi, ns, 10, &c) == TKS_EINVAL); /* no reference time passed */
}

static void test_top_values(void)
{
    static const uint64_t s[] = {1, 1, 2, 2, 2, 3, 5, 5, 5};
    uint64_t v[5], c[5];
    CHECK_EQ_U64(tks_top_values(s, 9, v, c, 2), 2);
    CHECK_EQ_U64(v[0], 2);
    CHECK_EQ_U64(c[0], 3);
    CHECK_EQ_U64(v[1], 5);
    CHECK_EQ_U64(c[1], 3);
    CHECK_EQ_U64(tks_top_values(s, 9, v, c, 5), 4);
    CHECK_EQ_U64(v[2], 1);
    CHECK_EQ_U64(c[2], 2);
    CHECK_EQ_U64(v[3], 3);
    CHECK_EQ_U64(c[3], 1);
    CHECK_EQ_U64(tks_top_values(s, 0, v, c, 5), 0);
    CHECK_EQ_U64(tks_top_values(s + 5, 4, v, c, 1), 1); /* 3, 5, 5, 5 */
    CHECK_EQ_U64(v[0], 5);
    CHECK_EQ_U64(c[0], 3);
}

static void test_kernel_log(void)
{
    double hz = 0;
    int refined = -1;
    CHECK(tks__parse_kernel_log_tsc("6,1,2,-;tsc: Detected 2300.000 MHz processor\n", &hz, &refined));
    CHECK_NEAR(hz, 2.3e9, 1e-3);
    CHECK(refined == 0);
    /* The refined figure wins wherever it appears. */
    CHECK(tks__parse_kernel_log_tsc("tsc: Refined TSC clocksource calibration: 2595.998 MHz\n"
                                   "tsc: Detected 2596.102 MHz processor\n", &hz, &refined));
    CHECK_NEAR(hz, 2595.998e6, 1e-3);
    CHECK(refined == 1);
    CHECK(!tks__parse_kernel_log_tsc("tsc: Detected lots of MHz\nclocksource: tsc\n", &hz, &refined));
    CHECK(!tks__parse_kernel_log_tsc("", &hz, &refined));
    CHECK(!tks__parse_kernel_log_tsc(NULL, &hz, &refined));
}

static void test_declared_from_kernel_log(void)
{
    char root[4096];
    tks_hz_reading r[TKS_HZ_SOURCE_COUNT];
    size_t n = tks__tsc_declared(fixture("boot", root, sizeof root), r, TKS_HZ_SOURCE_COUNT), i;
    for (i = 0; i < n && r[i].source != TKS_HZ_LINUX_LOG; i++)
        ;
    CHECK(i < n);
    if (i < n) {
        CHECK_NEAR(r[i].hz, 2595.998e6, 1e-3);
        CHECK(strstr(r[i].detail, "Refined") != NULL);
    }
    /* A root without a kernel log gives no linux-log reading, and no error. */
    n = tks__tsc_declared("/nonexistent-root", r, TKS_HZ_SOURCE_COUNT);
    for (i = 0; i < n; i++)
        CHECK(r[i].source != TKS_HZ_LINUX_LOG);
    CHECK_EQ_U64(tks__tsc_declared(NULL, r, 0), 0);
}

static void test_names_and_units(void)
{
    tks_platform p;
    CHECK_STR(tks_hz_source_name(TKS_HZ_MEASURED), "measured");
    CHECK_STR(tks_hz_source_name(TKS_HZ_HYPERVISOR), "hypervisor");
    CHECK_STR(tks_hz_source_name(TKS_HZ_SOURCE_COUNT), "unknown");
    memset(&p, 0, sizeof p);
    CHECK(isnan(tks_ticks_to_ns(&p, 10)));
    p.tsc_hz = 2.5e9;
    CHECK_NEAR(tks_ticks_to_ns(&p, 10), 4.0, 1e-12);
}

int main(void)
{
    test_exact_slope();
    test_noisy_slope();
    test_wide_brackets_dropped();
    test_fit_errors();
    test_top_values();
    test_kernel_log();
    test_declared_from_kernel_log();
    test_names_and_units();
    CHECK_DONE();
}
