/* validate.c: `tickscope validate`: which way of reading the clock can be trusted here? */
#include "cli/validate.h"

#include <stdlib.h>
#include <string.h>

static const char validate_help[] =
    "usage: tickscope validate [options]\n"
    "\n"
    "Runs the white paper's empty-window experiment for every clock-reading method this CPU\n"
    "has: E ensembles of S samples with nothing between the two readings. Prints, per method,\n"
    "the overhead (minimum), total variance, absolute max deviation, variance of variances,\n"
    "variance of minimums, spurious minimums, discarded samples, and whether the method is\n"
    "ergodic; measures a 200-add dependent chain with every method to show which let the\n"
    "measured code escape the window; and recommends a method.\n"
    "With --kernel the kernel module takes the samples with the CPU owned (white paper 2.2)\n"
    "and the same tables are printed, to be put side by side with a user-space run.\n"
    "\n"
    "options:\n"
    "  --method LIST    comma-separated methods (default: all); see 'tickscope methods'\n"
    "  --ensembles E    ensembles per method (default 100)\n"
    "  --samples S      samples per ensemble (default 10000)\n"
    "  --budget SECS    wall-time budget per method; slow methods (CPUID under a hypervisor)\n"
    "                   get fewer samples per ensemble, never fewer than 100 (default 0.4;\n"
    "                   60 with --paper; 0 = no budget)\n"
    "  --paper          the paper's 1000 ensembles x 100000 samples\n"
    "  --no-chain       skip the dependent-add chain comparison\n"
    "  --plot DIR       write figures for gnuplot to DIR (created if missing): for each method,\n"
    "                   its minimum and variance per ensemble (the white paper's figures) and a\n"
    "                   histogram of all its samples, as NAME.dat and NAME.gp; then render them\n"
    "                   to NAME.svg if gnuplot is installed (else: cd DIR && gnuplot *.gp)\n";

static int parse(int argc, char **argv, struct experiment *x, int *help)
{
    int i, paper = 0, budget_given = 0, e_given = 0, s_given = 0, m_given = 0, missing, r;
    const char *v;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            *help = 1;
            return 0;
        }
        if (strcmp(a, "--paper") == 0) {
            paper = 1;
        } else if (strcmp(a, "--no-chain") == 0) {
            x->chain = 0;
        } else if ((v = cli_option_value(argc, argv, &i, "--method", &missing)) || missing) {
            if (missing || cli_parse_methods("validate", v, x->selected))
                return missing ? cli_usage_error("validate", "--method needs a list") : CLI_EXIT_USAGE;
            m_given = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--ensembles", &missing)) || missing) {
            if (missing || cli_parse_u32("validate", "--ensembles", v, 2, TKS_ENSEMBLES_MAX, &x->ensembles))
                return missing ? cli_usage_error("validate", "--ensembles needs a number") : CLI_EXIT_USAGE;
            e_given = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--samples", &missing)) || missing) {
            if (missing || cli_parse_u32("validate", "--samples", v, 2, TKS_SAMPLES_MAX, &x->samples))
                return missing ? cli_usage_error("validate", "--samples needs a number") : CLI_EXIT_USAGE;
            s_given = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--plot", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("validate", "--plot needs a directory");
            x->plot_dir = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--budget", &missing)) || missing) {
            if (missing || cli_parse_seconds("validate", "--budget", v, &x->budget_s))
                return missing ? cli_usage_error("validate", "--budget needs seconds") : CLI_EXIT_USAGE;
            budget_given = 1;
        } else if ((r = cli_common_option("validate", argc, argv, &i, &x->common)) != 0 ||
                   (r = cli_kernel_option("validate", argc, argv, &i, &x->kernel)) != 0) {
            if (r < 0)
                return -r;
        } else {
            return cli_usage_error("validate", "unknown option '%s'", a);
        }
    }
    if ((r = cli_kernel_finish("validate", &x->kernel, &x->common, m_given ? x->selected : NULL)) != 0)
        return r;
    if (paper) {
        if (!e_given)
            x->ensembles = 1000;
        if (!s_given)
            x->samples = 100000;
        if (!budget_given)
            x->budget_s = 60;
    }
    return 0;
}

static void fmt_var(char *buf, size_t n, double v) { tks_fmt_double(buf, n, v, v < 100 ? 2 : 0); }

