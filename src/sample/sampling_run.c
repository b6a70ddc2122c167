/* SPDX-License-Identifier: MIT */
/* sampling_run.c: a whole sampling run: checks the plan, sizes it to a time budget, allocates before the
 * first sample, places the thread, and paces real-time bursts between ensembles. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/now.h"
#include "base/procfs.h"
#include "sample/ensemble.h"
#include "sample/kmod_ensembles.h"
#include "sample/placement.h"

#define PILOT_SAMPLES 64u
#define DEFAULT_MIN_SAMPLES 100u

void tks_sample_plan_init(tks_sample_plan *plan, enum tks_method method)
{
    memset(plan, 0, sizeof *plan);
    plan->method = method;
    plan->ensembles = 100;
    plan->samples = 10000;
    plan->pin_cpu = -1;
}

static int check_plan(const tks_sample_plan *p)
{
    uint64_t last_work;
    if ((unsigned)p->method >= TKS_METHOD_COUNT)
        return TKS_EINVAL;
    if (p->ensembles < 1 || p->ensembles > TKS_ENSEMBLES_MAX || p->samples < 2 ||
        p->samples > TKS_SAMPLES_MAX)
        return TKS_ERANGE;
    last_work = p->work_start + (uint64_t)p->work_step * (p->ensembles - 1);
    if (last_work > TKS_WORK_MAX)
        return TKS_ERANGE;
    if (!(p->budget_s >= 0) || !isfinite(p->budget_s))
        return TKS_EINVAL;
    if ((unsigned)p->where > TKS_WHERE_KERNEL_PREEMPT_OFF)
        return TKS_EINVAL;
    /* The kernel module says for itself which methods it runs (tks__kernel_open). */
    if (p->where == TKS_WHERE_USER &&
        (!tks_method_available(p->method, tks_cpu_features_get()) || !tks__ensemble_for(p->method)))
        return TKS_EUNAVAIL;
    return 0;
}

/* Where ensembles come from: this process's loops, or the kernel module. */
struct source {
    tks__ensemble_fn fn;                 /* user space */
    int check_aux;
    struct tks__kernel_session *kernel;  /* or the module, when not NULL */
};

static int source_take(const struct source *src, uint64_t *out, uint32_t samples, uint32_t work,
                       struct tks__ensemble_counts *counts)
{
    if (src->kernel)
        return tks__kernel_ensemble(src->kernel, out, samples, work, counts);
    return src->fn(out, samples, work, src->check_aux, counts);
}

int tks_method_available_where(enum tks_method m, enum tks_where where, const char *device)
{
    tks_kernel_info info;
    if ((unsigned)m >= TKS_METHOD_COUNT)
        return 0;
    if (where == TKS_WHERE_USER)
        return tks_method_runnable(m, where, 0) && tks__ensemble_for(m) != 0;
    return tks_kernel_probe(device, &info) == 0 && tks_method_runnable(m, where, info.methods);
}

/* A short run of the heaviest ensemble, to learn what one sample costs in wall time. */
static int pilot(const struct source *src, uint32_t work, double *seconds_per_sample)
{
    uint64_t buf[PILOT_SAMPLES];
    int round, rc = 0;
    /* The first round pays for cold caches and page faults; the faster of two is the cost. */
    *seconds_per_sample = INFINITY;
    for (round = 0; round < 2 && rc == 0; round++) {
        struct tks__ensemble_counts c = {0, 0};
        double t = tks__now_s(), sps;
        rc = source_take(src, buf, PILOT_SAMPLES, work, &c);
        /* The pilot also runs the warm-up and the dropped sample: count them. */
        sps = (tks__now_s() - t) / (PILOT_SAMPLES + TKS_ENSEMBLE_EXTRA + c.migrated + c.negative);
        if (sps < *seconds_per_sample)
            *seconds_per_sample = sps;
    }
    return rc;
}

static uint32_t fit_budget(const tks_sample_plan *p, double sps, int *limited)
{
    uint32_t floor_s = p->min_samples ? p->min_samples : DEFAULT_MIN_SAMPLES;
    double fit = p->budget_s / ((double)p->ensembles * sps);
    *limited = 0;
    if (p->budget_s <= 0 || fit >= (double)p->samples)
        return p->samples;
    *limited = 1;
    if (floor_s > p->samples)
        floor_s = p->samples;
    return fit < (double)floor_s ? floor_s : (uint32_t)fit;
}

