/* SPDX-License-Identifier: MIT */
/* resolution_report.c: the outputs of the resolution test: the per-n table and the summary as
 * text, the `resolution --json` document, and the staircase figures. */
#include "report/machine/analysis_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

static const char *method_name(const tks_resolution_result *r)
{
    return tks_method_info(r->method)->name;
}

static void fmt_res(char *buf, size_t n, size_t k)
{
    if (k)
        snprintf(buf, n, "%zu instruction%s", k, k == 1 ? "" : "s");
    else
        snprintf(buf, n, "not resolved (no step up to half the range is seen 95%% of the time)");
}

void tks__report_resolution_summary(const tks_resolution_result *r, const tks_platform *p, FILE *f)
{
    char a[128], b[128];
    double dev = r->long_chain_ticks_per_add != 0
                     ? 100.0 * (r->fit_mean.slope / r->long_chain_ticks_per_add - 1) : NAN;
    fmt_res(a, sizeof a, r->res_min);
    fmt_res(b, sizeof b, r->res_mean);
    fprintf(f, "Method %s (%s); n = 0..%u dependent adds, %u samples each; quantum %llu tick(s).\n",
            method_name(r), r->method_reason, r->max_work, r->samples_taken,
            (unsigned long long)r->quantum);
    tks__report_kernel_line(r->where, &r->kernel, p, f);
    fprintf(f, "Fit of the phase-averaged mean over n = %u..%u: %.4f ticks per add (+-%.4f), "
               "intercept %.2f ticks (the overhead), r^2 %.5f, residual sd %.3f ticks.\n",
            r->npoints > 2 ? 1u : 0u, r->max_work, r->fit_mean.slope,
            1.96 * r->fit_mean.slope_se, r->fit_mean.intercept, r->fit_mean.r2,
            r->fit_mean.residual_sd);
    if (r->npoints > 2)
        fprintf(f, "The empty window (n = 0) reads %.2f ticks %s that line: the harness gap, what "
                   "the fences cost around work and not around nothing (benchmarks take it out in "
                   "latency mode).\n",
                fabs(r->harness_gap), r->harness_gap >= 0 ? "below" : "above");
    fprintf(f, "A %u-add chain less a %u-add one gives %.4f ticks per add (%.4f core cycles per "
               "tick, measured with this run): the fit's slope differs by %+.2f%%.\n",
            TKS_WORK_MAX, TKS_WORK_MAX / 4, r->long_chain_ticks_per_add,
            r->long_chain_ticks_per_add > 0 ? 1 / r->long_chain_ticks_per_add : NAN, dev);
    /* In core cycles at the run's own clock; where the chains could not give one (a timer too
     * coarse for 150 adds: arm64 under emulation), at the per-boot estimate, said so. */
    if (r->long_chain_ticks_per_add > 0 || (p && tks_core_cycles_per_tick(p) > 0)) {
        int own = r->long_chain_ticks_per_add > 0;
        fprintf(f, "One dependent add costs %.4f ticks = %.3f core cycles (%s)", r->fit_mean.slope,
                own ? r->fit_mean.slope / r->long_chain_ticks_per_add
                    : r->fit_mean.slope * tks_core_cycles_per_tick(p),
                own ? "the core clock of this run's chains"
                    : p->core.counter ? "cycle counter" : "the per-boot core-clock estimate");
        if (p && p->tsc_hz > 0)
            fprintf(f, " = %.3f ns", tks_ticks_to_ns(p, r->fit_mean.slope));
        fputs(".\n", f);
    }
    fprintf(f, "Spurious minimums: %u of %u ensembles.\n", r->spurious_minimums, r->npoints);
    fprintf(f, "Resolution of the minimum: %s; of the phase-averaged mean: %s.\n", a, b);
}

void tks__report_resolution_text(const tks_resolution_result *r, const tks_platform *p, FILE *f)
{
    static const char *const hdr[] = {"n", "min", "median", "mean", "+-95%", "variance", "max dev"};
    tks__table *t = tks__table_new(7, hdr, "rrrrrrr");
    char c[7][48];
    const char *cells[7];
    uint32_t i;
    int k;
    for (k = 0; k < 7; k++)
        cells[k] = c[k];
    for (i = 0; t && i < r->npoints; i++) {
        const tks_resolution_point *pt = &r->points[i];
        snprintf(c[0], 48, "%u", pt->n);
        tks__fmt_u64(c[1], 48, pt->min);
        tks__fmt_double(c[2], 48, pt->median, 1);
        tks__fmt_double(c[3], 48, pt->mean, 3);
        tks__fmt_double(c[4], 48, pt->mean_ci, 3);
        tks__fmt_double(c[5], 48, pt->variance, 1);
        tks__fmt_u64(c[6], 48, pt->max_deviation);
        tks__table_add_row(t, cells);
    }
    fprintf(f, "Resolution test (white paper 3.3): n dependent adds in the window, in TSC ticks.\n");
    if (p)
        tks__report_units(p, f);
    fprintf(f, "\n");
    if (t)
        tks__table_print(t, f, "");
    tks__table_free(t);
    fprintf(f, "\n");
    tks__report_resolution_summary(r, p, f);
}

