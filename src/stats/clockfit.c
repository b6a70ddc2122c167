/* SPDX-License-Identifier: MIT */
/* clockfit.c: the TSC rate from pairs of (reference-clock reading, TSC readings either side of it),
 * by least squares of the TSC midpoint on the reference time. Pure arithmetic, no clocks read. */
#include <math.h>
#include <string.h>

#include "tickscope.h"

/* A pair is trusted when its bracket is close to the tightest seen: a wide bracket means an
 * interrupt or a slow path landed between the reads, and its midpoint says little. */
static int kept(const uint64_t *lo, const uint64_t *hi, size_t i, uint64_t limit)
{
    return hi[i] >= lo[i] && hi[i] - lo[i] <= limit;
}

int tks_tsc_fit(const uint64_t *tsc_before, const uint64_t *tsc_after, const uint64_t *ns,
                size_t n, tks_tsc_calibration *out)
{
    uint64_t tightest = UINT64_MAX, limit, widest = 0, t0, ns0;
    long double mx = 0, my = 0, sxx = 0, sxy = 0, ssr = 0, slope, icpt, se;
    size_t used = 0, i, first = n;

    if (!tsc_before || !tsc_after || !ns || !out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    out->points = n;
    for (i = 0; i < n; i++)
        if (tsc_after[i] >= tsc_before[i] && tsc_after[i] - tsc_before[i] < tightest)
            tightest = tsc_after[i] - tsc_before[i];
    if (tightest == UINT64_MAX)
        return TKS_EINVAL;
    limit = tightest > (UINT64_MAX - 1) / 2 ? UINT64_MAX : 2 * tightest + 1;

    /* Offsets from the first kept pair keep the sums small enough for long double to be exact. */
    for (i = 0; i < n; i++)
        if (kept(tsc_before, tsc_after, i, limit)) {
            first = i;
            break;
        }
    t0 = tsc_before[first];
    ns0 = ns[first];
    for (i = first; i < n; i++) {
        if (!kept(tsc_before, tsc_after, i, limit))
            continue;
        used++;
        mx += (long double)ns[i] - (long double)ns0;
        my += (long double)tsc_before[i] - (long double)t0 +
              (long double)(tsc_after[i] - tsc_before[i]) / 2;
        if (tsc_after[i] - tsc_before[i] > widest)
            widest = tsc_after[i] - tsc_before[i];
    }
    if (used < 3)
        return TKS_EINVAL;
    mx /= (long double)used;
    my /= (long double)used;
    for (i = first; i < n; i++) {
        long double dx, dy;
        if (!kept(tsc_before, tsc_after, i, limit))
            continue;
        dx = (long double)ns[i] - (long double)ns0 - mx;
        dy = (long double)tsc_before[i] - (long double)t0 +
             (long double)(tsc_after[i] - tsc_before[i]) / 2 - my;
        sxx += dx * dx;
        sxy += dx * dy;
    }
    if (!(sxx > 0))
        return TKS_EINVAL;
    slope = sxy / sxx; /* ticks per nanosecond */
    icpt = my - slope * mx;
    for (i = first; i < n; i++) {
        long double x, r;
        if (!kept(tsc_before, tsc_after, i, limit))
            continue;
        x = (long double)ns[i] - (long double)ns0;
        r = (long double)tsc_before[i] - (long double)t0 +
            (long double)(tsc_after[i] - tsc_before[i]) / 2 - (icpt + slope * x);
        ssr += r * r;
    }
    if (!(slope > 0))
        return TKS_EINVAL;
    se = sqrtl(ssr / (long double)(used - 2) / sxx);
    out->hz = (double)(slope * 1e9L);
    out->ppm = (double)(1.96L * se / slope * 1e6L);
    out->used = used;
    out->bracket_ticks = (double)widest;
    /* The span of reference time the kept pairs cover. */
    {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (i = first; i < n; i++)
            if (kept(tsc_before, tsc_after, i, limit)) {
                if (ns[i] < lo)
                    lo = ns[i];
                if (ns[i] > hi)
                    hi = ns[i];
            }
        out->seconds = (double)(hi - lo) / 1e9;
    }
    return TKS_OK;
}
