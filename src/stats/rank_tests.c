/* SPDX-License-Identifier: MIT */
/* rank_tests.c: the tests of a comparison: ranks for Mann-Whitney U (exact distribution for small
 * untied samples, the normal approximation with tie correction otherwise), the Hodges-Lehmann
 * shift, a smoothed bootstrap of a ratio, and a paired t interval. */
#include "stats/rank_tests.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/estimate.h"
#include "tickscope/common.h"

#define EXACT_MAX 20 /* the exact distribution's polynomial has nx * ny + nx + 1 terms */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct ranked {
    double v;
    int from_y;
};

static int cmp_ranked(const void *a, const void *b)
{
    return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* P(U <= u) under the null hypothesis, for nx and ny without ties: the counts of U are the
 * coefficients of the Gaussian binomial [nx + ny choose nx]_q, built factor by factor. */
static double exact_cdf(size_t nx, size_t ny, double u)
{
    size_t deg = nx * ny + nx + 1;
    double *c = calloc(deg + 1, sizeof *c), below = 0, total = 0;
    if (!c)
        return NAN;
    c[0] = 1;
    for (size_t i = 1; i <= nx; i++) {
        /* times (1 - q^(ny + i)), then divided by (1 - q^i): exact at every step */
        for (size_t k = deg; k >= ny + i; k--)
            c[k] -= c[k - (ny + i)];
        for (size_t k = i; k <= deg; k++)
            c[k] += c[k - i];
    }
    for (size_t k = 0; k <= nx * ny; k++) {
        total += c[k];
        if ((double)k <= u + 1e-9)
            below += c[k];
    }
    free(c);
    return below / total;
}

/* Hodges-Lehmann: the median of the nx * ny differences and the order statistics that bound a
 * ~95% interval (Lehmann 1975; the normal approximation of U's critical value). */
static int shift_interval(const double *x, size_t nx, const double *y, size_t ny, tks__utest *out)
{
    size_t m = nx * ny, k = 0;
    double *d = malloc(m * sizeof *d), crit;
    if (!d)
        return TKS_ENOMEM;
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            d[i * ny + j] = y[j] - x[i];
    qsort(d, m, sizeof *d, cmp_double);
    out->shift = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
    crit = (double)m / 2 - 1.96 * sqrt((double)m * (double)(nx + ny + 1) / 12);
    if (crit >= 1)
        k = (size_t)floor(crit);
    out->lo = k ? d[k - 1] : d[0];
    out->hi = k ? d[m - k] : d[m - 1];
    free(d);
    return 0;
}

double tks__utest_min_p(size_t nx, size_t ny)
{
    /* C(nx + ny, nx) as a product of ratios, each step exact enough for a threshold test */
    double c = 1;
    if (nx == 0 || ny == 0)
        return 1;
    for (size_t i = 1; i <= nx && c < 1e300; i++)
        c = c * (double)(ny + i) / (double)i;
    return fmin(1, 2 / c);
}

int tks__mann_whitney(const double *x, size_t nx, const double *y, size_t ny, tks__utest *out)
{
    size_t n = nx + ny, i, j;
    struct ranked *v;
    double ry = 0, ties = 0, mean, var, z;
    int tied = 0, rc;
    if (!x || !y || !out || nx == 0 || ny == 0)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    for (i = 0; i < nx; i++)
        if (isnan(x[i]))
            return TKS_EINVAL;
    for (i = 0; i < ny; i++)
        if (isnan(y[i]))
            return TKS_EINVAL;
    if (!(v = malloc(n * sizeof *v)))
        return TKS_ENOMEM;
    for (i = 0; i < nx; i++)
        v[i].v = x[i], v[i].from_y = 0;
    for (i = 0; i < ny; i++)
        v[nx + i].v = y[i], v[nx + i].from_y = 1;
    qsort(v, n, sizeof *v, cmp_ranked);
    /* average ranks over runs of equal values */
    for (i = 0; i < n; i = j) {
        double rank, t;
        for (j = i + 1; j < n && v[j].v == v[i].v; j++)
            ;
        rank = (double)(i + 1 + j) / 2;
        t = (double)(j - i);
        if (t > 1)
            tied = 1, ties += t * t * t - t;
        for (size_t k = i; k < j; k++)
            if (v[k].from_y)
                ry += rank;
    }
    free(v);
    out->u = ry - (double)ny * (double)(ny + 1) / 2;
    mean = (double)nx * (double)ny / 2;
    if (!tied && nx <= EXACT_MAX && ny <= EXACT_MAX) {
        double lo = exact_cdf(nx, ny, out->u), hi = 1 - exact_cdf(nx, ny, out->u - 1);
        out->exact = 1;
        out->p = fmin(1, 2 * fmin(lo, hi));
    } else {
        var = (double)nx * (double)ny / 12 *
              ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
        /* continuity correction: half a step of U towards the mean */
        z = var > 0 ? (fabs(out->u - mean) - 0.5) / sqrt(var) : 0;
        out->p = var > 0 ? fmin(1, erfc(fmax(z, 0) / sqrt(2))) : 1;
    }
    if ((rc = shift_interval(x, nx, y, ny, out)) != 0)
        return rc;
    return 0;
}

uint64_t tks__rand_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s) { return ((double)(tks__rand_next(s) >> 11) + 0.5) / 9007199254740992.0; }

