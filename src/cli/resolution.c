/* resolution.c: `tickscope resolution`: how small a difference can be seen with a method here? */
#include "cli/resolution.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/experiment.h"

static const char resolution_help[] =
    "usage: tickscope resolution [options]\n"
    "\n"
    "The white paper's resolution test (3.3): ensemble n measures n dependent register adds\n"
    "(n = 0..N). Prints per n the minimum, median, phase-averaged mean with its 95% interval,\n"
    "variance and max deviation; spurious minimums; a least-squares line through the means\n"
    "(slope = ticks per add, intercept = overhead); and the resolution, in instructions, of\n"
    "the minimum and of the phase-averaged mean: the smallest step in n that 95% of the\n"
    "time raises the estimate by more than its uncertainty.\n"
    "With --kernel the kernel module takes the samples with the CPU owned.\n"
    "\n"
    "options:\n"
    "  --method M       clock method (default: the one a short validation recommends)\n"
    "  --max N          largest number of adds, 1..200 (default 100)\n"
    "  --samples S      samples per ensemble (default 20000)\n"
    "  --plot DIR       write figures for gnuplot to DIR (created if missing): the staircase\n"
    "                   (phase-averaged mean with its 95% interval against n, and the fitted\n"
    "                   line) and the minimum and variance per n, as NAME.dat and NAME.gp; then\n"
    "                   render them to NAME.svg if gnuplot is installed\n";

void resolution_init(struct resolution *r)
{
    memset(r, 0, sizeof *r);
    r->method = -1;
    r->max_work = 100;
    r->samples = 20000;
    cli_common_init(&r->common);
    cli_kernel_init(&r->kernel);
    cli_kernel_stats_init(&r->kstats);
}

void resolution_free(struct resolution *r)
{
    free(r->points);
    r->points = NULL;
}

/* A short validation of the methods that could be recommended. */
static int choose_method(struct resolution *r)
{
    struct experiment x;
    int m, rc;
    experiment_init(&x);
    x.ensembles = 20;
    x.samples = 2000;
    x.chain = 0;
    x.common = r->common;
    x.kernel = r->kernel;
    x.common.quiet = 1;
    x.common.raw = NULL;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        unsigned fl = tks_method_info((enum tks_method)m)->flags;
        x.selected[m] = (fl & TKS_MF_FENCED_BEGIN) && (fl & TKS_MF_FENCED_END);
    }
    if ((rc = experiment_run(&x)) != 0)
        return rc;
    r->method = x.recommended >= 0 ? x.recommended : (int)x.quantum_method;
    r->method_note = x.recommended >= 0 ? "recommended by a short validation" :
                                          "no fenced method validated; using the quantum probe's";
    r->quantum = x.quantum;
    return 0;
}

static int take(struct resolution *r, uint32_t ensembles, uint32_t start, uint32_t step,
                uint32_t samples, tks_sample_run *run, struct cli_progress *prog)
{
    tks_sample_plan p;
    int rc;
    tks_sample_plan_init(&p, (enum tks_method)r->method);
    p.ensembles = ensembles;
    p.samples = samples;
    p.work_start = start;
    p.work_step = step;
    p.pin_cpu = r->common.pin_cpu;
    p.fifo = r->common.fifo;
    p.where = r->kernel.where;
    p.kernel_device = r->kernel.device;
    if (prog) {
        p.progress = cli_progress_cb;
        p.progress_ctx = prog;
    }
    if ((rc = tks_sample_take(&p, run)) == 0)
        cli_kernel_stats_add(&r->kstats, run);
    return rc;
}

/* Ticks per add from the longest chain the sampler carries against an empty window. */
static int long_chain(struct resolution *r)
{
    double v[LONG_CHAIN_ROUNDS];
    int i, rc;
    for (i = 0; i < LONG_CHAIN_ROUNDS; i++) {
        tks_sample_run run;
        tks_summary *ens;
        tks_across a;
        if ((rc = take(r, 2, 0, TKS_WORK_MAX, r->samples, &run, NULL)) != 0)
            return rc;
        rc = cli_summarise_run(&run, r->quantum, &ens, &a);
        tks_sample_run_free(&run);
        if (rc)
            return rc;
        v[i] = (ens[1].pa_mean - ens[0].pa_mean) / TKS_WORK_MAX;
        free(ens);
    }
    r->long_chain_ticks_per_add = cli_median(v, LONG_CHAIN_ROUNDS);
    return 0;
}

