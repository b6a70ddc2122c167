/* SPDX-License-Identifier: MIT */
/* resolution_fit.c: the white paper's resolution (section 3.3) as a number: the smallest step in
 * work whose effect on the estimate stands out from its uncertainty often enough. */
#include "tickscope.h"

#include <math.h>

static int step_resolved(const double *est, const double *unc, size_t from, size_t to)
{
    double diff = est[to] - est[from];
    return diff > 0 && diff > hypot(unc[to], unc[from]);
}

static double resolved_fraction(const double *est, const double *unc, size_t n, size_t k)
{
    size_t resolved = 0;
    for (size_t i = k; i < n; i++)
        resolved += (size_t)step_resolved(est, unc, i - k, i);
    return (double)resolved / (double)(n - k);
}

/* k stops at (n-1)/2 so that every k tried is judged on at least half the series. */
size_t tks_resolution(const double *est, const double *unc, size_t n, double coverage,
                      double *fraction)
{
    if (fraction)
        *fraction = 0;
    if (!est || !unc)
        return 0;
    for (size_t k = 1; n > 0 && k <= (n - 1) / 2; k++) {
        double f = resolved_fraction(est, unc, n, k);
        if (f >= coverage) {
            if (fraction)
                *fraction = f;
            return k;
        }
    }
    return 0;
}
