/* run.c: a whole sampling run: checks the plan, sizes it to a time budget, allocates before the
 * first sample, places the thread, and paces real-time bursts between ensembles. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "now.h"
#include "procfs.h"
#include "sample/ensemble.h"
#include "sample/placement.h"

#define PILOT_SAMPLES 64u
#define DEFAULT_MIN_SAMPLES 100u

static struct tks_cpu_features g_features;
static pthread_once_t g_features_once = PTHREAD_ONCE_INIT;

static void probe_features(void) { tks_cpu_probe(&g_features); }

const struct tks_cpu_features *tks_cpu_features_get(void)
{
    pthread_once(&g_features_once, probe_features);
    return &g_features;
}

int tks_method_from_name(const char *name)
{
    int m;
    if (!name)
        return -1;
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        if (strcmp(tks_method_info((enum tks_method)m)->name, name) == 0)
            return m;
    return -1;
}

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
    if (!tks_method_available(p->method, tks_cpu_features_get()) || !tks_ensemble_for(p->method))
        return TKS_EUNAVAIL;
    return 0;
}

/* A short run of the heaviest ensemble, to learn what one sample costs in wall time. */
static int pilot(tks_ensemble_fn fn, uint32_t work, int check_aux, double *seconds_per_sample)
{
    uint64_t buf[PILOT_SAMPLES];
    int round, rc = 0;
    /* The first round pays for cold caches and page faults; the faster of two is the cost. */
    *seconds_per_sample = INFINITY;
    for (round = 0; round < 2 && rc == 0; round++) {
        struct tks_ensemble_counts c = {0, 0};
        double t = tks_now_s(), sps;
        rc = fn(buf, PILOT_SAMPLES, work, check_aux, &c);
        /* The pilot also runs the warm-up and the dropped sample: count them. */
        sps = (tks_now_s() - t) / (PILOT_SAMPLES + 4 + c.migrated + c.negative);
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

static int take_ensembles(const tks_sample_plan *p, tks_ensemble_fn fn, int check_aux,
                          tks_sample_run *run)
{
    struct tks_ensemble_counts c = {0, 0};
    struct tks_pacing pc;
    double estimate = run->seconds_per_sample * run->samples;
    uint32_t e;
    int rc = 0;
    tks_pacing_init(&pc, p->root, p->fifo && run->fifo_status == 0);
    for (e = 0; e < run->ensembles && rc == 0; e++) {
        double t0;
        tks_pacing_before(&pc, estimate, &run->rt_pauses);
        t0 = tks_now_s();
        rc = fn(run->ticks + (size_t)e * run->samples, run->samples,
                p->work_start + e * p->work_step, check_aux, &c);
        estimate = tks_now_s() - t0;
        tks_pacing_after(&pc, estimate);
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
    struct tks_placement place;
    tks_ensemble_fn fn;
    uint64_t last_work;
    size_t count;
    double start = tks_now_s();
    int rc, check_aux;

    if (!p || !run)
        return TKS_EINVAL;
    memset(run, 0, sizeof *run);
    memset(&place, 0, sizeof place);
    if ((rc = check_plan(p)) != 0)
        return rc;
    fn = tks_ensemble_for(p->method);
    check_aux = tks_cpu_features_get()->rdtscp;
    run->aux_checked = check_aux;
    run->ensembles = p->ensembles;
    if (p->pin_cpu >= 0)
        run->pin_status = tks_placement_pin(&place, p->pin_cpu);
    last_work = p->work_start + (uint64_t)p->work_step * (p->ensembles - 1);
    if ((rc = pilot(fn, (uint32_t)last_work, check_aux, &run->seconds_per_sample)) != 0)
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

    if (p->fifo)
        run->fifo_status = tks_placement_fifo(&place);
    rc = take_ensembles(p, fn, check_aux, run);
out:
    tks_placement_restore(&place);
    run->seconds = tks_now_s() - start;
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
