/* SPDX-License-Identifier: MIT */
/* reference.c: the interleaved core-clock reference turned into core cycles per tick: a robust
 * mean of the chain's bursts, its standard error, and the rate in each quarter of the run, which
 * shows a core clock that drifted while the benchmark ran. */
#include "stats/reference.h"
#include "stats/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/common.h"

/* Mean of the entries of x[0..n) within [lo, hi]; *kept of them. NaN when none. */
static double mean_within(const double *x, size_t n, double lo, double hi, size_t *kept,
                          double *sd)
{
    double sum = 0, ss = 0, m;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= lo && x[i] <= hi) {
            sum += x[i];
            k++;
        }
    *kept = k;
    if (!k)
        return NAN;
    m = sum / (double)k;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= lo && x[i] <= hi)
            ss += (x[i] - m) * (x[i] - m);
    if (sd)
        *sd = k > 1 ? sqrt(ss / (double)(k - 1)) : 0;
    return m;
}

/* The fences around the median of x[0..n): max(5 scaled MADs, quantum) either side. A burst is
 * four windows: an interrupt in one adds thousands of ticks to it. The fences stay at least a
 * quantum wide, because the bursts of a quiet run may all agree. TKS_ENOMEM or 0. */
static int fences(const double *x, size_t n, uint64_t quantum, double *lo, double *hi)
{
    double *v = malloc(n * sizeof *v), med, mad, width;
    if (!v)
        return TKS_ENOMEM;
    memcpy(v, x, n * sizeof *v);
    med = tks__median(v, n);
    for (size_t i = 0; i < n; i++)
        v[i] = fabs(v[i] - med);
    mad = tks__median(v, n);
    free(v);
    width = fmax(5 * 1.4826 * mad, quantum ? (double)quantum : 1.0);
    *lo = med - width;
    *hi = med + width;
    return 0;
}

int tks__reference_fit(const double *ticks, size_t n, double chain_cycles, uint64_t quantum,
                       tks__reference *out)
{
    double lo, hi, sd = 0, q[4];
    size_t kept;
    if (!ticks || !out || n == 0 || !(chain_cycles > 0))
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    if (fences(ticks, n, quantum, &lo, &hi) != 0)
        return TKS_ENOMEM;
    out->n = n;
    out->fence_lo = lo;
    out->fence_hi = hi;
    out->ticks = mean_within(ticks, n, lo, hi, &kept, &sd);
    out->kept = kept;
    if (!kept || !(out->ticks > 0))
        return TKS_EINVAL;
    out->ticks_se = sd / sqrt((double)kept);
    out->cycles_per_tick = chain_cycles / out->ticks;
    out->rel_se = out->ticks_se / out->ticks;
    out->start = out->end = out->cycles_per_tick;
    if (n < 8)
        return 0;
    for (size_t part = 0; part < 4; part++) {
        size_t a = n * part / 4, b = n * (part + 1) / 4, k;
        double m = mean_within(ticks + a, b - a, lo, hi, &k, NULL);
        q[part] = k ? chain_cycles / m : out->cycles_per_tick;
    }
    out->start = q[0];
    out->end = q[3];
    {
        double s[4], mid;
        memcpy(s, q, sizeof s);
        mid = tks__median(s, 4); /* sorts s */
        out->range = (s[3] - s[0]) / mid;
    }
    return 0;
}

void tks__reference_factors(const double *ticks, size_t n, const tks__reference *fit,
                            size_t radius, double *factor)
{
    for (size_t b = 0; b < n; b++) {
        size_t a = b > radius ? b - radius : 0, e = b + radius + 1 < n ? b + radius + 1 : n, k;
        double m = mean_within(ticks + a, e - a, fit->fence_lo, fit->fence_hi, &k, NULL);
        factor[b] = k && m > 0 ? fit->ticks / m : 1;
    }
}

double tks__burst_mean(const uint64_t *v, size_t n, uint64_t quantum)
{
    double *d = malloc(n * sizeof *d), bound, sum = 0;
    size_t k = 0;
    if (!d || n == 0) {
        free(d);
        return NAN;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = (double)v[i];
    bound = 2 * tks__median(d, n) + 4 * (double)(quantum ? quantum : 1);
    free(d);
    for (size_t i = 0; i < n; i++)
        if ((double)v[i] <= bound) {
            sum += (double)v[i];
            k++;
        }
    return k ? sum / (double)k : NAN;
}

int tks__reference_gap(const double *gap, size_t n, uint64_t quantum, double *mean, double *half)
{
    double lo, hi, sd = 0, m;
    size_t kept;
    if (!gap || !mean || !half || n == 0)
        return TKS_EINVAL;
    if (fences(gap, n, quantum, &lo, &hi) != 0)
        return TKS_ENOMEM;
    m = mean_within(gap, n, lo, hi, &kept, &sd);
    if (!kept || !isfinite(m))
        return TKS_EINVAL;
    *mean = m;
    *half = kept > 1 ? 1.96 * sd / sqrt((double)kept) : 0;
    return 0;
}
