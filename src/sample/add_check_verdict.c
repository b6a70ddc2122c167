/* SPDX-License-Identifier: MIT */
/* add_check_verdict.c: what the add check found, as the diagnostics the benchmarks' and asm's
 * results carry (apart from add_check.c, whose windows are compiled for measuring). */
#include "sample/add_check.h"

#include "base/diag.h"

void tks__add_check_diags(tks_diags *d, const tks__add_check *c)
{
    if (c->verdict == TKS__ADD_CHECK_OFF)
        tks__diag(d, TKS_DIAG_CORE_ADD_CHAIN_SLOW, TKS__DN(c->add_cycles), TKS__DN(c->mul_adds),
                  TKS__DN(c->fp_adds), TKS__DN(c->mul_cycles), TKS__DN(c->fp_cycles));
    else if (c->verdict == TKS__ADD_CHECK_DISAGREE)
        tks__diag(d, TKS_DIAG_CORE_ADD_CHAIN_UNCHECKED, TKS__DN(c->mul_adds), TKS__DN(c->fp_adds));
}
