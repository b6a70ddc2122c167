/* SPDX-License-Identifier: MIT */
/* table_spread.c: the spread between runs of the instruction table. An interval measured within
 * one run (windows of one measurement) misses what changes between runs (frequency, other load,
 * where the code landed), so two runs agreed within their intervals on only 70% of entries. A
 * sample of the entries is measured again at the run's end (minutes later, in other batches);
 * the 98th percentile of the differences is the run-to-run term, and every interval of the run
 * is widened to half of it either side of its figure: two runs whose differences follow the
 * sample's then overlap on about 98% of entries. */
#include <math.h>
#include <stdlib.h>

#include "asm/cpu_table.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tks__asm_quantile(double *d, size_t n, double q)
{
    double pos;
    size_t i;
    if (!n)
        return NAN;
    qsort(d, n, sizeof *d, by_value);
    pos = q * (double)(n - 1);
    i = (size_t)pos;
    return i + 1 < n ? d[i] + (pos - (double)i) * (d[i + 1] - d[i]) : d[n - 1];
}

void tks__asm_table_widen(tks__asm_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        tks__asm_entry *e = &t->e[i];
        int thr = e->kind == TKS__KIND_THROUGHPUT;
        double term = thr ? t->run_term_thr : t->run_term_lat, half, v = e->res.cycles.value;
        if (e->from_cache || e->res.rc || !isfinite(term) || !isfinite(v))
            continue;
        half = term / 2 * (thr ? fabs(v) : 1);
        if (e->res.cycles.lo > v - half)
            e->res.cycles.lo = v - half;
        if (e->res.cycles.hi < v + half)
            e->res.cycles.hi = v + half;
    }
}
