/* SPDX-License-Identifier: MIT */
/* fit.c: ordinary least squares through (work size, time): the slope is the cost per unit of
 * work, the intercept the harness overhead, both with standard errors. */
#include "tickscope.h"

#include <math.h>
#include <string.h>

/* Centred sums: times are large and close together, so raw sums of squares would cancel. */
static void centred_sums(const double *x, const double *y, size_t n, long double *mx,
                         long double *my, long double *sxx, long double *sxy, long double *syy)
{
    long double sx = 0, sy = 0;
    for (size_t i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
    }
    *mx = sx / (long double)n;
    *my = sy / (long double)n;
    *sxx = *sxy = *syy = 0;
    for (size_t i = 0; i < n; i++) {
        long double dx = x[i] - *mx, dy = y[i] - *my;
        *sxx += dx * dx;
        *sxy += dx * dy;
        *syy += dy * dy;
    }
}

/* Residuals are summed directly rather than as Syy - slope Sxy, which cancels on good fits. */
static long double residual_ss(const double *x, const double *y, size_t n, long double a,
                               long double b)
{
    long double ssr = 0;
    for (size_t i = 0; i < n; i++) {
        long double r = y[i] - (a + b * x[i]);
        ssr += r * r;
    }
    return ssr;
}

int tks_linear_fit(const double *x, const double *y, size_t n, tks_fit *out)
{
    long double mx, my, sxx, sxy, syy, slope, intercept, ssr, sd;

    if (!x || !y || !out || n < 2)
        return TKS_EINVAL;
    centred_sums(x, y, n, &mx, &my, &sxx, &sxy, &syy);
    if (!(sxx > 0)) /* all x equal (or not numbers): no line is determined */
        return TKS_EINVAL;
    slope = sxy / sxx;
    intercept = my - slope * mx;
    ssr = residual_ss(x, y, n, intercept, slope);
    sd = n > 2 ? sqrtl(ssr / (long double)(n - 2)) : 0;

    memset(out, 0, sizeof *out);
    out->n = n;
    out->slope = (double)slope;
    out->intercept = (double)intercept;
    out->r2 = syy == 0 ? 1 : (double)(1 - ssr / syy);
    out->residual_sd = (double)sd;
    out->slope_se = (double)(sd / sqrtl(sxx));
    out->intercept_se = (double)(sd * sqrtl(1 / (long double)n + mx * mx / sxx));
    return TKS_OK;
}
