/* SPDX-License-Identifier: MIT */
/* add_check_verdict.c: what the add check found, as the diagnostics the benchmarks' and asm's
 * results carry (apart from add_check.c, whose windows are compiled for measuring). */
#include "sample/add_check.h"

#include <math.h>

#include "base/diag.h"

void tks__add_check_public(const tks__add_check *c, tks_add_check *out)
{
    /* a check never taken is all zeros; one taken and not read keeps the figures it read */
    int read = c->mul_adds > 0 && c->fp_adds > 0;
    out->verdict = c->verdict;
    out->mul_adds = read ? c->mul_adds : NAN;
    out->fp_adds = read ? c->fp_adds : NAN;
    out->add_cycles = tks__add_check_cycles(c);
    out->add_cycles_se = c->add_se;
}

void tks__add_check_diags(tks_diags *d, const tks__add_check *c)
{
    if (c->verdict == TKS_ADD_CHECK_SLOW)
        tks__diag(d, TKS_DIAG_CORE_ADD_CHAIN_SLOW, TKS__DN(c->add_cycles), TKS__DN(c->mul_adds),
                  TKS__DN(c->fp_adds), TKS__DN(c->mul_cycles), TKS__DN(c->fp_cycles));
    else if (c->verdict == TKS_ADD_CHECK_DISAGREE)
        tks__diag(d, TKS_DIAG_CORE_ADD_CHAIN_UNCHECKED, TKS__DN(c->mul_adds), TKS__DN(c->fp_adds));
    else if (c->verdict == TKS_ADD_CHECK_NONE && c->mul_adds > 0 && c->fp_adds > 0)
        /* both chains were read, and one is not near a whole number of adds */
        tks__diag(d, TKS_DIAG_CORE_ADD_CHAIN_UNREAD, TKS__DN(c->mul_adds), TKS__DN(c->fp_adds));
}
