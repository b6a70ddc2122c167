/* SPDX-License-Identifier: MIT */
/* core_check.c: the add check on the platform's core clock (core_check.h). */
#include "platform/core_check.h"

#include <stdlib.h>

#include "sample/add_check.h"

void tks__core_clock_apply_check(tks_core_clock *k, const tks__add_check *c)
{
    double add = tks__add_check_cycles(c), rel;
    tks__add_check_public(c, &k->add_check);
    if (c->verdict != TKS_ADD_CHECK_SLOW && c->verdict != TKS_ADD_CHECK_HOLDS)
        return;
    rel = 1.96 * c->add_se / add;
    k->cycles_per_tick *= add;
    k->lo *= add * (1 - rel);
    k->hi *= add * (1 + rel);
}

int tks__core_clock_check(tks_core_clock *k, enum tks_method m)
{
    tks__add_check c = {0};
    uint64_t *w = malloc((size_t)TKS_CHECK_WINDOWS * TKS_ADD_CHECK_ROUNDS * sizeof *w);
    if (!w)
        return TKS_ENOMEM;
    if (tks__add_check_sample(m, TKS_ADD_CHECK_ROUNDS, w) == 0)
        tks__add_check_fit(w, TKS_ADD_CHECK_ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT, &c);
    free(w);
    tks__core_clock_apply_check(k, &c);
    return 0;
}