static void fits_json(const tks_resolution_result *r, const tks_platform *p, tks__json *j)
{
    tks__json_begin_object(j, "fit");
    tks__json_double(j, "slope", r->fit_mean.slope);
    tks__json_double(j, "slope_se", r->fit_mean.slope_se);
    tks__json_double(j, "intercept", r->fit_mean.intercept);
    tks__json_double(j, "intercept_se", r->fit_mean.intercept_se);
    tks__json_u64(j, "first_n", r->npoints > 2 ? 1 : 0);
    tks__json_double(j, "r2", r->fit_mean.r2);
    tks__json_double(j, "residual_sd", r->fit_mean.residual_sd);
    tks__json_string(j, "of", "phase-averaged mean");
    if (p) {
        tks__json_double(j, "slope_ns", tks_ticks_to_ns(p, r->fit_mean.slope));
        tks__json_double(j, "slope_core_cycles", r->fit_mean.slope * tks_core_cycles_per_tick(p));
    }
    tks__json_end_object(j);
    tks__json_begin_object(j, "fit_min");
    tks__json_double(j, "slope", r->fit_min.slope);
    tks__json_double(j, "intercept", r->fit_min.intercept);
    tks__json_double(j, "r2", r->fit_min.r2);
    tks__json_end_object(j);
}

int tks__report_resolution_json(const tks_resolution_result *r, const tks_platform *p, FILE *f)
{
    tks__json j;
    uint32_t i;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "resolution");
    tks__report_context_json(&j, p, r->quantum);
    tks__json_string(&j, "method", method_name(r));
    tks__json_string(&j, "method_reason", r->method_reason);
    tks__report_kernel_json(r->where, &r->kernel, p, &j);
    tks__json_u64(&j, "quantum_ticks", r->quantum);
    tks__json_u64(&j, "samples_per_point", r->samples_taken);
    tks__json_u64(&j, "discarded", r->discarded);
    tks__json_begin_array(&j, "points");
    for (i = 0; i < r->npoints; i++) {
        const tks_resolution_point *pt = &r->points[i];
        tks__json_begin_object(&j, NULL);
        tks__json_u64(&j, "n", pt->n);
        tks__json_u64(&j, "min", pt->min);
        tks__json_double(&j, "median", pt->median);
        tks__json_double(&j, "mean", pt->mean);
        tks__json_double(&j, "mean_ci95", pt->mean_ci);
        tks__json_double(&j, "variance", pt->variance);
        tks__json_u64(&j, "max_deviation", pt->max_deviation);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_u64(&j, "spurious_minimums", r->spurious_minimums);
    fits_json(r, p, &j);
    tks__json_u64(&j, "resolution_min_instructions", r->res_min);
    tks__json_u64(&j, "resolution_mean_instructions", r->res_mean);
    tks__json_double(&j, "resolution_min_fraction", r->res_min_fraction);
    tks__json_double(&j, "resolution_mean_fraction", r->res_mean_fraction);
    tks__json_double(&j, "long_chain_ticks_per_add", r->long_chain_ticks_per_add);
    tks__json_double(&j, "harness_gap_ticks", r->harness_gap);
    tks__json_double(&j, "add_core_cycles", r->long_chain_ticks_per_add > 0
                                                ? r->fit_mean.slope / r->long_chain_ticks_per_add
                                                : NAN);
    tks__json_double(&j, "seconds", r->seconds);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

/* The staircase of the phase-averaged mean with its interval and the fitted line, and the white
 * paper's per-ensemble minimum and variance against n (the minimum's own staircase). */
int tks__report_resolution_plots(const tks_resolution_result *r, const char *dir)
{
    const char *method = method_name(r);
    double *work = malloc(sizeof *work * r->npoints), *est = malloc(sizeof *est * r->npoints);
    double *lo = malloc(sizeof *lo * r->npoints), *hi = malloc(sizeof *hi * r->npoints);
    uint32_t *n = malloc(sizeof *n * r->npoints), i;
    char file[96], title[256];
    int rc = TKS_ENOMEM, err;

    if (work && est && lo && hi && n && r->ensembles) {
        for (i = 0; i < r->npoints; i++) {
            work[i] = r->points[i].n;
            n[i] = r->points[i].n;
            est[i] = r->points[i].mean;
            lo[i] = r->points[i].mean - r->points[i].mean_ci;
            hi[i] = r->points[i].mean + r->points[i].mean_ci;
        }
        snprintf(file, sizeof file, "resolution-%s", method);
        snprintf(title, sizeof title, "resolution: %s, phase-averaged mean with its 95%% interval, "
                 "%u samples per n", method, r->samples_taken);
        errno = 0;
        rc = tks__plot_resolution(dir, file, title, work, est, lo, hi, r->npoints, &r->fit_mean);
        if (!rc) {
            snprintf(file, sizeof file, "resolution-%s-ensembles", method);
            snprintf(title, sizeof title, "resolution: %s, n dependent adds per ensemble, %u "
                     "samples each", method, r->samples_taken);
            errno = 0;
            rc = tks__plot_ensembles(dir, file, title, r->ensembles, r->npoints, n);
        }
    }
    err = errno; /* for the caller's message, whatever free() does to it */
    free(work);
    free(est);
    free(lo);
    free(hi);
    free(n);
    errno = err;
    return rc;
}
