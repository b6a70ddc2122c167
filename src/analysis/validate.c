/* SPDX-License-Identifier: MIT */
/* validate.c: the empty-window experiment for each method, summarised with the white paper's
 * statistics, the dependent-add chain, and the choice of the method to recommend. */
#include "analysis/summarise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/now.h"

void tks_validate_options_init(tks_validate_options *o)
{
    memset(o, 0, sizeof *o);
    o->methods = TKS_METHOD_ALL;
    o->ensembles = 100;
    o->samples = 10000;
    o->budget_s = 0.4;
    o->chain = 1;
    tks__analysis_common_init(&o->common);
}

static int options_ok(const tks_validate_options *o)
{
    if (!o || o->methods == 0 || (o->methods & ~TKS_METHOD_ALL) != 0)
        return TKS_EINVAL;
    if (o->ensembles < 1 || o->samples < 2 || !(o->budget_s >= 0))
        return TKS_EINVAL;
    if (o->ensembles > TKS_ENSEMBLES_MAX || o->samples > TKS_SAMPLES_MAX)
        return TKS_ERANGE;
    return tks__analysis_common_check(&o->common);
}

/* What one run needs while it lasts: the options, the kernel module's methods, the result. */
struct vrun {
    const tks_validate_options *o;
    uint32_t kernel_methods;
    tks_validation *v;
    int hook_rc;     /* what on_samples returned: stops everything */
};

/* A method that can never be recommended here (unfenced at one end: tks_method_ineligible_reason)
 * is measured to show what it would read, its tables and its chain: it gets a quarter of the
 * budget and a floor of 50 samples an ensemble instead of 100. Under a hypervisor CPUID's windows
 * cost several microseconds, and its full budget was over half of validate's time (perf record,
 * Zen 5 guest); with a quarter its minimums still spread over hundreds of quanta, not ergodic
 * either way. */
#define INELIGIBLE_SHARE 0.25
#define INELIGIBLE_MIN_SAMPLES 50

static void plan_for(const struct vrun *x, enum tks_method m, tks_sample_plan *p)
{
    int eligible = x->v->methods[m].eligible;
    tks__analysis_plan(&x->o->common, m, p);
    p->ensembles = x->o->ensembles;
    p->samples = x->o->samples;
    p->budget_s = x->o->budget_s * (eligible ? 1 : INELIGIBLE_SHARE);
    if (!eligible)
        p->min_samples = INELIGIBLE_MIN_SAMPLES;
}

static int empty_window(struct vrun *x, enum tks_method m, tks_method_validation *r)
{
    const tks_validate_options *o = x->o;
    tks_sample_plan p;
    tks_sample_run run;
    tks_summary *ens;
    double *med, *pam;
    uint32_t e;
    char label[64];
    int rc;

    plan_for(x, m, &p);
    snprintf(label, sizeof label, "validate %s", tks_method_info(m)->name);
    if (o->common.stage)
        o->common.stage(o->common.progress_ctx, label);
    p.progress = o->common.progress;
    p.progress_ctx = o->common.progress_ctx;
    rc = tks_sample_take(&p, &run);
    if (o->common.stage)
        o->common.stage(o->common.progress_ctx, NULL);
    if (rc)
        return rc;
    tks__kernel_stats_add(&x->v->kernel, &run);
    r->ensembles = run.ensembles;
    r->samples = run.samples;
    r->budget_limited = run.budget_limited;
    r->discarded_migrated = run.discarded_migrated;
    r->discarded_negative = run.discarded_negative;
    r->discarded = run.discarded_migrated + run.discarded_negative;
    r->seconds = run.seconds;
    rc = tks__summarise_run(&run, x->v->quantum, &ens, &r->across);
    if (!rc && o->common.on_samples &&
        (x->hook_rc = o->common.on_samples(o->common.samples_ctx, m, &run, ens,
                                           x->v->quantum)) != 0)
        rc = x->hook_rc;
    tks_sample_run_free(&run);
    if (rc) {
        free(ens);
        return rc;
    }
    tks_ergodicity_test(&r->across, x->v->quantum, &r->erg);
    med = malloc(sizeof *med * r->ensembles);
    pam = malloc(sizeof *pam * r->ensembles);
    if (med && pam) {
        for (e = 0; e < r->ensembles; e++) {
            med[e] = ens[e].median;
            pam[e] = ens[e].pa_mean;
        }
        r->median = tks__median(med, r->ensembles);
        r->pa_mean = tks__median(pam, r->ensembles);
    } else {
        rc = TKS_ENOMEM;
    }
    free(med);
    free(pam);
    free(ens);
    return rc;
}

/* The chain and the empty window in one run (two ensembles), repeated: the difference is what
 * the method saw of TKS_VALIDATE_CHAIN_ADDS dependent adds. */
