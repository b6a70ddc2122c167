/* SPDX-License-Identifier: MIT */
/* within.c: one process's figure against a second process's (stats/within.h). */
#include <math.h>

#include "stats/within.h"

int tks__processes_differ(const tks_interval *here, const tks_interval *next, double floor)
{
    double ha, hb, d;
    if (!here || !next || !isfinite(here->value) || !isfinite(next->value) ||
        !isfinite(here->lo) || !isfinite(here->hi) || !isfinite(next->lo) || !isfinite(next->hi))
        return 0;
    ha = (here->hi - here->lo) / 2;
    hb = (next->hi - next->lo) / 2;
    d = fabs(next->value - here->value);
    return d > sqrt(ha * ha + hb * hb) && d > floor * fabs(here->value);
}
