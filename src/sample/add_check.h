/* SPDX-License-Identifier: MIT */
/* add_check.h: windows for the check that the reference chain runs one add a core cycle: three
 * dependent chains (the reference's adds, a multiply, a floating-point add), each long and short,
 * interleaved through one method. stats/add_check_fit.h reads them. */
#ifndef TKS_SAMPLE_ADD_CHECK_H
#define TKS_SAMPLE_ADD_CHECK_H

#include "tickscope.h"
#include "stats/add_check_fit.h"

#define TKS_CHECK_LONG 400  /* instructions in a long window (no suffix: it is a .rept count) */
#define TKS_CHECK_SHORT 100 /* in a short one: the difference, 300, cancels the fences */
#define TKS_CHECK_WINDOWS 6u /* per round: add long, add short, mul long, mul short, fp long, fp short */
/* Rounds a take: about 2 ms on a 3.5 GHz core (a benchmark takes two, asm's child and the
 * platform's core clock one). */
#define TKS_ADD_CHECK_ROUNDS 1500u

/* rounds rounds into out[w * rounds + i] (w: the window's kind in the order above, i: the
 * round), after one round that warms the caches and is not kept; a window that went backwards
 * reads UINT64_MAX. 0, or TKS_EINVAL (no such method in
 * this build, or rounds 0). */
int tks__add_check_sample(enum tks_method m, uint32_t rounds, uint64_t *out);

/* The check's verdict as diagnostics: core.add_chain_slow where the adds were found slow (the
 * rate then comes from the other two chains), core.add_chain_unchecked where those two disagree;
 * nothing where it held or could not be read. */
void tks__add_check_diags(tks_diags *d, const tks__add_check *c);
/* What a result keeps of the check (tickscope/stats.h's tks_add_check). */
void tks__add_check_public(const tks__add_check *c, tks_add_check *out);

#endif
