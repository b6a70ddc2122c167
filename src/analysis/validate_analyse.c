/* SPDX-License-Identifier: MIT */
/* validate_analyse.c: what a validation makes of its samples (validate.h): each method's empty
 * window summarised with the white paper's statistics, the dependent-add chain's net figures,
 * and the method to recommend. The live run and a replay call the same functions. */
#include "analysis/validate.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/summarise.h"
#include "base/diag.h"

tks_validation *tks__validation_new(enum tks_where where, int chain)
{
    tks_validation *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->where = where;
    v->chain = chain;
    v->chain_adds = TKS_VALIDATE_CHAIN_ADDS;
    v->recommended = v->reference = -1;
    tks__kernel_stats_init(&v->kernel);
    return v;
}

void tks__validate_samples_free(tks__validate_samples *s)
{
    tks_sample_run_free(&s->run);
    for (uint32_t k = 0; k < s->chain_rounds && k < TKS_VALIDATE_CHAIN_ROUNDS; k++)
        tks_sample_run_free(&s->chain[k]);
    memset(s, 0, sizeof *s);
}

/* The empty window: the run's figures, the hook (*hook_rc what it returned), ergodicity and the
 * medians over the ensembles. */
static int empty_window(tks_validation *v, const tks__validate_samples *s,
                        tks_method_validation *r, const tks_analysis_common *hooks, int *hook_rc)
{
    const tks_sample_run *run = &s->run;
    tks_summary *ens;
    double *med, *pam;
    int rc;

    tks__kernel_stats_add(&v->kernel, run);
    r->ensembles = run->ensembles;
    r->samples = run->samples;
    r->budget_limited = run->budget_limited;
    r->discarded_migrated = run->discarded_migrated;
    r->discarded_negative = run->discarded_negative;
    r->discarded = run->discarded_migrated + run->discarded_negative;
    r->seconds = run->seconds;
    rc = tks__summarise_run(run, v->quantum, &ens, &r->across);
    if (!rc && hooks && hooks->on_samples &&
        (*hook_rc = hooks->on_samples(hooks->samples_ctx, s->m, run, ens, v->quantum)) != 0)
        rc = *hook_rc;
    if (rc) {
        free(ens);
        return rc;
    }
    tks_ergodicity_test(&r->across, v->quantum, &r->erg);
    med = malloc(sizeof *med * r->ensembles);
    pam = malloc(sizeof *pam * r->ensembles);
    if (med && pam) {
        for (uint32_t e = 0; e < r->ensembles; e++) {
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
static int chain(tks_validation *v, const tks__validate_samples *s, tks_method_validation *r)
{
    double net_min[TKS_VALIDATE_CHAIN_ROUNDS], net_mean[TKS_VALIDATE_CHAIN_ROUNDS];
    uint32_t round;
    int rc;
    for (round = 0; round < s->chain_rounds; round++)
        tks__kernel_stats_add(&v->kernel, &s->chain[round]);
    if (s->chain_rc)
        return s->chain_rc;
    if (s->chain_rounds != TKS_VALIDATE_CHAIN_ROUNDS)
        return TKS_EINVAL;
    for (round = 0; round < TKS_VALIDATE_CHAIN_ROUNDS; round++) {
        tks_summary *ens;
        tks_across a;
        if (s->chain[round].ensembles != 2)
            return TKS_EINVAL;
        if ((rc = tks__summarise_run(&s->chain[round], v->quantum, &ens, &a)) != 0)
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

int tks__validate_analyse(tks_validation *v, const tks__validate_samples *s,
                          const tks_analysis_common *hooks)
{
    tks_method_validation *r = &v->methods[s->m];
    int hook_rc = 0;
    r->selected = s->selected;
    r->available = s->available;
    if (!r->selected || !r->available)
        return 0;
    r->ineligible_reason = s->ineligible_reason;
    r->eligible = r->ineligible_reason == NULL;
    r->rc = s->rc ? s->rc : empty_window(v, s, r, hooks, &hook_rc);
    if (hook_rc)
        return hook_rc;
    if (r->rc == TKS_EIO || r->rc == TKS_ENOMEM)
        return r->rc;
    if (!r->rc && v->chain)
        r->rc = chain(v, s, r);
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

void tks__validate_conclude(tks_validation *v)
{
    choose(v);
    v->reference = v->recommended;
    if (v->reference < 0 && v->methods[TKS_METHOD_LFENCE].chain_done)
        v->reference = TKS_METHOD_LFENCE;
}
