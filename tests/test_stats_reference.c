/* test_stats_reference.c: the interleaved core-clock reference on synthetic bursts with hand-worked
 * answers: the rate, its error, an interrupt left out, a drift seen in the quarters, and the
 * factors that bring each stretch to the run's rate. */
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

int main(void)
{
    steady();
    interrupt();
    drift();
    bad_input();
    CHECK_DONE();
}
