/* SPDX-License-Identifier: MIT */
/* test_stats_across.c: the paper's closing figures over ensembles (spurious minimums, total
 * variance, variance of variances and of minimums) and the ergodicity verdict built on them. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "tickscope.h"

#define M UINT64_MAX

static void set(tks_summary *e, uint64_t min, uint64_t maxdev, double var, double inlier)
{
    memset(e, 0, sizeof *e);
    e->min = min;
    e->max = min + maxdev;
    e->max_deviation = maxdev;
    e->variance = var;
    e->inlier_variance = inlier;
}

static void test_errors(void)
{
    tks_summary e[1];
    tks_across a;
    tks_ergodicity g;
    set(&e[0], 1, 0, 0, 0);
    CHECK(tks_across_ensembles(e, 0, &a) == TKS_EINVAL);
    CHECK(tks_across_ensembles(NULL, 1, &a) == TKS_EINVAL);
    CHECK(tks_across_ensembles(e, 1, NULL) == TKS_EINVAL);
    CHECK(tks_ergodicity_test(NULL, 1, &g) == TKS_EINVAL);
    CHECK(tks_across_ensembles(e, 1, &a) == TKS_OK);
    CHECK(tks_ergodicity_test(&a, 1, NULL) == TKS_EINVAL);
}

static void test_all_equal(void)
{
    /* Ten ensembles of 1000 identical samples, summarised for real: every figure is 0. */
    static uint64_t x[1000], scratch[1000];
    tks_summary e[10];
    tks_across a;
    for (int i = 0; i < 1000; i++)
        x[i] = 44;
    for (int j = 0; j < 10; j++)
        CHECK(tks_summarize(x, 1000, 1, scratch, &e[j]) == TKS_OK);
    CHECK(tks_across_ensembles(e, 10, &a) == TKS_OK);
    CHECK_EQ_U64(a.ensembles, 10);
    CHECK_EQ_U64(a.spurious_minimums, 0);
    CHECK_NEAR(a.total_variance, 0.0, 0);
    CHECK_EQ_U64(a.abs_max_deviation, 0);
    CHECK_NEAR(a.variance_of_variances, 0.0, 0);
    CHECK_NEAR(a.variance_of_minimums, 0.0, 0);
    CHECK_EQ_U64(a.min_of_minimums, 44);
    CHECK_EQ_U64(a.max_of_minimums, 44);
    CHECK_NEAR(a.mean_inlier_variance, 0.0, 0);
    CHECK_NEAR(a.variance_of_inlier_variances, 0.0, 0);
}

static void test_spurious(void)
{
    /* Minimums 44 44 48 46 46 50 40 40 52: drops at 48->46 and 50->40: 2 (equal neighbours do
     * not count). min 40, max 52. */
    uint64_t mins[] = { 44, 44, 48, 46, 46, 50, 40, 40, 52 };
    tks_summary e[9];
    tks_across a;
    for (int i = 0; i < 9; i++)
        set(&e[i], mins[i], 4, 3, 3);
    CHECK(tks_across_ensembles(e, 9, &a) == TKS_OK);
    CHECK_EQ_U64(a.spurious_minimums, 2);
    CHECK_EQ_U64(a.min_of_minimums, 40);
    CHECK_EQ_U64(a.max_of_minimums, 52);
    /* Minimums 5 0 3 1: 5->0 counts (a 0 minimum is a real reading), 0->3 does not, 3->1
     * counts: 2. Strictly rising minimums (the paper's growing loop): 0. */
    uint64_t mins2[] = { 5, 0, 3, 1 };
    for (int i = 0; i < 4; i++)
        set(&e[i], mins2[i], 0, 0, 0);
    CHECK(tks_across_ensembles(e, 4, &a) == TKS_OK);
    CHECK_EQ_U64(a.spurious_minimums, 2);
    CHECK_EQ_U64(a.min_of_minimums, 0);
    CHECK_EQ_U64(a.max_of_minimums, 5);
    for (int i = 0; i < 9; i++)
        set(&e[i], 44 + 2 * (uint64_t)i, 0, 0, 0);
    CHECK(tks_across_ensembles(e, 9, &a) == TKS_OK);
    CHECK_EQ_U64(a.spurious_minimums, 0);
}

static void test_figures(void)
{
    /* Variances {1,2,3,4}: mean 2.5, variance (2.25+0.25+0.25+2.25)/4 = 1.25.
     * Inlier variances {0,2,4,6}: mean 3, variance (9+1+1+9)/4 = 5.
     * Minimums {44,48,44,52}: mean 47, deviations -3,1,-3,5: (9+1+9+25)/4 = 11.
     * Max deviations {10,636,80,4}: largest 636. One drop (48->44): spurious 1. */
    tks_summary e[4];
    tks_across a;
    set(&e[0], 44, 10, 1, 0);
    set(&e[1], 48, 636, 2, 2);
    set(&e[2], 44, 80, 3, 4);
    set(&e[3], 52, 4, 4, 6);
    CHECK(tks_across_ensembles(e, 4, &a) == TKS_OK);
    CHECK_EQ_U64(a.ensembles, 4);
    CHECK_EQ_U64(a.spurious_minimums, 1);
    CHECK_NEAR(a.total_variance, 2.5, 0);
    CHECK_EQ_U64(a.abs_max_deviation, 636);
    CHECK_NEAR(a.variance_of_variances, 1.25, 1e-15);
    CHECK_NEAR(a.variance_of_minimums, 11.0, 0);
    CHECK_NEAR(a.mean_inlier_variance, 3.0, 0);
    CHECK_NEAR(a.variance_of_inlier_variances, 5.0, 1e-15);
}

