/* experiment.c: run the empty-window experiment for each method, summarise it with the paper's
 * statistics, measure the dependent-add chain, and choose the method to recommend. */
#include "cli/experiment.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void experiment_init(struct experiment *x)
{
    int m;
    memset(x, 0, sizeof *x);
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        x->selected[m] = 1;
    x->ensembles = 100;
    x->samples = 10000;
    x->budget_s = 0.4;
    x->chain = 1;
    x->recommended = x->reference = -1;
    cli_common_init(&x->common);
    cli_kernel_init(&x->kernel);
    cli_kernel_stats_init(&x->kstats);
}

/* A method may be recommended only if both of its readings are fenced against the measured
 * code, and if the fences it relies on really order execution on this CPU. */
static const char *ineligible_reason(enum tks_method m, const struct tks_cpu_features *f)
{
    unsigned fl = tks_method_info(m)->flags;
    if (!(fl & TKS_MF_FENCED_BEGIN) && !(fl & TKS_MF_FENCED_END))
        return "unfenced: the work may run outside the window";
    if (!(fl & TKS_MF_FENCED_BEGIN))
        return "begin unfenced: the work may start before the first reading";
    if ((fl & TKS_MF_LFENCE_ORDER) && !f->lfence_serializing)
        return "LFENCE is not dispatch-serialising on this CPU";
    return NULL;
}

static void plan_for(const struct experiment *x, enum tks_method m, tks_sample_plan *p)
{
    tks_sample_plan_init(p, m);
    p->ensembles = x->ensembles;
    p->samples = x->samples;
    p->budget_s = x->budget_s;
    p->pin_cpu = x->common.pin_cpu;
    p->fifo = x->common.fifo;
    p->where = x->kernel.where;
    p->kernel_device = x->kernel.device;
}

