/* SPDX-License-Identifier: MIT */
/* test_platform_core_check.c: the add check applied to the platform's core clock, on synthetic
 * checks: slow adds make the clock that much faster and its interval holds the check's error,
 * a check that holds only widens the interval, one that failed or was not read changes nothing,
 * and what the clock keeps of the check is the result's public form. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "platform/core_check.h"

static tks_core_clock clock_of(void)
{
    tks_core_clock k;
    memset(&k, 0, sizeof k);
    k.cycles_per_tick = 1.7, k.lo = 1.69, k.hi = 1.71, k.rounds = 15;
    return k;
}

static tks__add_check check_of(enum tks_add_check_verdict v, double add, double se)
{
    tks__add_check c;
    memset(&c, 0, sizeof c);
    c.verdict = v, c.add_cycles = add, c.add_se = se;
    c.mul_adds = 3 / add, c.fp_adds = 2 / add, c.mul_cycles = 3, c.fp_cycles = 2;
    return c;
}

/* k still the clock_of() figures, compared as doubles (an x87 build evaluates the literal 1.7 to
 * a long double, which the double 1.7 is not). */
static void same_clock(const tks_core_clock *k)
{
    CHECK_NEAR(k->cycles_per_tick, 1.7, 0);
    CHECK_NEAR(k->lo, 1.69, 0);
    CHECK_NEAR(k->hi, 1.71, 0);
}

static int near(double a, double b)
{
    return fabs(a - b) < 1e-12;
}

int main(void)
{
    tks_core_clock k = clock_of();
    tks__add_check c = check_of(TKS_ADD_CHECK_SLOW, 1.02, 0.001);
    double rel = 1.96 * 0.001 / 1.02;

    tks__core_clock_apply_check(&k, &c); /* slow by 2%: the clock is 2% faster */
    CHECK(near(k.cycles_per_tick, 1.7 * 1.02));
    CHECK(near(k.lo, 1.69 * 1.02 * (1 - rel)) && near(k.hi, 1.71 * 1.02 * (1 + rel)));
    CHECK(k.add_check.verdict == TKS_ADD_CHECK_SLOW && near(k.add_check.add_cycles, 1.02));
    CHECK(near(k.add_check.mul_adds, 3 / 1.02) && near(k.add_check.add_cycles_se, 0.001));

    k = clock_of(), c = check_of(TKS_ADD_CHECK_HOLDS, 1, 0.0005);
    tks__core_clock_apply_check(&k, &c); /* holds: the figure stays, the interval widens */
    CHECK(near(k.cycles_per_tick, 1.7));
    CHECK(near(k.lo, 1.69 * (1 - 1.96 * 0.0005)) && near(k.hi, 1.71 * (1 + 1.96 * 0.0005)));
    CHECK(k.add_check.verdict == TKS_ADD_CHECK_HOLDS && k.add_check.add_cycles == 1);

    k = clock_of(), c = check_of(TKS_ADD_CHECK_DISAGREE, 1.04, 0.01);
    tks__core_clock_apply_check(&k, &c); /* disagree: nothing applied, one add a cycle kept */
    same_clock(&k);
    CHECK(k.add_check.verdict == TKS_ADD_CHECK_DISAGREE && k.add_check.add_cycles == 1);

    k = clock_of(), memset(&c, 0, sizeof c);
    tks__core_clock_apply_check(&k, &c); /* never read: no figures, nothing applied */
    same_clock(&k);
    CHECK(k.add_check.verdict == TKS_ADD_CHECK_NONE && isnan(k.add_check.mul_adds));
    CHECK_DONE();
}
