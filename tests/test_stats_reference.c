/* SPDX-License-Identifier: MIT */
/* test_stats_reference.c: the interleaved core-clock reference on synthetic bursts with hand-worked
 * answers: the rate, its error, an interrupt left out, a drift seen in the quarters, and the
 * factors that bring each stretch to the run's rate; latency mode's harness gap. */
#include <math.h>
#include <stddef.h>

#include "check.h"
#include "stats/reference.h"
#include "tickscope/common.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

/* A steady clock: 150 cycles read 100 ticks every time, so 1.5 cycles a tick and no error. */
static void steady(void)
{
    double t[16];
    tks__reference r;
    for (int i = 0; i < 16; i++)
        t[i] = 100;
    CHECK(tks__reference_fit(t, 16, 150, 26, &r) == 0);
    CHECK(r.kept == 16 && NEAR(r.ticks, 100, 1e-12) && NEAR(r.cycles_per_tick, 1.5, 1e-12));
    CHECK(r.ticks_se == 0 && r.rel_se == 0);
    CHECK(NEAR(r.start, 1.5, 1e-12) && NEAR(r.end, 1.5, 1e-12) && r.range == 0);
}

/* An interrupt in one burst: 5,000 ticks is far outside the fences and left out. */
static void interrupt(void)
{
    double t[10] = {100, 102, 98, 100, 5000, 100, 102, 98, 100, 100};
    tks__reference r;
    CHECK(tks__reference_fit(t, 10, 150, 1, &r) == 0);
    CHECK(r.kept == 9 && NEAR(r.ticks, 100, 1e-12));
    /* sd of {100,102,98,100,100,102,98,100,100} = sqrt(16/8) = 1.414; se = 1.414 / 3. */
    CHECK(NEAR(r.ticks_se, sqrt(2.0) / 3, 1e-12) && NEAR(r.rel_se, sqrt(2.0) / 300, 1e-12));
}

/* The core clock speeds up half way: 100 ticks, then 90 (the chain takes fewer ticks). */
static void drift(void)
{
    double t[16], f[16];
    tks__reference r;
    for (int i = 0; i < 16; i++)
        t[i] = i < 8 ? 100 : 90;
    CHECK(tks__reference_fit(t, 16, 150, 1, &r) == 0);
    /* Median 95, MAD 5: fences 95 +- 37, every burst kept; mean 95. */
    CHECK(r.kept == 16 && NEAR(r.ticks, 95, 1e-12) && NEAR(r.cycles_per_tick, 150.0 / 95, 1e-12));
    CHECK(NEAR(r.start, 1.5, 1e-12) && NEAR(r.end, 150.0 / 90, 1e-12));
    /* Quarters 1.5, 1.5, 1.667, 1.667: range (1.667 - 1.5) / 1.583. */
    CHECK(NEAR(r.range, (150.0 / 90 - 1.5) / ((1.5 + 150.0 / 90) / 2), 1e-12));
    /* Factors with radius 0: a window taken where the chain read 100 ticks is scaled by 95/100. */
    tks__reference_factors(t, 16, &r, 0, f);
    CHECK(NEAR(f[0], 0.95, 1e-12) && NEAR(f[15], 95.0 / 90, 1e-12));
    /* Radius 1 at the step: entries 6..8 read 100, 100, 90. */
    tks__reference_factors(t, 16, &r, 1, f);
    CHECK(NEAR(f[7], 95 / (290.0 / 3), 1e-12));
}

static void bad_input(void)
{
    double t[2] = {100, 100};
    tks__reference r;
    CHECK(tks__reference_fit(NULL, 2, 150, 1, &r) == TKS_EINVAL);
    CHECK(tks__reference_fit(t, 0, 150, 1, &r) == TKS_EINVAL);
    CHECK(tks__reference_fit(t, 2, 0, 1, &r) == TKS_EINVAL);
    t[0] = t[1] = -5; /* a clock that went backwards: no rate */
    CHECK(tks__reference_fit(t, 2, 150, 1, &r) == TKS_EINVAL);
    /* Fewer than 8 bursts: the whole run stands for the quarters. */
    t[0] = 100;
    t[1] = 110;
    CHECK(tks__reference_fit(t, 2, 150, 1, &r) == 0);
    CHECK(NEAR(r.start, r.cycles_per_tick, 1e-12) && r.range == 0);
}

/* The harness gap: ten bursts 8..12 ticks twice and one interrupted burst, left out: mean 10,
 * sample sd sqrt(20 / 9), half-width 1.96 sd / sqrt(10). A gap may be negative (a CPU whose
 * empty window is the slower one), and a steady one has no width. */
static void gap(void)
{
    const double g[] = {8, 9, 10, 11, 12, 8, 9, 10, 11, 12, 5000}, neg[] = {-3, -3, -3};
    double m = 0, h = 0;
    CHECK(tks__reference_gap(g, 11, 1, &m, &h) == 0);
    CHECK(NEAR(m, 10, 1e-12) && NEAR(h, 1.96 * sqrt(20.0 / 9) / sqrt(10.0), 1e-12));
    CHECK(tks__reference_gap(neg, 3, 26, &m, &h) == 0);
    CHECK(NEAR(m, -3, 1e-12) && h == 0);
    CHECK(tks__reference_gap(NULL, 3, 1, &m, &h) == TKS_EINVAL);
    CHECK(tks__reference_gap(neg, 0, 1, &m, &h) == TKS_EINVAL);
    CHECK(tks__reference_gap(neg, 3, 1, NULL, &h) == TKS_EINVAL);
}

/* One burst's mean: a quantised burst (42 and 63 ticks at a quantum of 21) keeps every sample,
 * the slow ones too; a sample an interrupt lengthened (thousands of ticks) is left out, where a
 * plain mean moved by hundreds of ticks (a 60-window run has one burst, so that was the run's
 * harness gap). Bound: twice the median plus four quanta. */
static void burst(void)
{
    uint64_t q[48], one[] = {157}, edge[] = {100, 100, 100, 284, 285};
    double plain = 0;
    for (size_t i = 0; i < 48; i++)
        q[i] = i % 4 ? 42 : 63;
    CHECK(NEAR(tks__burst_mean(q, 48, 21), (36 * 42.0 + 12 * 63.0) / 48, 1e-12));
    q[17] = 60000;
    for (size_t i = 0; i < 48; i++)
        plain += (double)q[i] / 48;
    CHECK(plain > 1200);
    CHECK(NEAR(tks__burst_mean(q, 48, 21), (35 * 42.0 + 12 * 63.0) / 47, 1e-12));
    CHECK(tks__burst_mean(one, 1, 21) == 157);
    /* median 100, bound 200 + 4 * 21 = 284: 284 kept, 285 left out */
    CHECK(NEAR(tks__burst_mean(edge, 5, 21), 584.0 / 4, 1e-12));
    CHECK(isnan(tks__burst_mean(one, 0, 21)));
}

int main(void)
{
    gap();
    burst();
    steady();
    interrupt();
    drift();
    bad_input();
    CHECK_DONE();
}
