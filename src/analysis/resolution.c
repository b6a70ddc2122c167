/* SPDX-License-Identifier: MIT */
/* resolution.c: the samples of the white paper's resolution test (3.3) (resolution.h): one more
 * dependent add per ensemble in interleaved rounds, and a long chain against a short one, handed
 * to the analysis (resolution_analyse.c) and, with --record, to the recording. */
#include "analysis/resolution.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/summarise.h"
#include "analysis/validate.h"
#include "base/now.h"

#define RES_ROUNDS 10

void tks_resolution_options_init(tks_resolution_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = -1;
    o->max_work = 100;
    o->samples = 20000;
    tks__analysis_common_init(&o->common);
}

struct rrun {
    const tks_resolution_options *o;
    uint32_t kernel_methods;
    tks_resolution_result *r;
    const tks__rec_sink *sink; /* --record, or NULL */
};

static int options_ok(const tks_resolution_options *o)
{
    if (!o || o->method < -1 || o->method >= TKS_METHOD_COUNT)
        return TKS_EINVAL;
    if (o->max_work < 1 || o->samples < 2)
        return TKS_EINVAL;
    if (o->max_work > TKS_WORK_MAX || o->samples > TKS_SAMPLES_MAX)
        return TKS_ERANGE;
    return tks__analysis_common_check(&o->common);
}

/* A short validation of the methods that could be recommended (recorded before the test's own
 * section, so that a replay chooses the method again from its samples). */
static int choose_method(struct rrun *x)
{
    tks_validate_options vo;
    tks_validation *v;
    int m, rc;
    tks_validate_options_init(&vo);
    vo.ensembles = 20;
    vo.samples = 2000;
    vo.chain = 0;
    /* The same placement, quietly: no progress and no samples hook for this short run. */
    vo.common.pin_cpu = x->o->common.pin_cpu;
    vo.common.fifo = x->o->common.fifo;
    vo.common.where = x->o->common.where;
    vo.common.kernel_device = x->o->common.kernel_device;
    vo.common.kernel_methods = x->kernel_methods;
    vo.methods = 0;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        unsigned fl = tks_method_info((enum tks_method)m)->flags;
        if ((fl & TKS_MF_FENCED_BEGIN) && (fl & TKS_MF_FENCED_END))
            vo.methods |= TKS_METHOD_BIT(m);
    }
    if ((rc = tks__validate_run_recorded(&vo, x->sink, &v)) != 0)
        return rc;
    tks__resolution_method_of(v, x->r);
    tks_validation_free(v);
    return 0;
}

static int take(struct rrun *x, uint32_t ensembles, uint32_t start, uint32_t step,
                uint32_t samples, tks_sample_run *run)
{
    tks_sample_plan p;
    int rc;
    tks__analysis_plan(&x->o->common, x->r->method, &p);
    p.ensembles = ensembles;
    p.samples = samples;
    p.work_start = start;
    p.work_step = step;
    if ((rc = tks_sample_take(&p, run)) == 0)
        tks__kernel_stats_add(&x->r->kernel, run);
    return rc;
}

/* The long chain against a quarter of it, in two ensembles, a few rounds. */
static int long_chains(struct rrun *x, tks__resolution_samples *s)
{
    int rc;
    for (; s->long_rounds < TKS__RES_LONG_ROUNDS; s->long_rounds++)
        if ((rc = take(x, 2, TKS__RES_SHORT_CHAIN, TKS_WORK_MAX - TKS__RES_SHORT_CHAIN,
                       x->o->samples, &s->longs[s->long_rounds])) != 0)
            return rc;
    return 0;
}

/* All the ensembles n = 0..N, RES_ROUNDS times over with a tenth of the samples each, merged per
 * n: a slow drift of the machine (another tenant, a frequency change) then spreads over every n
 * instead of tilting the line. */
