/* SPDX-License-Identifier: MIT */
/* student_t.c: Student's t through the regularised incomplete beta function. For T with v degrees
 * of freedom and t >= 0, P(T > t) = I_x(v/2, 1/2) / 2 with x = v / (v + t^2); the beta function
 * is evaluated by its continued fraction (modified Lentz), and a quantile is found by bisecting
 * the distribution function, which is monotonic, to the last bit of a double. */
#include "stats/student_t.h"

#include <math.h>

#define CF_ITER 300
#define CF_EPS 1e-15
#define TINY 1e-300

/* The continued fraction for I_x(a, b), good where x < (a + 1) / (a + b + 2). */
static double beta_cf(double x, double a, double b)
{
    double c = 1, d = 1 - (a + b) * x / (a + 1), h;
    if (fabs(d) < TINY)
        d = TINY;
    d = 1 / d;
    h = d;
    for (int m = 1; m <= CF_ITER; m++) {
        double m2 = 2.0 * m, num, delta;
        /* the even step, then the odd one */
        num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + num * d;
        c = 1 + num / c;
        d = fabs(d) < TINY ? 1 / TINY : 1 / d;
        c = fabs(c) < TINY ? TINY : c;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + num * d;
        c = 1 + num / c;
        d = fabs(d) < TINY ? 1 / TINY : 1 / d;
        c = fabs(c) < TINY ? TINY : c;
        delta = d * c;
        h *= delta;
        if (fabs(delta - 1) < CF_EPS)
            break;
    }
    return h;
}

double tks__inc_beta(double x, double a, double b)
{
    double front;
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
        return NAN;
    if (x == 0 || x == 1)
        return x;
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    /* the fraction converges fast on one side of the mean; the symmetry I_x(a,b) =
     * 1 - I_(1-x)(b,a) gives the other */
    if (x < (a + 1) / (a + b + 2))
        return front * beta_cf(x, a, b) / a;
    return 1 - front * beta_cf(1 - x, b, a) / b;
}

double tks__t_cdf(double t, double dof)
{
    double tail;
    if (!(dof > 0) || isnan(t))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1 : 0;
    tail = 0.5 * tks__inc_beta(dof / (dof + t * t), dof / 2, 0.5);
    return t >= 0 ? 1 - tail : tail;
}

double tks__t_quantile(double p, double dof)
{
    double lo = 0, hi = 1, mid;
    if (!(dof > 0) || !(p > 0) || !(p < 1))
        return NAN;
    if (p < 0.5)
        return -tks__t_quantile(1 - p, dof);
    if (p == 0.5)
        return 0;
    while (tks__t_cdf(hi, dof) < p) /* one degree of freedom at p = 0.9999 needs about 3183 */
        lo = hi, hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 4 * 2.220446049250313e-16 * hi; i++) {
        mid = (lo + hi) / 2;
        if (tks__t_cdf(mid, dof) < p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double tks__t975(size_t dof)
{
    return dof == 0 ? INFINITY : tks__t_quantile(0.975, (double)dof);
}
