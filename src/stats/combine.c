/* SPDX-License-Identifier: MIT */
/* combine.c: agreement and inverse-variance combination of two estimates (combine.h). */
#include <math.h>

#include "stats/combine.h"

static double half(const tks_interval *x)
{
    return (x->hi - x->lo) / 2;
}

double tks__intervals_excess(const tks_interval *a, const tks_interval *b)
{
    return fabs(a->value - b->value) - hypot(half(a), half(b));
}

int tks__intervals_agree(const tks_interval *a, const tks_interval *b, double rel)
{
    double e = tks__intervals_excess(a, b);
    return isfinite(e) && e <= rel * fmax(fabs(a->value), fabs(b->value));
}

tks_interval tks__intervals_combine(const tks_interval *a, const tks_interval *b)
{
    double ha = half(a), hb = half(b), wa, wb, h = 0;
    tks_interval c;
    if (ha > 0 && hb > 0) {
        wa = 1 / (ha * ha);
        wb = 1 / (hb * hb);
        h = 1 / sqrt(wa + wb);
    } else { /* an exact figure: a when it is exact, else b */
        wa = !(ha > 0);
        wb = !wa;
    }
    c.value = (wa * a->value + wb * b->value) / (wa + wb);
    h += fmax(0, tks__intervals_excess(a, b));
    c.lo = c.value - h;
    c.hi = c.value + h;
    return c;
}
