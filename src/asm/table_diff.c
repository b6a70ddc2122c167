/* SPDX-License-Identifier: MIT */
/* table_diff.c: two instruction tables side by side (`asm --diff A.csv B.csv`): measurements
 * matched by form and key, apart when their 95% intervals do not overlap (or one of them failed),
 * and those in one table only. */
#include "asm/cpu_table.h"

#include <stdlib.h>
#include <string.h>

#include "tickscope/common.h"

int tks__asm_table_diff(const tks__asm_table *a, const tks__asm_table *b, tks__asm_diff *d)
{
    size_t cap = a->n + b->n;
    memset(d, 0, sizeof *d);
    if (!(d->rows = calloc(cap ? cap : 1, sizeof *d->rows)))
        return TKS_ENOMEM;
    for (size_t i = 0; i < a->n; i++) {
        const tks__asm_entry *x = &a->e[i], *y = NULL;
        tks__asm_diff_row *r = &d->rows[d->n++];
        for (size_t j = 0; j < b->n && !y; j++)
            if (strcmp(b->e[j].form, x->form) == 0 && strcmp(b->e[j].key, x->key) == 0)
                y = &b->e[j];
        r->a = x;
        r->b = y;
        if (!y) {
            d->only_a++;
            continue;
        }
        /* apart beyond their intervals, or measured in one and failed in the other */
        r->differs = (x->res.rc == 0) != (y->res.rc == 0) ||
                     (x->res.rc == 0 && (x->res.cycles.hi < y->res.cycles.lo ||
                                         y->res.cycles.hi < x->res.cycles.lo));
        d->differ += (size_t)r->differs;
        d->same += (size_t)!r->differs;
    }
    for (size_t j = 0; j < b->n; j++) {
        int found = 0;
        for (size_t i = 0; i < a->n && !found; i++)
            found = strcmp(b->e[j].form, a->e[i].form) == 0 &&
                    strcmp(b->e[j].key, a->e[i].key) == 0;
        if (!found) {
            d->rows[d->n].a = NULL;
            d->rows[d->n].b = &b->e[j];
            d->n++;
            d->only_b++;
        }
    }
    return 0;
}