static int take_interleaved(struct rrun *x, tks_sample_run *merged)
{
    const tks_resolution_options *o = x->o;
    uint32_t npoints = x->r->npoints;
    uint32_t rounds = o->samples >= 2 * RES_ROUNDS ? RES_ROUNDS : 1;
    uint32_t per = o->samples / rounds, k, e;
    int rc = 0;
    memset(merged, 0, sizeof *merged);
    merged->ensembles = npoints;
    merged->samples = per * rounds;
    merged->ticks = malloc(sizeof(uint64_t) * npoints * (size_t)merged->samples);
    if (!merged->ticks)
        return TKS_ENOMEM;
    for (k = 0; k < rounds && rc == 0; k++) {
        tks_sample_run run;
        if ((rc = take(x, npoints, 0, 1, per, &run)) != 0)
            break;
        for (e = 0; e < npoints; e++)
            memcpy(merged->ticks + (size_t)e * merged->samples + (size_t)k * per,
                   run.ticks + (size_t)e * per, per * sizeof(uint64_t));
        merged->discarded_migrated += run.discarded_migrated;
        merged->discarded_negative += run.discarded_negative;
        if (k == 0) {
            merged->pin_status = run.pin_status;
            merged->fifo_status = run.fifo_status;
        }
        tks_sample_run_free(&run);
        if (o->common.progress)
            o->common.progress(o->common.progress_ctx, k + 1, rounds);
    }
    if (rc)
        tks_sample_run_free(merged);
    return rc;
}

/* The method, and the quantum it is read with. */
static int method_for(struct rrun *x)
{
    tks_resolution_result *r = x->r;
    enum tks_method qm;
    if (x->o->method < 0)
        return choose_method(x);
    r->method = (enum tks_method)x->o->method;
    if (!tks_method_runnable(r->method, x->o->common.where, x->kernel_methods))
        return TKS_EUNAVAIL;
    r->method_reason = x->o->method_reason ? x->o->method_reason : "given by the caller";
    /* The quantum is read in user space: a ring-0 method (cr0) borrows the fenced one. */
    qm = (tks_method_info(r->method)->flags & TKS_MF_RING0)
             ? tks_quantum_method(tks_cpu_features_get())
             : r->method;
    return tks_measure_quantum(qm, &r->quantum, NULL);
}

static int run_all(struct rrun *x, tks__rec_buf *body)
{
    const tks_resolution_options *o = x->o;
    tks_resolution_result *r = x->r;
    tks__resolution_samples s;
    int rc;

    memset(&s, 0, sizeof s);
    if ((rc = method_for(x)) != 0)
        return rc;
    r->npoints = o->max_work + 1;
    if (o->common.stage)
        o->common.stage(o->common.progress_ctx, "resolution");
    rc = take_interleaved(x, &s.run);
    if (o->common.stage)
        o->common.stage(o->common.progress_ctx, NULL);
    if (!rc)
        rc = long_chains(x, &s);
    if (!rc && body)
        tks__resolution_record_samples(body, r, &s);
    if (!rc)
        rc = tks__resolution_analyse(r, &s, &o->common);
    tks__resolution_samples_free(&s);
    return rc;
}

int tks__resolution_run_recorded(const tks_resolution_options *o, const tks__rec_sink *sink,
                                 tks_resolution_result **out)
{
    struct rrun x;
    double start = tks__now_s();
    tks__rec_buf body = {0};
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
    if (!(x.r = calloc(1, sizeof *x.r)))
        return TKS_ENOMEM;
    x.r->where = o->common.where;
    x.r->max_work = o->max_work;
    tks__kernel_stats_init(&x.r->kernel);
    rc = run_all(&x, sink ? &body : NULL);
    x.r->seconds = tks__now_s() - start;
    if (!rc && sink && tks__resolution_record_end(sink, &body, x.r) != 0)
        rc = TKS_EIO;
    tks__rec_free(&body);
    if (rc) {
        tks_resolution_result_free(x.r);
        return rc;
    }
    *out = x.r;
    return 0;
}

int tks_resolution_run(const tks_resolution_options *o, tks_resolution_result **out)
{
    return tks__resolution_run_recorded(o, NULL, out);
}

void tks_resolution_result_free(tks_resolution_result *r)
{
    if (!r)
        return;
    free(r->points);
    free(r->ensembles);
    free(r);
}
