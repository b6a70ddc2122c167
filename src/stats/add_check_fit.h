/* SPDX-License-Identifier: MIT */
/* add_check_fit.h: does the reference chain run one add a core cycle? Every core-cycle figure
 * rests on it. A chain of dependent multiplies and one of dependent floating-point adds are timed
 * beside it (sample/add_check.h); an instruction's latency is a whole number of cycles, so each
 * of the two, counted in adds, should read a whole number. When both read the same fraction off
 * (a Zen 5 guest, at times: imul 2.94 adds, addsd 1.96 adds, together, for minutes), it is the
 * add chain that runs slow, one add then costs whole/read cycles, and the core clock is that
 * much faster than the adds say. */
#ifndef TKS_STATS_ADD_CHECK_FIT_H
#define TKS_STATS_ADD_CHECK_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/stats.h" /* the verdicts, and what a result keeps of the check */

typedef struct tks__add_check {
    enum tks_add_check_verdict verdict;
    double add_ticks;          /* ticks per add */
    double mul_adds, mul_se;   /* the multiply in adds (its ticks / an add's), standard error */
    double fp_adds, fp_se;     /* the floating-point add, likewise */
    int mul_cycles, fp_cycles; /* the whole numbers nearest */
    double add_cycles, add_se; /* core cycles an add took (1 unless SLOW), standard error; under
                                * HOLDS, what one cycle may be off: the check's error and what
                                * it saw above one, in quadrature; 0 under NONE and DISAGREE */
} tks__add_check;

/* The core cycles one add took, by the check: add_cycles when it found them slow, else one
 * (also for a check never taken, whose fields are all zero). */
static inline double tks__add_check_cycles(const tks__add_check *c)
{
    return c->verdict == TKS_ADD_CHECK_SLOW ? c->add_cycles : 1;
}

/* The tolerance: one add a cycle holds within this fraction, or 3 standard errors if wider. */
#define TKS_ADD_CHECK_TOLERANCE 0.001
/* When the chains disagree, one saying the adds ran slow by at most this much is not warned of:
 * its figure joins the error instead (the check's own chains move about 0.2% on a loaded guest,
 * where the slow adds this check is for lose 1-3.5%). */
#define TKS_ADD_CHECK_QUIET 0.005
/* Adds found further than this from one cycle are not corrected (the verdict is DISAGREE):
 * what was seen is 1-3.5%, and a check disturbed on a loaded machine can read more. */
#define TKS_ADD_CHECK_MAX 0.05
/* A chain further than this from a whole number of adds is not read as one. */
#define TKS_ADD_CHECK_WHOLE 0.35

/* From rounds of TKS_CHECK_WINDOWS windows laid out as tks__add_check_sample writes them
 * (w[kind * rounds + i]), chains of nlong and nshort instructions. 0, or -1 (nothing to read:
 * c->verdict is NONE and add_cycles 1). */
int tks__add_check_fit(const uint64_t *w, size_t rounds, unsigned nlong, unsigned nshort,
                       tks__add_check *c);

/* The verdict from the two chains' figures alone (for tests): sets verdict, the whole numbers
 * and add_cycles/add_se from mul_adds, mul_se, fp_adds and fp_se. */
void tks__add_check_judge(tks__add_check *c);

#endif