static int analyse(struct resolution *r, const tks_summary *ens, const tks_across *a)
{
    double *x = malloc(sizeof *x * r->npoints), *ymean = malloc(sizeof *ymean * r->npoints);
    double *ymin = malloc(sizeof *ymin * r->npoints), *umean = malloc(sizeof *umean * r->npoints);
    double *umin = malloc(sizeof *umin * r->npoints);
    uint32_t i;
    int rc = TKS_ENOMEM;
    if (x && ymean && ymin && umean && umin) {
        for (i = 0; i < r->npoints; i++) {
            struct res_point *pt = &r->points[i];
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
        rc = tks_linear_fit(x, ymean, r->npoints, &r->fit_mean);
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

/* All the ensembles n = 0..N, RES_ROUNDS times over with a tenth of the samples each, merged per
 * n: a slow drift of the machine (another tenant, a frequency change) then spreads over every n
 * instead of tilting the line. */
static int take_interleaved(struct resolution *r, tks_sample_run *merged, struct cli_progress *prog)
{
    uint32_t rounds = r->samples >= 2 * RES_ROUNDS ? RES_ROUNDS : 1;
    uint32_t per = r->samples / rounds, k, e;
    int rc = 0;
    memset(merged, 0, sizeof *merged);
    merged->ensembles = r->npoints;
    merged->samples = per * rounds;
    merged->ticks = malloc(sizeof(uint64_t) * r->npoints * (size_t)merged->samples);
    if (!merged->ticks)
        return TKS_ENOMEM;
    for (k = 0; k < rounds && rc == 0; k++) {
        tks_sample_run run;
        if ((rc = take(r, r->npoints, 0, 1, per, &run, NULL)) != 0)
            break;
        for (e = 0; e < r->npoints; e++)
            memcpy(merged->ticks + (size_t)e * merged->samples + (size_t)k * per,
                   run.ticks + (size_t)e * per, per * sizeof(uint64_t));
        merged->discarded_migrated += run.discarded_migrated;
        merged->discarded_negative += run.discarded_negative;
        if (k == 0) {
            merged->pin_status = run.pin_status;
            merged->fifo_status = run.fifo_status;
        }
        tks_sample_run_free(&run);
        cli_progress_cb(prog, k + 1, rounds);
    }
    if (rc)
        tks_sample_run_free(merged);
    return rc;
}

/* resolution_run, handing the per-n summaries to *keep (free() them) when keep is not NULL:
 * --plot draws them after the run without measuring again. */
static int run_keep(struct resolution *r, tks_summary **keep)
{
    tks_sample_run run;
    tks_summary *ens = NULL;
    tks_across a;
    struct cli_progress prog;
    double start = cli_now();
    int rc;

    if (r->method < 0) {
        if ((rc = choose_method(r)) != 0)
            return rc;
    } else {
        if (!cli_kernel_available(&r->kernel, (enum tks_method)r->method))
            return TKS_EUNAVAIL;
        if (!r->method_note)
            r->method_note = "chosen with --method";
        /* The quantum is read in user space: a ring-0 method (cr0) borrows the fenced one. */
        enum tks_method qm = (tks_method_info((enum tks_method)r->method)->flags & TKS_MF_RING0)
                                 ? tks_quantum_method(tks_cpu_features_get())
                                 : (enum tks_method)r->method;
        if ((rc = tks_measure_quantum(qm, &r->quantum, NULL)) != 0)
            return rc;
    }
    r->npoints = r->max_work + 1;
    r->points = calloc(r->npoints, sizeof *r->points);
    if (!r->points)
        return TKS_ENOMEM;
    cli_progress_init(&prog, "resolution", r->common.quiet);
    rc = take_interleaved(r, &run, &prog);
    cli_progress_end(&prog);
    if (rc)
        return rc;
    cli_placement_notes(&r->common, &run);
    r->samples_taken = run.samples;
    r->discarded = run.discarded_migrated + run.discarded_negative;
    if (r->raw && tks_csv_samples(r->raw, tks_method_info((enum tks_method)r->method)->name,
                                  run.ticks, run.ensembles, run.samples) != 0)
        rc = TKS_EIO;
    if (!rc)
        rc = cli_summarise_run(&run, r->quantum, &ens, &a);
    tks_sample_run_free(&run);
    if (!rc)
        rc = analyse(r, ens, &a);
    if (!rc)
        rc = long_chain(r);
    if (!rc && keep)
        *keep = ens;
    else
        free(ens);
    r->seconds = cli_now() - start;
    return rc;
}

int resolution_run(struct resolution *r)
{
    return run_keep(r, NULL);
}

/* --plot: the staircase of the phase-averaged mean with its interval and the fitted line, and the
 * white paper's per-ensemble minimum and variance against n (the minimum's own staircase). */
static int write_plots(const struct resolution *r, const tks_summary *ens, const char *dir)
{
    const char *method = tks_method_info((enum tks_method)r->method)->name;
    double *work = malloc(sizeof *work * r->npoints), *est = malloc(sizeof *est * r->npoints);
    double *lo = malloc(sizeof *lo * r->npoints), *hi = malloc(sizeof *hi * r->npoints);
    uint32_t *n = malloc(sizeof *n * r->npoints), i;
    char file[96], title[256];
    int rc = TKS_ENOMEM, err;

    if (work && est && lo && hi && n) {
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
        rc = tks_plot_resolution(dir, file, title, work, est, lo, hi, r->npoints, &r->fit_mean);
        if (!rc) {
            snprintf(file, sizeof file, "resolution-%s-ensembles", method);
            snprintf(title, sizeof title, "resolution: %s, n dependent adds per ensemble, %u "
                     "samples each", method, r->samples_taken);
            errno = 0;
            rc = tks_plot_ensembles(dir, file, title, ens, r->npoints, n);
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

static void fmt_res(char *buf, size_t n, size_t k)
{
    if (k)
        snprintf(buf, n, "%zu instruction%s", k, k == 1 ? "" : "s");
    else
        snprintf(buf, n, "not resolved (no step up to half the range is seen 95%% of the time)");
}

void resolution_print_summary(const struct resolution *r, FILE *f)
{
    char a[128], b[128];
    double dev = r->long_chain_ticks_per_add != 0
                     ? 100.0 * (r->fit_mean.slope / r->long_chain_ticks_per_add - 1) : NAN;
    fmt_res(a, sizeof a, r->res_min);
    fmt_res(b, sizeof b, r->res_mean);
    fprintf(f, "Method %s (%s); n = 0..%u dependent adds, %u samples each; quantum %llu tick(s).\n",
            tks_method_info((enum tks_method)r->method)->name, r->method_note, r->max_work,
            r->samples_taken, (unsigned long long)r->quantum);
    cli_kernel_print(&r->kernel, &r->kstats, r->platform, f);
    fprintf(f, "Fit of the phase-averaged mean: %.4f ticks per add (+-%.4f), intercept %.2f ticks "
               "(the overhead), r^2 %.5f, residual sd %.3f ticks.\n",
            r->fit_mean.slope, 1.96 * r->fit_mean.slope_se, r->fit_mean.intercept, r->fit_mean.r2,
            r->fit_mean.residual_sd);
    fprintf(f, "A %u-add chain gives %.4f ticks per add: the fit's slope differs by %+.2f%%.\n",
            TKS_WORK_MAX, r->long_chain_ticks_per_add, dev);
    if (r->platform && tks_core_cycles_per_tick(r->platform) > 0)
        fprintf(f, "One dependent add costs %.4f ticks = %.3f core cycles (%s) = %.3f ns.\n",
                r->fit_mean.slope, r->fit_mean.slope * tks_core_cycles_per_tick(r->platform),
                r->platform->core.counter ? "cycle counter" : "core clock estimated",
                tks_ticks_to_ns(r->platform, r->fit_mean.slope));
    fprintf(f, "Spurious minimums: %u of %u ensembles.\n", r->spurious_minimums, r->npoints);
    fprintf(f, "Resolution of the minimum: %s; of the phase-averaged mean: %s.\n", a, b);
}

void resolution_print_text(const struct resolution *r, FILE *f)
{
    static const char *const hdr[] = {"n", "min", "median", "mean", "+-95%", "variance", "max dev"};
    tks_table *t = tks_table_new(7, hdr, "rrrrrrr");
    char c[7][48];
    const char *cells[7];
    uint32_t i;
    int k;
    for (k = 0; k < 7; k++)
        cells[k] = c[k];
    for (i = 0; t && i < r->npoints; i++) {
        const struct res_point *p = &r->points[i];
        snprintf(c[0], 48, "%u", p->n);
        tks_fmt_u64(c[1], 48, p->min);
        tks_fmt_double(c[2], 48, p->median, 1);
        tks_fmt_double(c[3], 48, p->mean, 3);
        tks_fmt_double(c[4], 48, p->mean_ci, 3);
        tks_fmt_double(c[5], 48, p->variance, 1);
        tks_fmt_u64(c[6], 48, p->max_deviation);
        tks_table_add_row(t, cells);
    }
    fprintf(f, "Resolution test (white paper 3.3): n dependent adds in the window, in TSC ticks.\n");
    if (r->platform)
        tks_report_units(r->platform, f);
    fprintf(f, "\n");
    if (t)
        tks_table_print(t, f, "");
    tks_table_free(t);
    fprintf(f, "\n");
    resolution_print_summary(r, f);
}

void resolution_write_json(const struct resolution *r, tks_json *j)
{
    uint32_t i;
    tks_json_string(j, "method", tks_method_info((enum tks_method)r->method)->name);
    tks_json_string(j, "method_reason", r->method_note);
    cli_kernel_json(&r->kernel, &r->kstats, r->platform, j);
    tks_json_u64(j, "quantum_ticks", r->quantum);
    tks_json_u64(j, "samples_per_point", r->samples_taken);
    tks_json_u64(j, "discarded", r->discarded);
    tks_json_begin_array(j, "points");
    for (i = 0; i < r->npoints; i++) {
        const struct res_point *p = &r->points[i];
        tks_json_begin_object(j, NULL);
        tks_json_u64(j, "n", p->n);
        tks_json_u64(j, "min", p->min);
        tks_json_double(j, "median", p->median);
        tks_json_double(j, "mean", p->mean);
        tks_json_double(j, "mean_ci95", p->mean_ci);
        tks_json_double(j, "variance", p->variance);
        tks_json_u64(j, "max_deviation", p->max_deviation);
        tks_json_end_object(j);
    }
    tks_json_end_array(j);
    tks_json_u64(j, "spurious_minimums", r->spurious_minimums);
    tks_json_begin_object(j, "fit");
    tks_json_double(j, "slope", r->fit_mean.slope);
    tks_json_double(j, "slope_se", r->fit_mean.slope_se);
    tks_json_double(j, "intercept", r->fit_mean.intercept);
    tks_json_double(j, "intercept_se", r->fit_mean.intercept_se);
    tks_json_double(j, "r2", r->fit_mean.r2);
    tks_json_double(j, "residual_sd", r->fit_mean.residual_sd);
    tks_json_string(j, "of", "phase-averaged mean");
    if (r->platform) {
        tks_json_double(j, "slope_ns", tks_ticks_to_ns(r->platform, r->fit_mean.slope));
        tks_json_double(j, "slope_core_cycles", r->fit_mean.slope * tks_core_cycles_per_tick(r->platform));
    }
    tks_json_end_object(j);
    tks_json_begin_object(j, "fit_min");
    tks_json_double(j, "slope", r->fit_min.slope);
    tks_json_double(j, "intercept", r->fit_min.intercept);
    tks_json_double(j, "r2", r->fit_min.r2);
    tks_json_end_object(j);
    tks_json_u64(j, "resolution_min_instructions", r->res_min);
    tks_json_u64(j, "resolution_mean_instructions", r->res_mean);
    tks_json_double(j, "resolution_min_fraction", r->res_min_fraction);
    tks_json_double(j, "resolution_mean_fraction", r->res_mean_fraction);
    tks_json_double(j, "long_chain_ticks_per_add", r->long_chain_ticks_per_add);
    tks_json_double(j, "seconds", r->seconds);
}

static int parse(int argc, char **argv, struct resolution *r, const char **plot, int *help)
{
    int i, missing, rc;
    const char *v;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            *help = 1;
            return 0;
        }
        if ((v = cli_option_value(argc, argv, &i, "--method", &missing)) || missing) {
            if (missing)
                return cli_usage_error("resolution", "--method needs a method name");
            r->method = tks_method_from_name(v);
            if (r->method < 0 || !cli_method_of_arch(r->method)) {
                int sel[TKS_METHOD_COUNT];
                return cli_parse_methods("resolution", v, sel); /* prints the list of methods */
            }
        } else if ((v = cli_option_value(argc, argv, &i, "--max", &missing)) || missing) {
            if (missing || cli_parse_u32("resolution", "--max", v, 1, TKS_WORK_MAX, &r->max_work))
                return missing ? cli_usage_error("resolution", "--max needs a number") : CLI_EXIT_USAGE;
        } else if ((v = cli_option_value(argc, argv, &i, "--samples", &missing)) || missing) {
            if (missing || cli_parse_u32("resolution", "--samples", v, 2, TKS_SAMPLES_MAX, &r->samples))
                return missing ? cli_usage_error("resolution", "--samples needs a number") : CLI_EXIT_USAGE;
        } else if ((v = cli_option_value(argc, argv, &i, "--plot", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("resolution", "--plot needs a directory");
            *plot = v;
        } else if ((rc = cli_common_option("resolution", argc, argv, &i, &r->common)) != 0 ||
                   (rc = cli_kernel_option("resolution", argc, argv, &i, &r->kernel)) != 0) {
            if (rc < 0)
                return -rc;
        } else {
            return cli_usage_error("resolution", "unknown option '%s'", argv[i]);
        }
    }
    if (r->method >= 0) {
        int sel[TKS_METHOD_COUNT] = {0};
        sel[r->method] = 1;
        return cli_kernel_finish("resolution", &r->kernel, &r->common, sel);
    }
    return cli_kernel_finish("resolution", &r->kernel, &r->common, NULL);
}

int cmd_resolution(int argc, char **argv)
{
    struct resolution r;
    tks_atomic_file out, raw;
    tks_platform platform;
    tks_summary *ens = NULL;
    const char *plot = NULL;
    int help = 0, rc;

    resolution_init(&r);
    if ((rc = parse(argc, argv, &r, &plot, &help)) != 0)
        return rc;
    if (help) {
        fputs(resolution_help, stdout);
        fputs(cli_kernel_help, stdout);
        fputs(cli_common_help, stdout);
        return CLI_EXIT_OK;
    }
    if ((rc = cli_kernel_ready("resolution", &r.kernel)) != 0)
        return rc;
    if (r.method >= 0 && !cli_kernel_available(&r.kernel, (enum tks_method)r.method))
        return cli_failure("resolution: method '%s' is not available %s",
                           tks_method_info((enum tks_method)r.method)->name,
                           r.kernel.where == TKS_WHERE_USER ? "on this CPU" : "in the kernel module");
    if ((rc = cli_open_outputs("resolution", &r.common, &out, &raw)) != 0)
        return rc;
    if (plot && (rc = cli_plot_dir_check("resolution", plot)) != 0) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return rc;
    }
    if ((rc = cli_platform("resolution", &r.common, &platform)) != 0) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return rc;
    }
    r.platform = &platform;
    if (raw.f && tks_csv_header(raw.f) != 0)
        rc = TKS_EIO;
    r.raw = raw.f;
    if (!rc)
        rc = run_keep(&r, plot ? &ens : NULL);
    if (rc) {
        resolution_free(&r);
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return cli_failure("resolution: %s", tks_strerror(rc));
    }
    if (plot) {
        int err;
        rc = write_plots(&r, ens, plot);
        err = errno; /* before free() */
        free(ens);
        if (rc) {
            resolution_free(&r);
            tks_atomic_abort(&raw);
            tks_atomic_abort(&out);
            return cli_failure("resolution: cannot write plots to '%s': %s", plot,
                               rc == TKS_EIO && err ? strerror(err) : tks_strerror(rc));
        }
    }
    if (r.common.json) {
        tks_json j;
        tks_json_init(&j, out.f);
        tks_json_begin_object(&j, NULL);
        tks_json_string(&j, "command", "resolution");
        cli_json_context(&j, &platform, r.quantum);
        resolution_write_json(&r, &j);
        tks_json_end_object(&j);
        rc = tks_json_finish(&j);
    } else {
        resolution_print_text(&r, out.f);
    }
    resolution_free(&r);
    if (rc) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return cli_failure("resolution: could not write the JSON document");
    }
    rc = cli_close_outputs(&out, &raw, &r.common);
    if (rc == CLI_EXIT_OK && plot)
        cli_plot_render(plot, r.common.quiet);
    return rc;
}
