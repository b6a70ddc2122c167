/* SPDX-License-Identifier: MIT */
/* test_stats_add_check.c: the add check (stats/add_check_fit.c) on synthetic windows read through
 * a timer with a step: chains whose instructions take whole numbers of cycles against adds of one
 * cycle hold; adds that take 1.02 cycles, with a multiply of 3 and an FP add of 2, are found
 * (both chains read 2% short of their whole numbers) and the cycles an add took are given;
 * chains that contradict each other, figures far from any whole number, interrupts in a few
 * windows and too few rounds are each handled as documented; and the verdict from figures alone
 * with hand-worked answers. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "sample/add_check.h"
#include "stats/add_check_fit.h"
#include "check.h"

#define ROUNDS 3000

static uint64_t w[TKS_CHECK_WINDOWS * ROUNDS];

/* What a timer of step q reads for a duration d begun at phase u (0 <= u < q) of its step. */
static uint64_t reading(double d, double u, uint64_t q)
{
    return (uint64_t)(floor((u + d) / (double)q) - floor(u / (double)q)) * q;
}

/* Windows of the three chains: an add of add_cycles cycles, a multiply of mul and an FP add of
 * fp cycles, fences of 40 cycles, a core at 1.7 cycles a tick read with a 21-tick step; every
 * 97th window of each kind an interrupt of 5000 ticks. */
static void windows(double add_cycles, double mul, double fp)
{
    const double cpt = 1.7, fence = 40, per[3] = {add_cycles, mul, fp};
    for (size_t i = 0; i < ROUNDS; i++) {
        double u = ((double)((i * 7919) % ROUNDS) + 0.5) / ROUNDS * 21.0;
        for (int chain = 0; chain < 3; chain++) {
            double lo = (fence + TKS_CHECK_LONG * per[chain]) / cpt;
            double sh = (fence + TKS_CHECK_SHORT * per[chain]) / cpt;
            w[(size_t)(2 * chain) * ROUNDS + i] = reading(lo, u, 21) + (i % 97 == 5 ? 5000 : 0);
            w[(size_t)(2 * chain + 1) * ROUNDS + i] = reading(sh, u, 21);
        }
    }
}

