/* SPDX-License-Identifier: MIT */
/* event_rates.c: events per execution over a run's batches. Each batch counted d_i events over
 * e_i executions; the run's figure is R = sum d / sum e (every execution weighs the same, as one
 * count over the whole run would), and its standard error that of a ratio estimator:
 * sqrt(sum (d_i - R e_i)^2 / (n - 1) / n) / mean(e). */
#include "stats/event_rates.h"

#include <math.h>

#include "stats/student_t.h"
#include "tickscope/common.h"

/* The interval of ratio r from the residuals' sum of squares ss over n batches of se executions. */
static void ratio_interval(double r, double ss, double n, double se, tks_interval *out)
{
    double half = n > 1 ? tks__t975((size_t)n - 1) * sqrt(fmax(ss, 0) / (n - 1) / n) / (se / n)
                        : INFINITY;
    out->value = r;
    out->lo = r - half;
    out->hi = r + half;
}

int tks__event_rate(const double *counts, size_t stride, const double *execs, size_t n,
                    tks_interval *out)
{
    double sd = 0, se = 0, ss = 0, r;
    out->value = out->lo = out->hi = NAN;
    for (size_t i = 0; i < n; i++) {
        sd += counts[i * stride];
        se += execs[i * stride];
    }
    if (n == 0 || !(se > 0))
        return TKS_EINVAL;
    r = sd / se;
    for (size_t i = 0; i < n; i++) {
        double u = counts[i * stride] - r * execs[i * stride];
        ss += u * u;
    }
    ratio_interval(r, ss, (double)n, se, out);
    return 0;
}

void tks__event_sums_add(tks__event_sums *s, double d, double e)
{
    s->n += 1;
    s->d += d;
    s->e += e;
    s->dd += d * d;
    s->ee += e * e;
    s->de += d * e;
}

void tks__event_sums_merge(tks__event_sums *to, const tks__event_sums *from)
{
    to->n += from->n;
    to->d += from->d;
    to->e += from->e;
    to->dd += from->dd;
    to->ee += from->ee;
    to->de += from->de;
}

/* sum (d - R e)^2 = dd - 2 R de + R^2 ee. */
int tks__event_rate_sums(const tks__event_sums *s, tks_interval *out)
{
    double r;
    out->value = out->lo = out->hi = NAN;
    if (!(s->n > 0) || !(s->e > 0))
        return TKS_EINVAL;
    r = s->d / s->e;
    ratio_interval(r, s->dd - 2 * r * s->de + r * r * s->ee, s->n, s->e, out);
    return 0;
}

tks_interval tks__interval_less(const tks_interval *a, const tks_interval *b)
{
    double ha = (a->hi - a->lo) / 2, hb = (b->hi - b->lo) / 2, h = sqrt(ha * ha + hb * hb);
    tks_interval d;
    d.value = a->value - b->value;
    d.lo = d.value - h;
    d.hi = d.value + h;
    return d;
}
