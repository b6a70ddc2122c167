/* SPDX-License-Identifier: MIT */
/* test_stats_twice.c: latency mode's two-length correction on synthetic windows (stats/twice.c):
 * windows of the block once and twice read through a timer with a step, at phases spread over
 * the step, give the block's cost whatever the fences add around it; the choice between it and
 * the add chain's correction, with hand-worked answers. */
#include <math.h>

#include "stats/twice.h"
#include "check.h"

#define N 2000

/* What a timer of step q reads for a duration d begun at phase u (0 <= u < q) of its step. */
static uint64_t reading(double d, double u, uint64_t q)
{
    return (uint64_t)(floor((u + d) / (double)q) - floor(u / (double)q)) * q;
}

static uint64_t once[N], twice[N], scratch[N];

/* Windows around a block of cost c whose fences cost h around it, read with step q at phases
 * spread evenly over the step (the mean of such readings is the duration). */
static void windows(double h, double c, uint64_t q)
{
    for (size_t i = 0; i < N; i++) {
        double u = ((double)((i * 7919) % N) + 0.5) / N * (double)q;
        once[i] = reading(h + c, u, q);
        twice[i] = reading(h + 2 * c, u, q);
    }
}

static void test_estimate(void)
{
    tks_interval t;
    /* A block of 37.3 ticks read with a 21-tick step: the fences' cost (here 50.6 ticks, or 41.1:
     * any overlap of the block's own first and last instructions) cancels. */
    windows(50.6, 37.3, 21);
    CHECK_EQ_U64(tks__estimate_twice(once, twice, N, 21, scratch, &t), 0);
    CHECK_NEAR(t.value, 37.3, 0.05);
    CHECK(t.lo <= 37.3 && t.hi >= 37.3 && t.hi - t.lo < 2);
    windows(41.1, 37.3, 21);
    CHECK_EQ_U64(tks__estimate_twice(once, twice, N, 21, scratch, &t), 0);
    CHECK_NEAR(t.value, 37.3, 0.05);
    /* A step of one tick: the exact difference, and an interval of zero width around it. */
    windows(44, 180, 1);
    CHECK_EQ_U64(tks__estimate_twice(once, twice, N, 1, scratch, &t), 0);
    CHECK_NEAR(t.value, 180, 1e-9);
    CHECK_NEAR(t.hi - t.lo, 0, 1e-9);
    /* Too few windows, or none to write to. */
    CHECK(tks__estimate_twice(once, twice, 1, 1, scratch, &t) != 0);
    CHECK(tks__estimate_twice(once, twice, N, 1, scratch, NULL) != 0);
}

static void test_choose(void)
{
    tks_interval adds = {97.0, 96.5, 97.5}, out;
    /* The block's own correction reads 2 ticks over the adds' (a block whose first and last
     * instructions the fences overlap less than adds): within the overlap of 3, taken. */
    tks_interval t = {99.0, 98.8, 99.2};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 1);
    CHECK(out.value == 99.0);
    CHECK_NEAR(out.lo, 98.8, 0); /* as doubles (x87: 98.8 is a long double) */
    CHECK_NEAR(out.hi, 99.2, 0);
    /* Either way round. */
    t = (tks_interval){95.0, 94.8, 95.2};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 1);
    /* Two copies that overlap by a third of the block: twice less once reads 65, the copies are
     * not a chain; the adds' figure, its interval widened by the overlap in quadrature:
     * sqrt(0.5^2 + 3^2) = 3.0414. */
    t = (tks_interval){65.0, 64.8, 65.2};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 0);
    CHECK_NEAR(out.value, 97, 1e-12);
    CHECK_NEAR(out.hi - out.value, sqrt(0.25 + 9), 1e-9);
    CHECK_NEAR(out.value - out.lo, sqrt(0.25 + 9), 1e-9);
    /* Just outside: 0.5 and 0.2 in quadrature (0.5385) plus 3 is 3.5385 ticks. */
    t = (tks_interval){97 + 3.54, 97 + 3.34, 97 + 3.74};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 0);
    t = (tks_interval){97 + 3.53, 97 + 3.33, 97 + 3.73};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 1);
    /* Not measured (a block with hooks): the adds' figure, widened. */
    t = (tks_interval){NAN, NAN, NAN};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 0);
    CHECK_NEAR(out.hi - out.lo, 2 * sqrt(0.25 + 9), 1e-9);
    /* No add gap (no reference): the block's own, whatever it reads. */
    t = (tks_interval){65.0, 64.8, 65.2};
    adds = (tks_interval){NAN, NAN, NAN};
    CHECK(tks__twice_choose(&t, &adds, 3, &out) == 1 && out.value == 65.0);
}

int main(void)
{
    test_estimate();
    test_choose();
    CHECK_DONE();
}
