/* SPDX-License-Identifier: MIT */
/* estimate.c: from paired windows to the cost of one execution with its uncertainty. Both the
 * real and the empty windows are summarised on their own and then differenced, so the harness
 * cancels whichever estimator is read. */
#include "stats/estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* real - empty for each estimator, divided by the executions per window. The median's interval
 * combines the two order-statistic intervals side by side (their half-widths in quadrature);
 * the mean's likewise; the minimum has none. */
static void difference(const tks_summary *r, const tks_summary *e, double per, tks__estimate *out)
{
    double rl = r->median - r->median_lo, rh = r->median_hi - r->median;
    double el = e->median - e->median_lo, eh = e->median_hi - e->median;
    double m = r->median - e->median, a = r->pa_mean - e->pa_mean;
    double ci = sqrt(r->pa_ci * r->pa_ci + e->pa_ci * e->pa_ci);

    out->min.value = out->min.lo = out->min.hi = ((double)r->min - (double)e->min) / per;
    out->median.value = m / per;
    out->median.lo = (m - sqrt(rl * rl + eh * eh)) / per;
    out->median.hi = (m + sqrt(rh * rh + el * el)) / per;
    out->mean.value = a / per;
    out->mean.lo = (a - ci) / per;
    out->mean.hi = (a + ci) / per;
}

int tks__estimate_latency(const uint64_t *real, const uint64_t *empty, size_t n, uint64_t quantum,
                         uint64_t *scratch, tks__estimate *out)
{
    int rc;
    if (!real || !empty || !scratch || !out || n < 2)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    if ((rc = tks_summarize(real, n, quantum, scratch, &out->real)) != 0 ||
        (rc = tks_summarize(empty, n, quantum, scratch, &out->empty)) != 0)
        return rc;
    difference(&out->real, &out->empty, 1, out);
    out->slope.value = out->slope.lo = out->slope.hi = NAN;
    out->intercept = out->slope_r2 = NAN;
    out->k_max = 1;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The distinct k values, ascending, into ks (at most max). Returns how many. */
static size_t distinct_ks(const uint32_t *k, size_t n, uint32_t *ks, size_t max)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j;
        for (j = 0; j < m && ks[j] != k[i]; j++)
            ;
        if (j == m && m < max)
            ks[m++] = k[i];
    }
    qsort(ks, m, sizeof *ks, cmp_u32);
    return m;
}

/* The windows with k executions, gathered into dst. */
static size_t gather(const uint64_t *real, const uint32_t *k, size_t n, uint32_t want, uint64_t *dst)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (k[i] == want)
            dst[m++] = real[i];
    return m;
}

#define MAX_POINTS 64

int tks__estimate_throughput(const uint64_t *real, const uint32_t *k, const uint64_t *empty, size_t n,
                            uint64_t quantum, uint64_t *scratch, tks__estimate *out)
{
    uint32_t ks[MAX_POINTS];
    double x[MAX_POINTS], y[MAX_POINTS], sd[MAX_POINTS];
    size_t points, i;
    tks_fit fit;
    double mx = 0, sxx = 0, var_prop = 0, se;
    int rc;

    if (!real || !k || !empty || !scratch || !out || n < 2)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    points = distinct_ks(k, n, ks, MAX_POINTS);
    if (points < 3 || ks[0] == 0)
        return TKS_EINVAL;
    if ((rc = tks_summarize(empty, n, quantum, scratch, &out->empty)) != 0)
        return rc;
    for (i = 0; i < points; i++) {
        tks_summary s;
        size_t m = gather(real, k, n, ks[i], scratch + n);
        if (m < 2)
            return TKS_EINVAL;
        if ((rc = tks_summarize(scratch + n, m, quantum, scratch, &s)) != 0)
            return rc;
        x[i] = ks[i];
        y[i] = s.pa_mean;
        sd[i] = s.pa_ci / 1.96;
        if (i == points - 1)
            out->real = s;
    }
    if ((rc = tks_linear_fit(x, y, points, &fit)) != 0)
        return rc;
    /* The slope is sum((x_i - mean x) y_i) / Sxx, so each point's own error reaches it with
     * weight (x_i - mean x) / Sxx. */
    for (i = 0; i < points; i++)
        mx += x[i] / (double)points;
    for (i = 0; i < points; i++)
        sxx += (x[i] - mx) * (x[i] - mx);
    for (i = 0; i < points; i++)
        var_prop += pow((x[i] - mx) / sxx, 2) * sd[i] * sd[i];
    se = fmax(fit.slope_se * tks__t975(points - 2), 1.96 * sqrt(var_prop));

    out->points = points;
    out->k_max = ks[points - 1];
    out->slope.value = fit.slope;
    out->slope.lo = fit.slope - se;
    out->slope.hi = fit.slope + se;
    out->intercept = fit.intercept;
    out->slope_r2 = fit.r2;
    difference(&out->real, &out->empty, (double)out->k_max, out);
    return 0;
}
