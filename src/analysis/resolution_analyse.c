/* SPDX-License-Identifier: MIT */
/* resolution_analyse.c: what the resolution test makes of its samples (resolution.h): each n
 * summarised, the fitted lines, the smallest step each estimator sees, and the long chain's
 * ticks per add. The live run and a replay call the same function. */
#include "analysis/resolution.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/summarise.h"

void tks__resolution_samples_free(tks__resolution_samples *s)
{
    tks_sample_run_free(&s->run);
    for (uint32_t k = 0; k < s->long_rounds && k < TKS__RES_LONG_ROUNDS; k++)
        tks_sample_run_free(&s->longs[k]);
    memset(s, 0, sizeof *s);
}

void tks__resolution_method_of(const tks_validation *v, tks_resolution_result *r)
{
    r->method = v->recommended >= 0 ? (enum tks_method)v->recommended : v->quantum_method;
    r->method_reason = v->recommended >= 0 ? "recommended by a short validation" :
                       "no fenced method validated; using the quantum probe's";
    r->quantum = v->quantum;
}

static int fit(tks_resolution_result *r, const tks_summary *ens, const tks_across *a)
{
    double *x = malloc(sizeof *x * r->npoints), *ymean = malloc(sizeof *ymean * r->npoints);
    double *ymin = malloc(sizeof *ymin * r->npoints), *umean = malloc(sizeof *umean * r->npoints);
    double *umin = malloc(sizeof *umin * r->npoints);
    uint32_t i;
    int rc = TKS_ENOMEM;
    if (x && ymean && ymin && umean && umin) {
        for (i = 0; i < r->npoints; i++) {
            tks_resolution_point *pt = &r->points[i];
            pt->n = i;
            pt->min = ens[i].min;
            pt->median = ens[i].median;
            pt->mean = ens[i].pa_mean;
            pt->mean_ci = ens[i].pa_ci;
            pt->variance = ens[i].variance;
            pt->max_deviation = ens[i].max_deviation;
            x[i] = i;
            ymean[i] = pt->mean;
            umean[i] = pt->mean_ci;
            ymin[i] = (double)pt->min;
            /* The minimum moves in whole quanta: half a quantum either way is its rounding. */
            umin[i] = (double)r->quantum / 2;
        }
        r->spurious_minimums = a->spurious_minimums;
        /* The line through n >= 1: the empty window (n = 0) is not on it where the fences cost
         * less around nothing (the harness gap, measured below against that line). */
        rc = r->npoints > 2 ? tks_linear_fit(x + 1, ymean + 1, r->npoints - 1, &r->fit_mean)
                            : tks_linear_fit(x, ymean, r->npoints, &r->fit_mean);
        r->harness_gap = r->npoints > 2 ? r->fit_mean.intercept - ymean[0] : 0;
        if (!rc)
            rc = tks_linear_fit(x, ymin, r->npoints, &r->fit_min);
        r->res_mean = tks_resolution(ymean, umean, r->npoints, 0.95, &r->res_mean_fraction);
        r->res_min = tks_resolution(ymin, umin, r->npoints, 0.95, &r->res_min_fraction);
    }
    free(x);
    free(ymean);
    free(ymin);
    free(umean);
    free(umin);
    return rc;
}

/* Ticks per add from the longest chain the sampler carries against a chain of a quarter of it:
 * both windows hold work, so what the fences add around a non-empty window (the harness gap, which
 * an empty window does not pay) cancels, and one add is one core cycle: this is the core clock
 * measured with the run (cycles per tick = 1 / ticks per add). */
static int long_chain(tks_resolution_result *r, const tks__resolution_samples *s)
{
    double v[TKS__RES_LONG_ROUNDS];
    int rc;
    if (s->long_rounds != TKS__RES_LONG_ROUNDS)
        return TKS_EINVAL;
    for (uint32_t i = 0; i < TKS__RES_LONG_ROUNDS; i++) {
        tks_summary *ens;
        tks_across a;
        if (s->longs[i].ensembles != 2)
            return TKS_EINVAL;
        if ((rc = tks__summarise_run(&s->longs[i], r->quantum, &ens, &a)) != 0)
            return rc;
        v[i] = (ens[1].pa_mean - ens[0].pa_mean) / (TKS_WORK_MAX - TKS__RES_SHORT_CHAIN);
        free(ens);
    }
    r->long_chain_ticks_per_add = tks__median(v, TKS__RES_LONG_ROUNDS);
    return 0;
}

int tks__resolution_analyse(tks_resolution_result *r, const tks__resolution_samples *s,
                            const tks_analysis_common *hooks)
{
    tks_across a;
    int rc;
    r->npoints = r->max_work + 1;
    if (s->run.ensembles != r->npoints || r->quantum < 1)
        return TKS_EINVAL;
    if (!(r->points = calloc(r->npoints, sizeof *r->points)))
        return TKS_ENOMEM;
    r->samples_taken = s->run.samples;
    r->discarded = s->run.discarded_migrated + s->run.discarded_negative;
    rc = tks__summarise_run(&s->run, r->quantum, &r->ensembles, &a);
    if (!rc && hooks && hooks->on_samples)
        rc = hooks->on_samples(hooks->samples_ctx, r->method, &s->run, r->ensembles, r->quantum);
    if (!rc)
        rc = fit(r, r->ensembles, &a);
    if (!rc)
        rc = long_chain(r, s);
    return rc;
}
