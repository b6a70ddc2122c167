/* SPDX-License-Identifier: MIT */
/* asm_fit.c: what `tickscope asm` makes of a snippet's windows (asm_internal.h): the cost per
 * copy fitted over the unrolls, the core cycles against the interleaved add-chain reference, and
 * whether the unrolls lie on a line. The live run and a replay (asm_record.c) call the same
 * functions. */
#include "asm/asm_internal.h"

#include <math.h>
#include <stdio.h>

#include "base/diag.h"
#include "sample/add_check.h"
#include "stats/unroll_fit.h"

#define BLOCKS 8

static int fail(tks_asm_result *r, int rc, const char *msg)
{
    if (!r->error[0])
        snprintf(r->error, sizeof r->error, "%s", msg);
    return rc;
}

/* The cost per copy from the windows: the snippet's fit, and the reference's for core cycles. */
int tks__asm_fit(tks_asm_result *r, const tks__asm_windows *w, uint64_t quantum)
{
    tks__unroll_fit snip, ref;
    int rc;
    r->windows = (uint64_t)w->rounds * TKS_ASM_UNROLLS;
    for (int j = 0; j < TKS_ASM_UNROLLS; j++)
        r->loops[j] = w->loops;
    rc = tks__unroll_estimate(w->snip, w->rounds, r->unroll, TKS_ASM_UNROLLS, w->loops, quantum,
                              BLOCKS, &snip);
    if (rc)
        return fail(r, rc, "too few usable windows to fit (the machine is too busy, or raise "
                           "--budget)");
    r->fit = snip.fit;
    r->blocks = BLOCKS;
    r->kept = snip.kept;
    r->discarded = snip.discarded;
    r->ticks_per_copy.value = snip.value;
    r->ticks_per_copy.lo = snip.lo;
    r->ticks_per_copy.hi = snip.hi;
    r->core_cycles.value = r->core_cycles.lo = r->core_cycles.hi = NAN;
    r->core_cycles_source = "none";
    if (tks__unroll_estimate(w->ref, w->rounds, r->unroll, TKS_ASM_UNROLLS, w->ref_loops, quantum,
                             BLOCKS, &ref) == 0 && ref.value > 0 &&
        tks__unroll_ratio(&snip, &ref, &r->core_cycles.value, &r->core_cycles.lo,
                          &r->core_cycles.hi) == 0) {
        /* The reference's adds at the cycles the add check found they took (one, unless it
         * found them slow), that check's 95% error added to the interval's (when it holds, how
         * far from one cycle it could not tell). */
        double add = tks__add_check_cycles(&w->check);
        double rel = 1.96 * w->check.add_se / add;
        r->core_cycles.value *= add;
        r->core_cycles.lo *= add * (1 - rel);
        r->core_cycles.hi *= add * (1 + rel);
        r->cycles_per_tick = add / ref.value;
        r->core_cycles_source = "estimate: interleaved dependent-add reference";
        tks__add_check_diags(&r->diags, &w->check);
    }
    return 0;
}

void tks__asm_linear_check(tks_asm_result *r)
{
    if (r->fit.r2 < 0.99)
        tks__diag(&r->diags, TKS_DIAG_ASM_NOT_LINEAR, TKS__DN(r->fit.r2));
}