void validate_print_text(const struct experiment *x, FILE *f)
{
    static const char *const hdr[] = {"method", "overhead", "total var", "abs max dev",
                                      "var of vars", "var of mins", "spurious", "discarded",
                                      "E x S", "ergodic"};
    tks_table *t = tks_table_new(10, hdr, "lrrrrrrrrl");
    char c[10][64];
    const char *cells[10];
    int m, k;
    fprintf(f, "Empty-window experiment (white paper 3.1.2, 3.2.2): every figure in TSC ticks, "
               "variances in ticks^2.\n");
    fprintf(f, "Timer quantum: %llu tick(s): fenced reads advance in steps of %llu",
            (unsigned long long)x->quantum, (unsigned long long)x->quantum);
    if (x->unfenced_step)
        fprintf(f, "; back-to-back unfenced reads differ by at least %llu",
                (unsigned long long)x->unfenced_step);
    fprintf(f, ".\n");
    tks_report_units(&x->platform, f);
    cli_kernel_print(&x->kernel, &x->kstats, &x->platform, f);
    fprintf(f, "\n");
    for (k = 0; k < 10; k++)
        cells[k] = c[k];
    for (m = 0; t && m < TKS_METHOD_COUNT; m++) {
        const struct method_result *r = &x->m[m];
        if (!r->selected || !cli_kernel_listed(&x->kernel, m))
            continue;
        snprintf(c[0], 64, "%s", tks_method_info((enum tks_method)m)->name);
        if (!r->available || r->rc) {
            for (k = 1; k < 10; k++)
                strcpy(c[k], "-");
            snprintf(c[9], 64, "%s", !r->available ? "unavailable" : tks_strerror(r->rc));
        } else {
            if (x->quantum > 1)
                snprintf(c[1], 64, "%llu (%gq)", (unsigned long long)r->across.min_of_minimums,
                         (double)r->across.min_of_minimums / (double)x->quantum);
            else
                snprintf(c[1], 64, "%llu", (unsigned long long)r->across.min_of_minimums);
            fmt_var(c[2], 64, r->across.total_variance);
            tks_fmt_u64(c[3], 64, r->across.abs_max_deviation);
            fmt_var(c[4], 64, r->across.variance_of_variances);
            fmt_var(c[5], 64, r->across.variance_of_minimums);
            snprintf(c[6], 64, "%u", r->across.spurious_minimums);
            tks_fmt_u64(c[7], 64, r->discarded);
            snprintf(c[8], 64, "%u x %u%s", r->ensembles, r->samples, r->budget_limited ? "*" : "");
            snprintf(c[9], 64, "%s", r->erg.ergodic ? "yes" : "no");
        }
        tks_table_add_row(t, cells);
    }
    if (t)
        tks_table_print(t, f, "");
    tks_table_free(t);
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        if (x->m[m].selected && x->m[m].budget_limited) {
            fprintf(f, "* fewer samples per ensemble to fit the time budget (--budget).\n");
            break;
        }
    fprintf(f, "\nErgodic: ensemble minimums agree within one quantum, and the spread of the "
               "ensembles' inlier variances is within max(quantum^2, half their mean).\n");

    if (x->chain && x->reference >= 0) {
        static const char *const h2[] = {"method", "net (min)", "net (mean)", "vs ref", "note"};
        tks_table *t2 = tks_table_new(5, h2, "lrrrl");
        const struct method_result *ref = &x->m[x->reference];
        fprintf(f, "\n%u dependent adds measured by each method, minus its empty window "
                   "(reference: %s):\n\n",
                CHAIN_ADDS, tks_method_info((enum tks_method)x->reference)->name);
        for (m = 0; t2 && m < TKS_METHOD_COUNT; m++) {
            const struct method_result *r = &x->m[m];
            if (!r->chain_done)
                continue;
            snprintf(c[0], 64, "%s", tks_method_info((enum tks_method)m)->name);
            tks_fmt_double(c[1], 64, r->chain_net_min, 0);
            tks_fmt_double(c[2], 64, r->chain_net_mean, 1);
            snprintf(c[3], 64, "%+.1f", r->chain_net_mean - ref->chain_net_mean);
            snprintf(c[4], 64, "%s", r->ineligible_why ? r->ineligible_why : "fenced both ends");
            tks_table_add_row(t2, cells);
        }
        if (t2)
            tks_table_print(t2, f, "");
        tks_table_free(t2);
    }
    fprintf(f, "\n");
    if (x->recommended >= 0)
        fprintf(f, "Recommended: %s. %s.\n", tks_method_info((enum tks_method)x->recommended)->name,
                x->why);
    else
        fprintf(f, "Recommended: none. %s.\n", x->why);
}