static int take_ensembles(const tks_sample_plan *p, const struct source *src, tks_sample_run *run)
{
    struct tks__ensemble_counts c = {0, 0};
    struct tks__pacing pc;
    double estimate = run->seconds_per_sample * run->samples;
    uint32_t e;
    int rc = 0;
    tks__pacing_init(&pc, p->root, p->fifo && run->fifo_status == 0);
    for (e = 0; e < run->ensembles && rc == 0; e++) {
        double t0;
        tks__pacing_before(&pc, estimate, &run->rt_pauses);
        t0 = tks__now_s();
        rc = source_take(src, run->ticks + (size_t)e * run->samples, run->samples,
                         p->work_start + e * p->work_step, &c);
        estimate = tks__now_s() - t0;
        tks__pacing_after(&pc, estimate);
        if (p->progress)
            p->progress(p->progress_ctx, e + 1, run->ensembles);
    }
    run->discarded_migrated = c.migrated;
    run->discarded_negative = c.negative;
    run->warmup_discarded = e;
    return rc;
}

int tks_sample_take(const tks_sample_plan *p, tks_sample_run *run)
{
    struct tks__placement place;
    struct tks__kernel_session kernel;
    struct source src;
    uint64_t last_work;
    size_t count;
    double start = tks__now_s();
    int rc;

    if (!p || !run)
        return TKS_EINVAL;
    memset(run, 0, sizeof *run);
    memset(&place, 0, sizeof place);
    memset(&src, 0, sizeof src);
    kernel.fd = -1;
    run->kernel_cpu = -1;
    if ((rc = check_plan(p)) != 0)
        return rc;
    run->ensembles = p->ensembles;
    if (p->where == TKS_WHERE_USER) {
        src.fn = tks__ensemble_for(p->method);
        src.check_aux = tks_cpu_features_get()->rdtscp;
        if (p->pin_cpu >= 0)
            run->pin_status = tks__placement_pin(&place, p->pin_cpu);
    } else {
        /* The module runs on the CPU asked for, with the CPU owned; it checks TSC_AUX itself. */
        if ((rc = tks__kernel_open(&kernel, p->kernel_device, p->where, p->method, p->pin_cpu)) != 0)
            return rc;
        src.kernel = &kernel;
    }
    /* In the module preemption is off for every sample, so none can change CPU. */
    run->aux_checked = src.kernel ? 1 : src.check_aux;
    last_work = p->work_start + (uint64_t)p->work_step * (p->ensembles - 1);
    if ((rc = pilot(&src, (uint32_t)last_work, &run->seconds_per_sample)) != 0)
        goto out;
    run->samples = fit_budget(p, run->seconds_per_sample, &run->budget_limited);

    count = (size_t)run->ensembles * run->samples;
    if ((uint64_t)run->ensembles * run->samples > SIZE_MAX / sizeof(uint64_t)) {
        rc = TKS_ENOMEM;
        goto out;
    }
    run->ticks = malloc(count * sizeof(uint64_t));
    if (!run->ticks) {
        rc = TKS_ENOMEM;
        goto out;
    }
    /* Touch every page now, so no first-touch page fault lands between two samples. */
    memset(run->ticks, 0, count * sizeof(uint64_t));

    if (p->fifo && !src.kernel)
        run->fifo_status = tks__placement_fifo(&place);
    rc = take_ensembles(p, &src, run);
out:
    if (src.kernel) {
        run->kernel_sections = kernel.sections;
        run->kernel_section_max_ticks = kernel.section_max_ticks;
        run->kernel_cpu = kernel.cpu_used;
        tks__kernel_close(&kernel);
    }
    tks__placement_restore(&place);
    run->seconds = tks__now_s() - start;
    if (rc != 0)
        tks_sample_run_free(run);
    return rc;
}

void tks_sample_run_free(tks_sample_run *run)
{
    if (!run)
        return;
    free(run->ticks);
    run->ticks = NULL;
}
