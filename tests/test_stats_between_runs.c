/* SPDX-License-Identifier: MIT */
/* test_stats_between_runs.c: the between-run intervals of a benchmark's repetitions (what
 * --repetitions and --processes print as "the mean within" and "the next run within"), on
 * figures worked by hand: Student's t with runs - 1 degrees of freedom, the standard error
 * sd / sqrt(n) for the mean and sd * sqrt(1 + 1/n) for one more run. A wrong number of degrees
 * of freedom, a missing square root or the normal's 1.96 each move a bound by far more than the
 * tolerance. */
#include <math.h>
#include <string.h>

#include "report/bench/bench_report.h"

#include "check.h"

/* Four runs reading 10, 12, 14, 16 ticks (core cycles twice that, one run without them). */
static void test_four_runs(void)
{
    tks_result r[5];
    tks__bench_aggregate a;
    static const double ticks[5] = {10, 12, 14, 16, 99};
    memset(r, 0, sizeof r);
    for (int i = 0; i < 5; i++) {
        r[i].ok = i < 4; /* the fifth failed: it counts nowhere */
        r[i].estimate.value = ticks[i];
        r[i].core_cycles.value = i == 1 ? NAN : 2 * ticks[i];
    }
    tks__bench_aggregate_of(r, 5, NULL, &a);
    CHECK_EQ_U64(a.runs, 4);
    CHECK_NEAR(a.ticks[TKS__AGG_MEAN], 13, 1e-12);
    CHECK_NEAR(a.ticks[TKS__AGG_MEDIAN], 13, 1e-12);
    /* squared deviations 9 + 1 + 1 + 9 = 20 over 3: sd = 2.5819889 */
    CHECK_NEAR(a.ticks[TKS__AGG_STDDEV], 2.5819889, 1e-7);
    CHECK_NEAR(a.ticks[TKS__AGG_CV], 2.5819889 / 13, 1e-8);
    /* t(0.975, 3) = 3.1824463; the mean: 3.1824463 * 2.5819889 / 2 = 4.1085 */
    CHECK_NEAR(a.ticks_mean.value, 13, 1e-12);
    CHECK_NEAR(a.ticks_mean.lo, 13 - 4.10853, 1e-4);
    CHECK_NEAR(a.ticks_mean.hi, 13 + 4.10853, 1e-4);
    /* the next run: 3.1824463 * 2.5819889 * sqrt(1.25) = 9.18695 */
    CHECK_NEAR(a.ticks_next.lo, 13 - 9.18695, 1e-4);
    CHECK_NEAR(a.ticks_next.hi, 13 + 9.18695, 1e-4);
    /* core cycles over the three runs that have them: 20, 28, 32: mean 26.6667, squared
     * deviations 44.444 + 1.778 + 28.444 = 74.667 over 2: sd 6.1101; t(0.975, 2) = 4.3027 */
    CHECK_EQ_U64(a.cycle_runs, 3);
    CHECK_NEAR(a.cycles_mean.value, 80.0 / 3, 1e-12);
    CHECK_NEAR(a.cycles_mean.hi - a.cycles_mean.value, 4.302653 * 6.110101 / sqrt(3), 1e-4);
    CHECK_NEAR(a.cycles_next.hi - a.cycles_next.value, 4.302653 * 6.110101 * sqrt(4.0 / 3), 1e-4);
}

/* 40 runs alternating 99 and 101: sd = sqrt(40 / 39), t(0.975, 39) = 2.022691, not 1.96. */
static void test_many_runs(void)
{
    tks_result r[40];
    tks__bench_aggregate a;
    double sd = sqrt(40.0 / 39);
    memset(r, 0, sizeof r);
    for (int i = 0; i < 40; i++) {
        r[i].ok = 1;
        r[i].estimate.value = i % 2 ? 101 : 99;
        r[i].core_cycles.value = NAN;
    }
    tks__bench_aggregate_of(r, 40, NULL, &a);
    CHECK_NEAR(a.ticks_mean.hi - 100, 2.022691 * sd / sqrt(40), 1e-5);
    CHECK_NEAR(a.ticks_next.hi - 100, 2.022691 * sd * sqrt(1 + 1 / 40.0), 1e-5);
    CHECK(isnan(a.cycles_mean.lo) && a.cycle_runs == 0);
}

/* One run has no between-run interval. */
static void test_one_run(void)
{
    tks_result r;
    tks__bench_aggregate a;
    memset(&r, 0, sizeof r);
    r.ok = 1;
    r.estimate.value = 5;
    r.core_cycles.value = 7;
    tks__bench_aggregate_of(&r, 1, NULL, &a);
    CHECK_EQ_U64(a.runs, 1);
    CHECK_NEAR(a.ticks[TKS__AGG_MEAN], 5, 0);
    CHECK(isnan(a.ticks_mean.lo) && isnan(a.ticks_next.hi) && isnan(a.cycles_next.lo));
}

int main(void)
{
    test_four_runs();
    test_many_runs();
    test_one_run();
    CHECK_DONE();
}
