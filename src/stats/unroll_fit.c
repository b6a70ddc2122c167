/* SPDX-License-Identifier: MIT */
/* unroll_fit.c: a snippet's cost per copy from windows of several unroll counts, fitted per
 * stretch of the run so that what drifts between stretches widens the interval. */
#include "stats/unroll_fit.h"
#include "stats/estimate.h"
#include "stats/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The mean of the windows of column j in rounds [a, b) within the fences; *kept of them. NaN
 * when none. v is scratch for b - a values. */
static double fenced_mean(const uint64_t *ticks, size_t nk, size_t j, size_t a, size_t b,
                          uint64_t quantum, double *v, uint64_t *kept)
{
    size_t n = 0;
    double med, mad, width, sum = 0;
    uint64_t k = 0;
    for (size_t r = a; r < b; r++)
        if (ticks[r * nk + j] != TKS__UNROLL_DISCARDED)
            v[n++] = (double)ticks[r * nk + j];
    *kept = 0;
    if (!n)
        return NAN;
    med = tks__median(v, n);
    for (size_t i = 0; i < n; i++)
        v[i] = fabs(v[i] - med);
    mad = tks__median(v, n);
    width = fmax(5 * 1.4826 * mad, quantum ? (double)quantum : 1.0);
    for (size_t r = a; r < b; r++) {
        uint64_t t = ticks[r * nk + j];
        if (t != TKS__UNROLL_DISCARDED && fabs((double)t - med) <= width) {
            sum += (double)t;
            k++;
        }
    }
    *kept = k;
    return sum / (double)k;
}

static int distinct_k(const uint32_t *k, size_t nk)
{
    for (size_t j = 1; j < nk; j++)
        if (k[j] != k[0])
            return 1;
    return 0;
}

int tks__unroll_estimate(const uint64_t *ticks, size_t rounds, const uint32_t *k, size_t nk,
                    uint64_t loops, uint64_t quantum, size_t blocks, tks__unroll_fit *out)
{
    double *x, *y, *v;
    size_t np = 0;
    int rc = 0;
    if (!ticks || !k || !out || nk < 2 || !distinct_k(k, nk) || !rounds || !loops || !blocks ||
        blocks > TKS__UNROLL_BLOCKS_MAX || blocks > rounds)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    x = malloc(blocks * nk * sizeof *x);
    y = malloc(blocks * nk * sizeof *y);
    v = malloc(rounds * sizeof *v);
    if (!x || !y || !v) {
        rc = TKS_ENOMEM;
        goto done;
    }
    for (size_t b = 0; b < blocks && !rc; b++) {
        size_t a = rounds * b / blocks, e = rounds * (b + 1) / blocks;
        tks_fit bf;
        for (size_t j = 0; j < nk; j++) {
            uint64_t kept;
            double m = fenced_mean(ticks, nk, j, a, e, quantum, v, &kept);
            if (!kept) {
                rc = TKS_EINVAL;
                break;
            }
            out->kept += kept;
            x[np] = k[j];
            y[np++] = m / (double)loops;
        }
        if (!rc && tks_linear_fit(x + np - nk, y + np - nk, nk, &bf) == 0)
            out->block_slope[b] = bf.slope;
    }
    if (rc || (rc = tks_linear_fit(x, y, np, &out->fit)) != 0)
        goto done;
    out->discarded = (uint64_t)(rounds * nk) - out->kept;
    out->blocks = blocks;
    out->value = out->fit.slope;
    out->half_fit = np > 2 ? tks__t975(np - 2) * out->fit.slope_se : 0;
    if (blocks > 1) {
        /* population variance over n - 1: the standard error of the blocks' mean */
        double var = tks_variance_double(out->block_slope, blocks);
        out->half_between = tks__t975(blocks - 1) * sqrt(var / (double)(blocks - 1));
    }
    {
        double half = fmax(out->half_fit, out->half_between);
        out->lo = out->value - half;
        out->hi = out->value + half;
    }
done:
    free(x);
    free(y);
    free(v);
    return rc;
}

int tks__unroll_ratio(const tks__unroll_fit *num, const tks__unroll_fit *den, double *value,
                      double *lo, double *hi)
{
    double r, hn, hd, half, between = 0;
    size_t nb;
    if (!num || !den || !(den->value > 0))
        return TKS_EINVAL;
    r = num->value / den->value;
    hn = (num->hi - num->lo) / 2;
    hd = (den->hi - den->lo) / 2;
    half = fabs(r) * sqrt(pow(hn / num->value, 2) + pow(hd / den->value, 2));
    if (!isfinite(half)) /* a snippet costing exactly nothing */
        half = fabs(hn / den->value);
    nb = num->blocks < den->blocks ? num->blocks : den->blocks;
    if (nb > 1) {
        double q[TKS__UNROLL_BLOCKS_MAX];
        size_t m = 0;
        for (size_t b = 0; b < nb; b++)
            if (den->block_slope[b] > 0)
                q[m++] = num->block_slope[b] / den->block_slope[b];
        if (m > 1)
            between = tks__t975(m - 1) * sqrt(tks_variance_double(q, m) / (double)(m - 1));
    }
    half = fmax(half, between);
    *value = r;
    *lo = r - half;
    *hi = r + half;
    return 0;
}