static void test_minimums_near_2_64(void)
{
    /* Minimums {M, M-2}: variance of minimums exactly 1 (a double sees two equal values). */
    tks_summary e[2];
    tks_across a;
    set(&e[0], M, 0, 0, 0);
    set(&e[1], M - 2, 0, 0, 0);
    CHECK(tks_across_ensembles(e, 2, &a) == TKS_OK);
    CHECK_NEAR(a.variance_of_minimums, 1.0, 0);
    CHECK_EQ_U64(a.spurious_minimums, 1);
    CHECK_EQ_U64(a.max_of_minimums - a.min_of_minimums, 2);
}

static tks_across across_with(uint64_t minlo, uint64_t minhi, double mean_iv, double var_iv)
{
    tks_across a;
    memset(&a, 0, sizeof a);
    a.ensembles = 10;
    a.min_of_minimums = minlo;
    a.max_of_minimums = minhi;
    a.mean_inlier_variance = mean_iv;
    a.variance_of_inlier_variances = var_iv;
    return a;
}

static void test_ergodicity(void)
{
    tks_ergodicity g;
    tks_across a;
    /* Minimums 44..70 with quantum 26: spread 26 <= 26, stable. Inlier variances with
     * variance 100 (sd 10) and mean 30: limit max(26^2, 15) = 676, stable. Ergodic. */
    a = across_with(44, 70, 30, 100);
    CHECK(tks_ergodicity_test(&a, 26, &g) == TKS_OK);
    CHECK_NEAR(g.minimum_spread, 26.0, 0);
    CHECK(g.minimum_stable == 1);
    CHECK_NEAR(g.variance_sd, 10.0, 0);
    CHECK_NEAR(g.variance_limit, 676.0, 0);
    CHECK(g.variance_stable == 1);
    CHECK(g.ergodic == 1);
    /* One tick more of spread: 27 > 26, not ergodic though the variance is stable. */
    a = across_with(44, 71, 30, 100);
    CHECK(tks_ergodicity_test(&a, 26, &g) == TKS_OK);
    CHECK(g.minimum_stable == 0);
    CHECK(g.variance_stable == 1);
    CHECK(g.ergodic == 0);
    /* Quantum 1: minimums 44..45 stable (spread 1). sd 10 against max(1, 0.5*30) = 15:
     * stable. With mean 10 the limit is max(1, 5) = 5 < 10: unstable. */
    a = across_with(44, 45, 30, 100);
    CHECK(tks_ergodicity_test(&a, 1, &g) == TKS_OK);
    CHECK_NEAR(g.variance_limit, 15.0, 0);
    CHECK(g.ergodic == 1);
    a = across_with(44, 45, 10, 100);
    CHECK(tks_ergodicity_test(&a, 1, &g) == TKS_OK);
    CHECK_NEAR(g.variance_limit, 5.0, 0);
    CHECK(g.minimum_stable == 1);
    CHECK(g.variance_stable == 0);
    CHECK(g.ergodic == 0);
    /* Boundary: sd exactly at the limit is stable (sd 5 = limit 5). */
    a = across_with(44, 44, 10, 25);
    CHECK(tks_ergodicity_test(&a, 1, &g) == TKS_OK);
    CHECK(g.variance_stable == 1);
    /* Quantum 0 is taken as 1: spread 2 is unstable, limit max(1, 0) = 1 with sd 0: stable. */
    a = across_with(44, 46, 0, 0);
    CHECK(tks_ergodicity_test(&a, 0, &g) == TKS_OK);
    CHECK(g.minimum_stable == 0);
    CHECK_NEAR(g.variance_limit, 1.0, 0);
    CHECK(g.variance_stable == 1);
    /* Like the paper's first (CPUID) method: minimums wandering over 452..480 with a 1-tick
     * clock are not stable, whatever the variances do. */
    a = across_with(452, 480, 48, 2306);
    CHECK(tks_ergodicity_test(&a, 1, &g) == TKS_OK);
    CHECK(g.ergodic == 0);
}

static void test_pipeline(void)
{
    /* Ensembles that all look alike, with a 26-tick timer: samples 52 or 78, the 78s shifting
     * a little between ensembles. Summaries -> across -> ergodicity says ergodic. */
    static uint64_t x[200], scratch[200];
    tks_summary e[5];
    tks_across a;
    tks_ergodicity g;
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 200; i++)
            x[i] = i % (10 + j) == 0 ? 78 : 52;
        CHECK(tks_summarize(x, 200, 26, scratch, &e[j]) == TKS_OK);
    }
    CHECK(tks_across_ensembles(e, 5, &a) == TKS_OK);
    CHECK_EQ_U64(a.spurious_minimums, 0);
    CHECK_EQ_U64(a.abs_max_deviation, 26);
    CHECK(tks_ergodicity_test(&a, 26, &g) == TKS_OK);
    CHECK(g.ergodic == 1);
}

int main(void)
{
    test_errors();
    test_all_equal();
    test_spurious();
    test_figures();
    test_minimums_near_2_64();
    test_ergodicity();
    test_pipeline();
    CHECK_DONE();
}