double tks__rand_normal(uint64_t *s)
{
    /* Box-Muller; one of the pair is enough here */
    double u1 = uniform(s), u2 = uniform(s);
    return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static double mean_of(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

static double draw_mean(const double *v, const double *se, size_t n, uint64_t *s)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)(tks__rand_next(s) % n);
        sum += v[k] + (se && se[k] > 0 ? se[k] * tks__rand_normal(s) : 0);
    }
    return sum / (double)n;
}

int tks__bootstrap_ratio(const double *x, const double *x_se, size_t nx, const double *y,
                         const double *y_se, size_t ny, size_t draws, uint64_t seed,
                         tks__bootstrap *out)
{
    double *r, mx;
    size_t below = 0, above = 0, m = 0;
    uint64_t s = seed;
    if (!x || !y || !out || nx == 0 || ny == 0 || draws == 0)
        return TKS_EINVAL;
    mx = mean_of(x, nx);
    if (!(mx > 0) || !isfinite(mean_of(y, ny)))
        return TKS_EINVAL;
    if (!(r = malloc(draws * sizeof *r)))
        return TKS_ENOMEM;
    out->ratio = mean_of(y, ny) / mx;
    for (size_t b = 0; b < draws; b++) {
        double a = draw_mean(x, x_se, nx, &s), c = draw_mean(y, y_se, ny, &s);
        if (!(a > 0) || !isfinite(c))
            continue; /* a draw of x at or below zero has no ratio */
        r[m] = c / a;
        below += r[m] < 1;
        above += r[m] > 1;
        m++;
    }
    if (m == 0) {
        free(r);
        return TKS_EINVAL;
    }
    qsort(r, m, sizeof *r, cmp_double);
    out->lo = r[(size_t)floor(0.025 * (double)(m - 1))];
    out->hi = r[(size_t)ceil(0.975 * (double)(m - 1))];
    /* a draw exactly at 1 counts on neither side; the p value is never quoted below 1/m */
    out->p = fmin(1, fmax(2 * (double)(below < above ? below : above), 1) / (double)m);
    free(r);
    return 0;
}

void tks__paired_t(const double *d, size_t n, double *mean, double *half)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        m += d[i];
    m = n ? m / (double)n : NAN;
    for (size_t i = 0; i < n; i++)
        ss += (d[i] - m) * (d[i] - m);
    *mean = m;
    *half = n >= 2 ? tks__t975(n - 1) * sqrt(ss / (double)(n - 1) / (double)n) : INFINITY;
}
