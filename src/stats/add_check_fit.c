/* SPDX-License-Identifier: MIT */
/* add_check_fit.c: the add check's figures. Each kind of window is averaged over the rounds it
 * was not disturbed in (a window over 1.2 times its kind's median is an interrupt or a
 * preemption), long less short over the instructions between them; the standard errors come
 * from the spread of the same figures over eight consecutive blocks of rounds. */
#include "stats/add_check_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sort.h"

#define BLOCKS 8
#define KINDS 6

static double kind_median(const uint64_t *x, size_t n, uint64_t *tmp)
{
    memcpy(tmp, x, n * sizeof *x);
    tks__sort_u64(tmp, n);
    return n % 2 ? (double)tmp[n / 2] : 0.5 * ((double)tmp[n / 2 - 1] + (double)tmp[n / 2]);
}

/* The mean of x[from..to) at or under limit; NaN when none. */
static double kept_mean(const uint64_t *x, size_t from, size_t to, double limit)
{
    double s = 0;
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        if ((double)x[i] <= limit) {
            s += (double)x[i];
            n++;
        }
    return n ? s / (double)n : NAN;
}

static void mean_se(const double *v, int n, double *mean, double *se)
{
    double s = 0, ss = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    *mean = s / n;
    for (int i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *se = n > 1 ? sqrt(ss / (n - 1) / n) : NAN;
}

void tks__add_check_judge(tks__add_check *c)
{
    double cm, cf, sm, sf, tol;
    c->verdict = TKS_ADD_CHECK_NONE;
    c->add_cycles = 1;
    c->add_se = 0;
    c->mul_cycles = isfinite(c->mul_adds) ? (int)lround(c->mul_adds) : 0;
    c->fp_cycles = isfinite(c->fp_adds) ? (int)lround(c->fp_adds) : 0;
    if (c->mul_cycles < 2 || c->fp_cycles < 2 || !isfinite(c->mul_se) || !isfinite(c->fp_se) ||
        fabs(c->mul_adds - c->mul_cycles) > TKS_ADD_CHECK_WHOLE ||
        fabs(c->fp_adds - c->fp_cycles) > TKS_ADD_CHECK_WHOLE)
        return;
    /* Each chain's figure of the cycles one add took, and its standard error. */
    cm = c->mul_cycles / c->mul_adds;
    cf = c->fp_cycles / c->fp_adds;
    sm = cm * c->mul_se / c->mul_adds;
    sf = cf * c->fp_se / c->fp_adds;
    tol = fmax(TKS_ADD_CHECK_TOLERANCE, 3 * sqrt(sm * sm + sf * sf));
    if (fabs(cm - cf) > tol) {
        /* They disagree. A chain that reads long is that chain's (adds cannot run fast): if
         * the other does not say the adds ran slow by more than TKS_ADD_CHECK_QUIET (beside a
         * pointer chase over 64 MiB, multiplies 3.006 adds and FP adds 1.998), the adds held at
         * one cycle, with what the higher one saw above one and its error as their error. If
         * both say slow beyond it, the adds were slow by somewhere between the two (a loaded
         * Zen 5 guest: 1.37% and 1.85%), half their difference in the error. Else nothing can
         * be said (a warning). */
        double hi = fmax(cm, cf), s = cm > cf ? sm : sf, excess = fmax(hi - 1, 0);
        double lo = fmin(cm, cf), s_lo = cm > cf ? sf : sm;
        if (excess <= fmax(TKS_ADD_CHECK_QUIET, 3 * s)) {
            c->verdict = TKS_ADD_CHECK_HOLDS;
            c->add_se = hypot(excess, s);
            return;
        }
        if (lo - 1 <= fmax(TKS_ADD_CHECK_QUIET, 3 * s_lo)) {
            c->verdict = TKS_ADD_CHECK_DISAGREE;
            return;
        }
        c->add_cycles = (cm + cf) / 2;
        c->add_se = hypot(fabs(cm - cf) / 2, hypot(sm, sf) / 2);
    } else if (sm > 0 && sf > 0) { /* weighted by their precision */
        double wm = 1 / (sm * sm), wf = 1 / (sf * sf);
        c->add_cycles = (wm * cm + wf * cf) / (wm + wf);
        c->add_se = sqrt(1 / (wm + wf));
    } else { /* a figure with no spread at all: the plain mean */
        c->add_cycles = (cm + cf) / 2;
        c->add_se = hypot(sm, sf) / 2;
    }
    /* A dependent add cannot take less than a cycle: a figure under one is the other chains
     * slowed, or noise, and the adds are taken as one cycle. */
    if (c->add_cycles - 1 <= fmax(TKS_ADD_CHECK_TOLERANCE, 3 * c->add_se)) {
        /* Taken as one cycle; what the check saw above one and its own error stay in add_se,
         * so that an interval in core cycles holds adds up to that much slow. */
        c->verdict = TKS_ADD_CHECK_HOLDS;
        c->add_se = hypot(c->add_se, fmax(c->add_cycles - 1, 0));
        c->add_cycles = 1;
        return;
    }
    if (fabs(c->add_cycles - 1) > TKS_ADD_CHECK_MAX) {
        c->verdict = TKS_ADD_CHECK_DISAGREE;
        c->add_cycles = 1;
        c->add_se = 0;
        return;
    }
    c->verdict = TKS_ADD_CHECK_SLOW;
}

int tks__add_check_fit(const uint64_t *w, size_t rounds, unsigned nlong, unsigned nshort,
                       tks__add_check *c)
{
    double limit[KINDS], per[3][BLOCKS], mul[BLOCKS], fp[BLOCKS], se;
    uint64_t *tmp;
    unsigned span = nlong - nshort;
    memset(c, 0, sizeof *c);
    c->add_cycles = 1;
    c->mul_adds = c->fp_adds = c->mul_se = c->fp_se = c->add_ticks = NAN;
    if (!w || rounds < 4 * BLOCKS || nlong <= nshort || !(tmp = malloc(rounds * sizeof *tmp)))
        return -1;
    for (int k = 0; k < KINDS; k++)
        limit[k] = 1.2 * kind_median(w + (size_t)k * rounds, rounds, tmp);
    free(tmp);
    for (int b = 0; b < BLOCKS; b++) {
        size_t from = rounds * (size_t)b / BLOCKS, to = rounds * (size_t)(b + 1) / BLOCKS;
        for (int chain = 0; chain < 3; chain++) {
            const uint64_t *lo = w + (size_t)(2 * chain) * rounds;
            per[chain][b] = (kept_mean(lo, from, to, limit[2 * chain]) -
                             kept_mean(lo + rounds, from, to, limit[2 * chain + 1])) / span;
        }
        mul[b] = per[1][b] / per[0][b];
        fp[b] = per[2][b] / per[0][b];
    }
    mean_se(per[0], BLOCKS, &c->add_ticks, &se);
    mean_se(mul, BLOCKS, &c->mul_adds, &c->mul_se);
    mean_se(fp, BLOCKS, &c->fp_adds, &c->fp_se);
    if (!(c->add_ticks > 0) || !isfinite(c->mul_adds) || !isfinite(c->fp_adds)) {
        c->mul_adds = c->fp_adds = NAN;
        tks__add_check_judge(c);
        return -1;
    }
    tks__add_check_judge(c);
    return 0;
}