double cli_median(double *v, size_t n)
{
    size_t i, j;
    if (n == 0)
        return NAN;
    for (i = 1; i < n; i++) /* n is tiny: insertion sort */
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int cli_summarise_run(const tks_sample_run *run, uint64_t quantum, tks_summary **ens_out,
                     tks_across *across)
{
    tks_summary *ens = malloc(sizeof *ens * run->ensembles);
    uint64_t *scratch = malloc(sizeof *scratch * run->samples);
    int rc = TKS_ENOMEM;
    if (ens && scratch) {
        rc = tks_summarize_ensembles(run->ticks, run->ensembles, run->samples, quantum, scratch, ens);
        if (!rc)
            rc = tks_across_ensembles(ens, run->ensembles, across);
    }
    free(scratch);
    if (rc) {
        free(ens);
        ens = NULL;
    }
    *ens_out = ens;
    return rc;
}

int cli_plot_dir_check(const char *cmd, const char *dir)
{
    char why[600];
    if (tks_plot_dir_ready(dir, why, sizeof why) != 0)
        return cli_failure("%s: %s", cmd, why);
    return 0;
}

void cli_plot_render(const char *dir, int quiet)
{
    char msg[1024];
    tks_plot_render(dir, msg, sizeof msg);
    if (!quiet)
        cli_note("%s", msg);
}

/* The method's figures for --plot: its ensembles (the white paper's minimum and variance per
 * ensemble) and the histogram of all its samples, marked with their pooled median and mean. The
 * pooled summary sorts run->ticks in place rather than a second buffer of up to 10^8 samples:
 * the raw CSV and the ensemble summaries, which need the order, are done by then, and the run
 * is freed right after. */
static int plot_method(struct experiment *x, enum tks_method m, tks_sample_run *run,
                       const tks_summary *ens)
{
    const char *name = tks_method_info(m)->name;
    size_t n = (size_t)run->ensembles * run->samples;
    char file[96], title[256];
    tks_summary all;
    int rc;

    snprintf(file, sizeof file, "validate-%s-ensembles", name);
    snprintf(title, sizeof title, "validate: %s, empty window, %u ensembles of %u samples", name,
             run->ensembles, run->samples);
    errno = 0;
    rc = tks_plot_ensembles(x->plot_dir, file, title, ens, run->ensembles, NULL);
    if (!rc && (rc = tks_summarize(run->ticks, n, x->quantum, run->ticks, &all)) == 0) {
        snprintf(file, sizeof file, "validate-%s-histogram", name);
        snprintf(title, sizeof title, "validate: %s, empty window, all %zu samples (quantum %llu "
                 "tick%s)", name, n, (unsigned long long)x->quantum, x->quantum == 1 ? "" : "s");
        errno = 0;
        rc = tks_plot_histogram(x->plot_dir, file, title, run->ticks, n, x->quantum, all.median,
                                all.mean);
    }
    if (rc) {
        x->plot_rc = rc;
        x->plot_errno = errno;
        return TKS_EIO; /* stops the experiment: --plot was asked for and cannot be honoured */
    }
    return 0;
}

static int empty_window(struct experiment *x, enum tks_method m, struct method_result *r)
{
    tks_sample_plan p;
    tks_sample_run run;
    tks_summary *ens;
    struct cli_progress prog;
    double *med, *pam;
    uint32_t e;
    char label[64];
    int rc;

    plan_for(x, m, &p);
    snprintf(label, sizeof label, "validate %s", tks_method_info(m)->name);
    cli_progress_init(&prog, label, x->common.quiet);
    p.progress = cli_progress_cb;
    p.progress_ctx = &prog;
    rc = tks_sample_take(&p, &run);
    cli_progress_end(&prog);
    if (rc)
        return rc;
    cli_placement_notes(&x->common, &run);
    cli_kernel_stats_add(&x->kstats, &run);
    r->ensembles = run.ensembles;
    r->samples = run.samples;
    r->budget_limited = run.budget_limited;
    r->discarded_migrated = run.discarded_migrated;
    r->discarded_negative = run.discarded_negative;
    r->discarded = run.discarded_migrated + run.discarded_negative;
    r->seconds = run.seconds;
    if (x->raw && tks_csv_samples(x->raw, tks_method_info(m)->name, run.ticks, run.ensembles,
                                  run.samples) != 0) {
        tks_sample_run_free(&run);
        return TKS_EIO;
    }
    rc = cli_summarise_run(&run, x->quantum, &ens, &r->across);
    if (!rc && x->plot_dir)
        rc = plot_method(x, m, &run, ens);
    tks_sample_run_free(&run);
    if (rc) {
        free(ens);
        return rc;
    }
    tks_ergodicity_test(&r->across, x->quantum, &r->erg);
    med = malloc(sizeof *med * r->ensembles);
    pam = malloc(sizeof *pam * r->ensembles);
    if (med && pam) {
        for (e = 0; e < r->ensembles; e++) {
            med[e] = ens[e].median;
            pam[e] = ens[e].pa_mean;
        }
        r->median = cli_median(med, r->ensembles);
        r->pa_mean = cli_median(pam, r->ensembles);
    } else {
        rc = TKS_ENOMEM;
    }
    free(med);
    free(pam);
    free(ens);
    return rc;
}

/* The chain and the empty window in one run (two ensembles), repeated: the difference is what
 * the method saw of CHAIN_ADDS dependent adds. */
static int chain(struct experiment *x, enum tks_method m, struct method_result *r)
{
    double net_min[CHAIN_ROUNDS], net_mean[CHAIN_ROUNDS];
    int round, rc;
    for (round = 0; round < CHAIN_ROUNDS; round++) {
        tks_sample_plan p;
        tks_sample_run run;
        tks_summary *ens;
        tks_across a;
        plan_for(x, m, &p);
        p.ensembles = 2;
        p.samples = x->samples < 5000 ? x->samples : 5000;
        p.work_start = 0;
        p.work_step = CHAIN_ADDS;
        p.budget_s = x->budget_s > 0 ? x->budget_s / (2 * CHAIN_ROUNDS) : 0;
        if ((rc = tks_sample_take(&p, &run)) != 0)
            return rc;
        cli_kernel_stats_add(&x->kstats, &run);
        rc = cli_summarise_run(&run, x->quantum, &ens, &a);
        tks_sample_run_free(&run);
        if (rc)
            return rc;
        net_min[round] = (double)ens[1].min - (double)ens[0].min;
        net_mean[round] = ens[1].pa_mean - ens[0].pa_mean;
        free(ens);
    }
    r->chain_net_min = cli_median(net_min, CHAIN_ROUNDS);
    r->chain_net_mean = cli_median(net_mean, CHAIN_ROUNDS);
    r->chain_done = 1;
    return 0;
}

/* Among eligible methods: ergodic first, then the lowest overhead, then the steadiest minimum
 * (the paper's variance of minimums), then the lowest variance of the inliers. */
static int better(const struct method_result *a, const struct method_result *b)
{
    if (a->erg.ergodic != b->erg.ergodic)
        return a->erg.ergodic > b->erg.ergodic;
    if (a->across.min_of_minimums != b->across.min_of_minimums)
        return a->across.min_of_minimums < b->across.min_of_minimums;
    if (a->across.variance_of_minimums != b->across.variance_of_minimums)
        return a->across.variance_of_minimums < b->across.variance_of_minimums;
    return a->across.mean_inlier_variance < b->across.mean_inlier_variance;
}

static void choose(struct experiment *x)
{
    int m, best = -1, n_eligible = 0;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        struct method_result *r = &x->m[m];
        if (!r->selected || !r->available || r->rc || !r->eligible)
            continue;
        n_eligible++;
        if (best < 0 || better(r, &x->m[best]))
            best = m;
    }
    x->recommended = best;
    if (best < 0) {
        snprintf(x->why, sizeof x->why,
                 "no method that fences both ends of the window could be measured here");
        return;
    }
    {
        const struct method_result *r = &x->m[best];
        const char *name = tks_method_info((enum tks_method)best)->name;
        if (r->erg.ergodic)
            snprintf(x->why, sizeof x->why,
                     "%s fences both ends of the window and is ergodic here (all ensemble minimums "
                     "within %g tick(s) of each other, variances stable)%s; overhead %llu ticks%s",
                     name, r->erg.minimum_spread,
                     n_eligible > 1 ? ", with the lowest overhead and variance of those that are" : "",
                     (unsigned long long)r->across.min_of_minimums,
                     n_eligible > 1 ? "" : " (the only eligible method measured)");
        else
            snprintf(x->why, sizeof x->why,
                     "%s fences both ends of the window and has the lowest overhead (%llu ticks), "
                     "but no eligible method was ergodic here: ensemble minimums spread over %g "
                     "ticks. Pin to a quiet CPU (--pin), try --fifo, and treat single results "
                     "with caution",
                     name, (unsigned long long)r->across.min_of_minimums, r->erg.minimum_spread);
    }
}

int experiment_run(struct experiment *x)
{
    const struct tks_cpu_features *f = tks_cpu_features_get();
    double start = cli_now();
    int m, rc;

    x->quantum_method = tks_quantum_method(f);
    rc = tks_measure_quantum(x->quantum_method, &x->quantum, &x->unfenced_step);
    if (rc)
        return rc;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        struct method_result *r = &x->m[m];
        r->selected = x->selected[m];
        r->available = cli_kernel_available(&x->kernel, (enum tks_method)m);
        if (!r->selected || !r->available)
            continue;
        r->ineligible_why = ineligible_reason((enum tks_method)m, f);
        r->eligible = r->ineligible_why == NULL;
        r->rc = empty_window(x, (enum tks_method)m, r);
        if (r->rc == TKS_EIO || r->rc == TKS_ENOMEM)
            return r->rc;
        if (!r->rc && x->chain)
            r->rc = chain(x, (enum tks_method)m, r);
    }
    choose(x);
    x->reference = x->recommended;
    if (x->reference < 0 && x->m[TKS_METHOD_LFENCE].chain_done)
        x->reference = TKS_METHOD_LFENCE;
    x->seconds = cli_now() - start;
    return 0;
}
