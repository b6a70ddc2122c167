/* SPDX-License-Identifier: MIT */
/* validate.c: the samples of a validation (validate.h): for each method, its empty windows
 * (E ensembles of S samples) and the dependent-add chain beside an empty window, each handed to
 * the analysis (validate_analyse.c) and, with --record, to the recording as it is taken. */
#include "analysis/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/summarise.h"
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
    const tks__rec_sink *sink; /* --record, or NULL */
};

/* A method that can never be recommended here (unfenced at one end: tks_method_ineligible_reason)
 * is measured to show what it would read, its tables and its chain: it gets a quarter of the
 * budget and a floor of 50 samples an ensemble instead of 100. Under a hypervisor CPUID's windows
 * cost several microseconds, and its full budget was over half of validate's time (perf record,
 * Zen 5 guest); with a quarter its minimums still spread over hundreds of quanta, not ergodic
 * either way. */
#define INELIGIBLE_SHARE 0.25
#define INELIGIBLE_MIN_SAMPLES 50

static void plan_for(const struct vrun *x, const tks__validate_samples *s, tks_sample_plan *p)
{
    int eligible = s->ineligible_reason == NULL;
    tks__analysis_plan(&x->o->common, s->m, p);
    p->ensembles = x->o->ensembles;
    p->samples = x->o->samples;
    p->budget_s = x->o->budget_s * (eligible ? 1 : INELIGIBLE_SHARE);
    if (!eligible)
        p->min_samples = INELIGIBLE_MIN_SAMPLES;
}

static void empty_window(const struct vrun *x, tks__validate_samples *s)
{
    const tks_validate_options *o = x->o;
    tks_sample_plan p;
    char label[64];
    plan_for(x, s, &p);
    snprintf(label, sizeof label, "validate %s", tks_method_info(s->m)->name);
    if (o->common.stage)
        o->common.stage(o->common.progress_ctx, label);
    p.progress = o->common.progress;
    p.progress_ctx = o->common.progress_ctx;
    s->rc = tks_sample_take(&p, &s->run);
    if (o->common.stage)
        o->common.stage(o->common.progress_ctx, NULL);
}

/* The chain and the empty window in one run (two ensembles), TKS_VALIDATE_CHAIN_ROUNDS times. */
static void chain(const struct vrun *x, tks__validate_samples *s)
{
    while (s->chain_rounds < TKS_VALIDATE_CHAIN_ROUNDS) {
        tks_sample_plan p;
        plan_for(x, s, &p);
        p.ensembles = 2;
        p.samples = x->o->samples < 5000 ? x->o->samples : 5000;
        p.work_start = 0;
        p.work_step = TKS_VALIDATE_CHAIN_ADDS;
        p.budget_s /= 2 * TKS_VALIDATE_CHAIN_ROUNDS;
        if ((s->chain_rc = tks_sample_take(&p, &s->chain[s->chain_rounds])) != 0)
            return;
        s->chain_rounds++;
    }
}

/* Method m's samples: none when it is not selected or cannot run here. */
static void take(const struct vrun *x, enum tks_method m, tks__validate_samples *s)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->selected = (x->o->methods & TKS_METHOD_BIT(m)) != 0;
    s->available = tks_method_runnable(m, x->v->where, x->kernel_methods);
    if (!s->selected || !s->available)
        return;
    s->ineligible_reason = tks_method_ineligible_reason(m, tks_cpu_features_get());
    empty_window(x, s);
    if (!s->rc && x->o->chain)
        chain(x, s);
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
        tks__validate_samples s;
        take(x, (enum tks_method)m, &s);
        rc = 0;
        if (x->sink && s.selected)
            rc = tks__validate_record_method(x->sink, &s) ? TKS_EIO : 0;
        if (!rc)
            rc = tks__validate_analyse(v, &s, &x->o->common);
        tks__validate_samples_free(&s);
        if (rc)
            return rc;
    }
    tks__validate_conclude(v);
    return 0;
}

int tks__validate_run_recorded(const tks_validate_options *o, const tks__rec_sink *sink,
                               tks_validation **out)
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
    x.sink = sink;
    if ((rc = tks__analysis_kernel_methods(&o->common, &x.kernel_methods)) != 0)
        return rc;
    if (!(x.v = tks__validation_new(o->common.where, o->chain)))
        return TKS_ENOMEM;
    if ((rc = run_all(&x)) != 0) {
        tks_validation_free(x.v);
        return rc;
    }
    x.v->seconds = tks__now_s() - start;
    if (sink) {
        uint32_t n = 0;
        for (int m = 0; m < TKS_METHOD_COUNT; m++)
            n += x.v->methods[m].selected;
        if (tks__validate_record_end(sink, o, x.v, n) != 0) {
            tks_validation_free(x.v);
            return TKS_EIO;
        }
    }
    *out = x.v;
    return 0;
}

int tks_validate_run(const tks_validate_options *o, tks_validation **out)
{
    return tks__validate_run_recorded(o, NULL, out);
}

void tks_validation_free(tks_validation *v)
{
    if (v)
        tks_diags_free(&v->diags);
    free(v);
}
