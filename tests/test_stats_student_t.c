/* SPDX-License-Identifier: MIT */
/* test_stats_student_t.c: Student's t quantiles for every number of degrees of freedom against
 * published tables (three decimals, as printed in the usual t tables), including the degrees of
 * freedom past 30 where a table lookup used to jump to the normal 1.96, and the regularised
 * incomplete beta function it rests on against closed forms. */
#include <math.h>

#include "stats/student_t.h"

#include "check.h"

/* The two-sided 95% column (t at 97.5%) of a standard t table. */
static void test_t975_table(void)
{
    static const struct { size_t dof; double t; } table[] = {
        {1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},   {5, 2.571},   {10, 2.228},
        {20, 2.086}, {29, 2.045}, {30, 2.042}, {31, 2.040},  {40, 2.021},  {60, 2.000},
        {80, 1.990}, {100, 1.984}, {120, 1.980}, {1000, 1.962}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        CHECK_NEAR(tks__t975(table[i].dof), table[i].t, 5e-4);
    CHECK(isinf(tks__t975(0)));
    /* past 30 degrees of freedom the quantile still falls towards the normal's, never below it */
    CHECK(tks__t975(31) > tks__t975(60) && tks__t975(60) > tks__t975(120) &&
          tks__t975(120) > tks__t975(1000) && tks__t975(1000) > 1.959964);
    CHECK_NEAR(tks__t975(1000000), 1.959964, 1e-5);
}

/* Other columns: one-sided 95% and 99.5%, and the closed forms of one and two degrees of
 * freedom (Cauchy: tan(pi (p - 1/2)); two: (2p - 1) sqrt(2 / (4 p (1 - p)))). */
static void test_quantiles(void)
{
    CHECK_NEAR(tks__t_quantile(0.95, 10), 1.812, 5e-4);
    CHECK_NEAR(tks__t_quantile(0.995, 10), 3.169, 5e-4);
    CHECK_NEAR(tks__t_quantile(0.995, 60), 2.660, 5e-4);
    CHECK_NEAR(tks__t_quantile(0.9, 120), 1.289, 5e-4);
    CHECK_NEAR(tks__t_quantile(0.99, 1), tan(M_PI * 0.49), 1e-9 * tan(M_PI * 0.49));
    CHECK_NEAR(tks__t_quantile(0.9, 2), 0.8 * sqrt(2 / (4 * 0.9 * 0.1)), 1e-12);
    CHECK_NEAR(tks__t_quantile(0.025, 31), -tks__t975(31), 1e-12);
    CHECK_NEAR(tks__t_quantile(0.5, 7), 0, 0);
    CHECK(isnan(tks__t_quantile(0, 5)) && isnan(tks__t_quantile(1, 5)) &&
          isnan(tks__t_quantile(0.9, 0)));
    /* the quantile inverts the distribution function */
    CHECK_NEAR(tks__t_cdf(tks__t_quantile(0.975, 45), 45), 0.975, 1e-13);
    CHECK_NEAR(tks__t_cdf(0, 3), 0.5, 1e-15);
    CHECK_NEAR(tks__t_cdf(1, 1), 0.75, 1e-14); /* Cauchy: 1/2 + atan(1) / pi */
}

/* I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b; I_x(a, a) at x = 1/2 is 1/2. */
static void test_inc_beta(void)
{
    CHECK_NEAR(tks__inc_beta(0.3, 2.5, 1), pow(0.3, 2.5), 1e-14);
    CHECK_NEAR(tks__inc_beta(0.3, 1, 4.5), 1 - pow(0.7, 4.5), 1e-14);
    CHECK_NEAR(tks__inc_beta(0.5, 7.5, 7.5), 0.5, 1e-14);
    CHECK_NEAR(tks__inc_beta(0.9, 500, 0.5) + tks__inc_beta(0.1, 0.5, 500), 1, 1e-13);
    CHECK(tks__inc_beta(0, 2, 3) == 0 && tks__inc_beta(1, 2, 3) == 1);
    CHECK(isnan(tks__inc_beta(-0.1, 2, 3)) && isnan(tks__inc_beta(0.5, 0, 3)));
}

int main(void)
{
    test_t975_table();
    test_quantiles();
    test_inc_beta();
    CHECK_DONE();
}
