/* SPDX-License-Identifier: MIT */
/* core_check.h: the add check (sample/add_check.h) on the platform's core clock: its chain is
 * dependent adds too, so another thread on the core slows it as it slows a benchmark's reference,
 * and every command that converts ticks with this clock (info, resolution, regions) would read
 * that much slow without it. */
#ifndef TKS_PLATFORM_CORE_CHECK_H
#define TKS_PLATFORM_CORE_CHECK_H

#include "stats/add_check_fit.h"
#include "tickscope.h"

/* Takes the check through method m into k->add_check and applies it (below). 0, or TKS_ENOMEM;
 * a check that cannot be taken leaves the verdict NONE and the clock as it was. */
int tks__core_clock_check(tks_core_clock *k, enum tks_method m);

/* The check's figure applied to the chain's: under SLOW the clock runs add_cycles times faster
 * than the adds say, so cycles_per_tick, lo and hi are multiplied by it; under SLOW and HOLDS the
 * interval also takes the check's 95% error (under HOLDS, how far from one cycle it could not
 * tell), as a benchmark's and asm's reference do. NONE and DISAGREE change no figure. */
void tks__core_clock_apply_check(tks_core_clock *k, const tks__add_check *c);

#endif