static int chain(struct vrun *x, enum tks_method m, tks_method_validation *r)
{
    double net_min[TKS_VALIDATE_CHAIN_ROUNDS], net_mean[TKS_VALIDATE_CHAIN_ROUNDS];
    int round, rc;
    for (round = 0; round < TKS_VALIDATE_CHAIN_ROUNDS; round++) {
        tks_sample_plan p;
        tks_sample_run run;
        tks_summary *ens;
        tks_across a;
        plan_for(x, m, &p);
        p.ensembles = 2;
        p.samples = x->o->samples < 5000 ? x->o->samples : 5000;
        p.work_start = 0;
        p.work_step = TKS_VALIDATE_CHAIN_ADDS;
        p.budget_s /= 2 * TKS_VALIDATE_CHAIN_ROUNDS;
        if ((rc = tks_sample_take(&p, &run)) != 0)
            return rc;
        tks__kernel_stats_add(&x->v->kernel, &run);
        rc = tks__summarise_run(&run, x->v->quantum, &ens, &a);
        tks_sample_run_free(&run);
        if (rc)
            return rc;
        net_min[round] = (double)ens[1].min - (double)ens[0].min;
        net_mean[round] = ens[1].pa_mean - ens[0].pa_mean;
        free(ens);
    }
    r->chain_net_min = tks__median(net_min, TKS_VALIDATE_CHAIN_ROUNDS);
    r->chain_net_mean = tks__median(net_mean, TKS_VALIDATE_CHAIN_ROUNDS);
    r->chain_done = 1;
    return 0;
}

/* Among eligible methods: ergodic first, then the lowest overhead, then the steadiest minimum
 * (the paper's variance of minimums), then the lowest variance of the inliers. */
static int better(const tks_method_validation *a, const tks_method_validation *b)
{
    if (a->erg.ergodic != b->erg.ergodic)
        return a->erg.ergodic > b->erg.ergodic;
    if (a->across.min_of_minimums != b->across.min_of_minimums)
        return a->across.min_of_minimums < b->across.min_of_minimums;
    if (a->across.variance_of_minimums != b->across.variance_of_minimums)
        return a->across.variance_of_minimums < b->across.variance_of_minimums;
    return a->across.mean_inlier_variance < b->across.mean_inlier_variance;
}

static void choose(tks_validation *v)
{
    int m, best = -1, n_eligible = 0;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const tks_method_validation *r = &v->methods[m];
        if (!r->selected || !r->available || r->rc || !r->eligible)
            continue;
        n_eligible++;
        if (best < 0 || better(r, &v->methods[best]))
            best = m;
    }
    v->recommended = best;
    if (best < 0) {
        tks__diag0(&v->diags, TKS_DIAG_VALIDATE_NONE);
        return;
    }
    {
        const tks_method_validation *r = &v->methods[best];
        const char *name = tks_method_info((enum tks_method)best)->name;
        if (r->erg.ergodic)
            tks__diag(&v->diags,
                      n_eligible > 1 ? TKS_DIAG_VALIDATE_ERGODIC_BEST : TKS_DIAG_VALIDATE_ERGODIC_ONLY,
                      TKS__DS(name), TKS__DN(r->erg.minimum_spread),
                      TKS__DN(r->across.min_of_minimums));
        else
            tks__diag(&v->diags, TKS_DIAG_VALIDATE_NOT_ERGODIC, TKS__DS(name),
                      TKS__DN(r->across.min_of_minimums), TKS__DN(r->erg.minimum_spread));
    }
}

static int run_all(struct vrun *x)
{
    const struct tks_cpu_features *f = tks_cpu_features_get();
    tks_validation *v = x->v;
    int m, rc;

    v->quantum_method = tks_method_default(f);
    /* the platform's probe has read the same step through the same method (20000 fenced reads:
     * a tenth of a second or more where the fence is CPUID under a hypervisor) */
    if (x->o->quantum > 0) {
        v->quantum = x->o->quantum;
        v->unfenced_step = x->o->unfenced_step;
    } else if ((rc = tks_measure_quantum(v->quantum_method, &v->quantum, &v->unfenced_step)) != 0) {
        return rc;
    }
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        tks_method_validation *r = &v->methods[m];
        r->selected = (x->o->methods & TKS_METHOD_BIT(m)) != 0;
        r->available = tks_method_runnable((enum tks_method)m, v->where, x->kernel_methods);
        if (!r->selected || !r->available)
            continue;
        r->ineligible_reason = tks_method_ineligible_reason((enum tks_method)m, f);
        r->eligible = r->ineligible_reason == NULL;
        r->rc = empty_window(x, (enum tks_method)m, r);
        if (x->hook_rc)
            return x->hook_rc;
        if (r->rc == TKS_EIO || r->rc == TKS_ENOMEM)
            return r->rc;
        if (!r->rc && x->o->chain)
            r->rc = chain(x, (enum tks_method)m, r);
    }
    choose(v);
    v->reference = v->recommended;
    if (v->reference < 0 && v->methods[TKS_METHOD_LFENCE].chain_done)
        v->reference = TKS_METHOD_LFENCE;
    return 0;
}

int tks_validate_run(const tks_validate_options *o, tks_validation **out)
{
    struct vrun x;
    double start = tks__now_s();
    int rc;

    if (!out)
        return TKS_EINVAL;
    *out = NULL;
    if ((rc = options_ok(o)) != 0)
        return rc;
    memset(&x, 0, sizeof x);
    x.o = o;
    if ((rc = tks__analysis_kernel_methods(&o->common, &x.kernel_methods)) != 0)
        return rc;
    if (!(x.v = calloc(1, sizeof *x.v)))
        return TKS_ENOMEM;
    x.v->where = o->common.where;
    x.v->chain = o->chain;
    x.v->chain_adds = TKS_VALIDATE_CHAIN_ADDS;
    x.v->recommended = x.v->reference = -1;
    tks__kernel_stats_init(&x.v->kernel);
    if ((rc = run_all(&x)) != 0) {
        tks_validation_free(x.v);
        return rc;
    }
    x.v->seconds = tks__now_s() - start;
    *out = x.v;
    return 0;
}

void tks_validation_free(tks_validation *v)
{
    if (v)
        tks_diags_free(&v->diags);
    free(v);
}