static void fits(void)
{
    tks__add_check c;
    windows(1.0, 3.0, 2.0); /* as published: the adds hold */
    CHECK(tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == 0);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS);
    CHECK(c.add_cycles == 1.0);
    CHECK(c.mul_cycles == 3 && c.fp_cycles == 2);
    CHECK_NEAR(c.mul_adds, 3.0, 0.005);
    CHECK_NEAR(c.add_ticks, 1.0 / 1.7, 0.002);

    windows(1.02, 3.0, 2.0); /* the adds lose 2%: both chains read 2% short */
    CHECK(tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == 0);
    CHECK(c.verdict == TKS_ADD_CHECK_SLOW);
    CHECK_NEAR(c.add_cycles, 1.02, 0.002);
    CHECK_NEAR(c.mul_adds, 3.0 / 1.02, 0.005);
    CHECK(c.add_se > 0 && c.add_se < 0.002);

    windows(1.0, 2.94, 2.0); /* only the multiply reads short: the chains disagree on slow adds */
    CHECK(tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == 0);
    CHECK(c.verdict == TKS_ADD_CHECK_DISAGREE);
    CHECK(c.add_cycles == 1.0);

    windows(1.0, 3.06, 2.0); /* only the multiply reads long: adds cannot run fast, so it is the
                              * multiply's; the FP adds say one cycle, and it holds */
    CHECK(tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == 0);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS);
    CHECK(c.add_cycles == 1.0 && c.add_se < 0.002);

    windows(1.0, 3.5, 2.0); /* halfway between whole numbers: not read */
    tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c);
    CHECK(c.verdict == TKS_ADD_CHECK_NONE);
    CHECK(c.add_cycles == 1.0);

    windows(1.0, 1.0, 2.0); /* a one-cycle multiply says nothing about one-cycle adds */
    tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c);
    CHECK(c.verdict == TKS_ADD_CHECK_NONE);

    CHECK(tks__add_check_fit(w, 10, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == -1); /* too few */
    CHECK(c.verdict == TKS_ADD_CHECK_NONE && c.add_cycles == 1.0);
    CHECK(tks__add_check_fit(NULL, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == -1);
    memset(w, 0, sizeof w); /* a timer that reads nothing (an emulator): no figure, no verdict */
    CHECK(tks__add_check_fit(w, ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c) == -1);
    CHECK(c.verdict == TKS_ADD_CHECK_NONE && c.add_cycles == 1.0);
}

static void judged(void)
{
    /* 2.94 and 1.96 adds: 3/2.94 = 2/1.96 = 1.0204 cycles an add, far beyond the tolerance. */
    tks__add_check c = {.mul_adds = 2.94, .mul_se = 0.001, .fp_adds = 1.96, .fp_se = 0.001};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_SLOW);
    CHECK_NEAR(c.add_cycles, 3.0 / 2.94, 1e-4);
    /* within 0.1% of whole numbers: holds, and the adds are taken as one cycle exactly; what
     * was seen above one (1.000693, weighted) and its error (0.000278) stay as its error */
    c = (tks__add_check){.mul_adds = 2.998, .mul_se = 0.001, .fp_adds = 1.9985, .fp_se = 0.001};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS && c.add_cycles == 1.0);
    CHECK_NEAR(c.add_se, 0.000746, 0.000002);
    /* 1% off, but with standard errors of 0.02 adds: 3 standard errors cover it, it holds */
    c = (tks__add_check){.mul_adds = 2.97, .mul_se = 0.02, .fp_adds = 1.98, .fp_se = 0.02};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS);
    /* 2% against 0%: they disagree */
    c = (tks__add_check){.mul_adds = 2.94, .mul_se = 0.001, .fp_adds = 2.0, .fp_se = 0.001};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_DISAGREE && c.add_cycles == 1.0);
    /* they disagree, but neither says the adds ran slow beyond 0.1% (multiplies 0.2% long, FP
     * adds 0.025% short, seen beside a 64 MiB chase): it holds, the disagreement in its error */
    c = (tks__add_check){.mul_adds = 3.006, .mul_se = 0.0003, .fp_adds = 1.9995, .fp_se = 0.0003};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS && c.add_cycles == 1.0);
    CHECK_NEAR(c.add_se, 0.000292, 0.000002); /* the FP add's 0.025% above one and its error */
    /* the same with the FP adds 0.2% short: quiet, 0.2% in the error */
    c = (tks__add_check){.mul_adds = 3.006, .mul_se = 0.0003, .fp_adds = 1.996, .fp_se = 0.0003};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS && c.add_se > 0.002 && c.add_se < 0.0021);
    /* and 0.6% short: they say slow adds, the multiply does not: a warning */
    c = (tks__add_check){.mul_adds = 3.006, .mul_se = 0.0003, .fp_adds = 1.988, .fp_se = 0.0003};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_DISAGREE);
    /* both say slow beyond 0.5%, by 1.37% and 1.85% (a loaded Zen 5 guest): slow by between
     * the two, half their difference in the error (it was a warning, and one add a cycle made
     * a chain of 40 imuls read 118.2) */
    c = (tks__add_check){.mul_adds = 2.9595, .mul_se = 0.0003, .fp_adds = 1.9636, .fp_se = 0.0003};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_SLOW);
    CHECK_NEAR(c.add_cycles, (3 / 2.9595 + 2 / 1.9636) / 2, 1e-9);
    CHECK(c.add_se > (2 / 1.9636 - 3 / 2.9595) / 2 && c.add_se < 0.0025);
    /* one says 0.4% slow (within the quiet margin), the other 1.9%: still a warning */
    c = (tks__add_check){.mul_adds = 2.988, .mul_se = 0.0003, .fp_adds = 1.9636, .fp_se = 0.0003};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_DISAGREE && c.add_cycles == 1.0);
    /* no spread at all (a figure given exactly) still decides */
    c = (tks__add_check){.mul_adds = 3.0 / 1.04, .mul_se = 0, .fp_adds = 4.0 / 1.04, .fp_se = 0};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_SLOW);
    CHECK_NEAR(c.add_cycles, 1.04, 1e-9);
    /* both chains read 1% long: adds cannot be faster than a cycle, so they hold at one */
    c = (tks__add_check){.mul_adds = 3.03, .mul_se = 0.001, .fp_adds = 2.02, .fp_se = 0.001};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_HOLDS && c.add_cycles == 1.0);
    CHECK_NEAR(c.add_se, 0.000272, 0.000002); /* below one: its error alone */
    /* both chains agree the adds took 8% more: beyond what the check can tell, not corrected */
    c = (tks__add_check){.mul_adds = 3.0 / 1.08, .mul_se = 0.001, .fp_adds = 2.0 / 1.08,
                         .fp_se = 0.001};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_DISAGREE && c.add_cycles == 1.0);
    c = (tks__add_check){.mul_adds = NAN, .mul_se = 0.001, .fp_adds = 2.0, .fp_se = 0.001};
    tks__add_check_judge(&c);
    CHECK(c.verdict == TKS_ADD_CHECK_NONE);
}

int main(void)
{
    fits();
    judged();
    CHECK_DONE();
}