void validate_write_json(const struct experiment *x, tks_json *j)
{
    int m;
    cli_kernel_json(&x->kernel, &x->kstats, &x->platform, j);
    tks_json_u64(j, "quantum_ticks", x->quantum);
    tks_json_u64(j, "unfenced_step_ticks", x->unfenced_step);
    tks_json_string(j, "recommended",
                    x->recommended >= 0 ? tks_method_info((enum tks_method)x->recommended)->name : NULL);
    tks_json_string(j, "recommendation_reason", x->why);
    tks_json_double(j, "seconds", x->seconds);
    tks_json_begin_array(j, "methods");
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const struct method_result *r = &x->m[m];
        const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
        if (!r->selected || !cli_kernel_listed(&x->kernel, m))
            continue;
        tks_json_begin_object(j, NULL);
        tks_json_string(j, "name", mi->name);
        tks_json_string(j, "begin", mi->begin);
        tks_json_string(j, "end", mi->end);
        tks_json_bool(j, "available", r->available);
        tks_json_bool(j, "eligible", r->eligible);
        tks_json_string(j, "ineligible_reason", r->ineligible_why);
        if (r->available && r->rc)
            tks_json_string(j, "error", tks_strerror(r->rc));
        if (r->available && !r->rc) {
            tks_json_u64(j, "overhead_ticks", r->across.min_of_minimums);
            tks_json_double(j, "overhead_quanta", (double)r->across.min_of_minimums / (double)x->quantum);
            tks_json_double(j, "total_variance", r->across.total_variance);
            tks_json_u64(j, "abs_max_deviation", r->across.abs_max_deviation);
            tks_json_double(j, "variance_of_variances", r->across.variance_of_variances);
            tks_json_double(j, "variance_of_minimums", r->across.variance_of_minimums);
            tks_json_u64(j, "spurious_minimums", r->across.spurious_minimums);
            tks_json_u64(j, "ensembles", r->ensembles);
            tks_json_u64(j, "samples_per_ensemble", r->samples);
            tks_json_bool(j, "budget_limited", r->budget_limited);
            tks_json_u64(j, "discarded", r->discarded);
            tks_json_u64(j, "discarded_migrated", r->discarded_migrated);
            tks_json_u64(j, "discarded_negative", r->discarded_negative);
            tks_json_bool(j, "ergodic", r->erg.ergodic);
            tks_json_begin_object(j, "ergodicity");
            tks_json_bool(j, "minimum_stable", r->erg.minimum_stable);
            tks_json_double(j, "minimum_spread_ticks", r->erg.minimum_spread);
            tks_json_bool(j, "variance_stable", r->erg.variance_stable);
            tks_json_double(j, "inlier_variance_sd", r->erg.variance_sd);
            tks_json_double(j, "inlier_variance_limit", r->erg.variance_limit);
            tks_json_double(j, "mean_inlier_variance", r->across.mean_inlier_variance);
            tks_json_end_object(j);
            tks_json_double(j, "overhead_ns",
                            tks_ticks_to_ns(&x->platform, (double)r->across.min_of_minimums));
            tks_json_double(j, "median_ticks", r->median);
            tks_json_double(j, "phase_averaged_mean_ticks", r->pa_mean);
            tks_json_double(j, "seconds", r->seconds);
            if (r->chain_done) {
                tks_json_begin_object(j, "chain");
                tks_json_u64(j, "adds", CHAIN_ADDS);
                tks_json_double(j, "net_min_ticks", r->chain_net_min);
                tks_json_double(j, "net_mean_ticks", r->chain_net_mean);
                if (x->reference >= 0)
                    tks_json_double(j, "vs_reference_ticks",
                                    r->chain_net_mean - x->m[x->reference].chain_net_mean);
                tks_json_end_object(j);
            }
        }
        tks_json_end_object(j);
    }
    tks_json_end_array(j);
}

int cmd_validate(int argc, char **argv)
{
    struct experiment x;
    tks_atomic_file out, raw;
    int help = 0, rc;

    experiment_init(&x);
    if ((rc = parse(argc, argv, &x, &help)) != 0)
        return rc;
    if (help) {
        fputs(validate_help, stdout);
        fputs(cli_kernel_help, stdout);
        fputs(cli_common_help, stdout);
        return CLI_EXIT_OK;
    }
    if ((rc = cli_open_outputs("validate", &x.common, &out, &raw)) != 0)
        return rc;
    if ((x.plot_dir && (rc = cli_plot_dir_check("validate", x.plot_dir)) != 0) ||
        (rc = cli_kernel_ready("validate", &x.kernel)) != 0) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return rc;
    }
    if (raw.f && tks_csv_header(raw.f) != 0) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return cli_failure("cannot write raw samples to '%s'", x.common.raw);
    }
    x.raw = raw.f;
    if ((rc = cli_platform("validate", &x.common, &x.platform)) != 0) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        return rc;
    }
    rc = experiment_run(&x);
    if (rc) {
        tks_atomic_abort(&raw);
        tks_atomic_abort(&out);
        if (x.plot_rc)
            return cli_failure("validate: cannot write plots to '%s': %s", x.plot_dir,
                               x.plot_rc == TKS_EIO && x.plot_errno ? strerror(x.plot_errno)
                                                                    : tks_strerror(x.plot_rc));
        return cli_failure("validate: %s", tks_strerror(rc));
    }
    if (x.common.json) {
        tks_json j;
        tks_json_init(&j, out.f);
        tks_json_begin_object(&j, NULL);
        tks_json_string(&j, "command", "validate");
        cli_json_context(&j, &x.platform, x.quantum);
        validate_write_json(&x, &j);
        tks_json_end_object(&j);
        if (tks_json_finish(&j) != 0) {
            tks_atomic_abort(&raw);
            tks_atomic_abort(&out);
            return cli_failure("validate: could not write the JSON document");
        }
    } else {
        validate_print_text(&x, out.f);
    }
    rc = cli_close_outputs(&out, &raw, &x.common);
    if (rc == CLI_EXIT_OK && x.plot_dir)
        cli_plot_render(x.plot_dir, x.common.quiet);
    return rc;
}
