/* SPDX-License-Identifier: MIT */
/* validate_report.c: the outputs of a validation: the empty-window table, the chain table and the
 * recommendation as text, the `validate --json` document, and each method's figures. */
#include "report/machine/analysis_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void fmt_var(char *buf, size_t n, double v) { tks__fmt_double(buf, n, v, v < 100 ? 2 : 0); }

int tks__report_validation_listed(const tks_validation *v, int m)
{
    return v->methods[m].selected && tks_method_listed((enum tks_method)m, v->where);
}

static void empty_window_table(const tks_validation *v, FILE *f)
{
    static const char *const hdr[] = {"method", "overhead", "total var", "abs max dev",
                                      "var of vars", "var of mins", "spurious", "discarded",
                                      "E x S", "ergodic"};
    tks__table *t = tks__table_new(10, hdr, "lrrrrrrrrl");
    char c[10][64];
    const char *cells[10];
    int m, k;
    for (k = 0; k < 10; k++)
        cells[k] = c[k];
    for (m = 0; t && m < TKS_METHOD_COUNT; m++) {
        const tks_method_validation *r = &v->methods[m];
        if (!tks__report_validation_listed(v, m))
            continue;
        snprintf(c[0], 64, "%s", tks_method_info((enum tks_method)m)->name);
        if (!r->available || r->rc) {
            for (k = 1; k < 10; k++)
                strcpy(c[k], "-");
            snprintf(c[9], 64, "%s", !r->available ? "unavailable" : tks_strerror(r->rc));
        } else {
            /* In quanta, as the paper's figures count steps; under one step (an unfenced read
             * is not held to the step) a fraction would claim a precision no reading has. */
            if (v->quantum > 1 && r->across.min_of_minimums >= v->quantum)
                snprintf(c[1], 64, "%llu (%.*fq)", (unsigned long long)r->across.min_of_minimums,
                         r->across.min_of_minimums % v->quantum ? 1 : 0,
                         (double)r->across.min_of_minimums / (double)v->quantum);
            else if (v->quantum > 1)
                snprintf(c[1], 64, "%llu (<1q)", (unsigned long long)r->across.min_of_minimums);
            else
                snprintf(c[1], 64, "%llu", (unsigned long long)r->across.min_of_minimums);
            fmt_var(c[2], 64, r->across.total_variance);
            tks__fmt_u64(c[3], 64, r->across.abs_max_deviation);
            fmt_var(c[4], 64, r->across.variance_of_variances);
            fmt_var(c[5], 64, r->across.variance_of_minimums);
            snprintf(c[6], 64, "%u", r->across.spurious_minimums);
            tks__fmt_u64(c[7], 64, r->discarded);
            snprintf(c[8], 64, "%u x %u%s", r->ensembles, r->samples, r->budget_limited ? "*" : "");
            snprintf(c[9], 64, "%s", r->erg.ergodic ? "yes" : "no");
        }
        tks__table_add_row(t, cells);
    }
    if (t)
        tks__table_print(t, f, "");
    tks__table_free(t);
}

static void chain_table(const tks_validation *v, FILE *f)
{
    static const char *const h2[] = {"method", "net (min)", "net (mean)", "vs ref", "note"};
    tks__table *t2 = tks__table_new(5, h2, "lrrrl");
    const tks_method_validation *ref = &v->methods[v->reference];
    char c[5][64];
    const char *cells[5] = {c[0], c[1], c[2], c[3], c[4]};
    int m;
    fprintf(f, "\n%u dependent adds measured by each method, minus its empty window "
               "(reference: %s):\n\n",
            v->chain_adds, tks_method_info((enum tks_method)v->reference)->name);
    for (m = 0; t2 && m < TKS_METHOD_COUNT; m++) {
        const tks_method_validation *r = &v->methods[m];
        if (!r->chain_done)
            continue;
        snprintf(c[0], 64, "%s", tks_method_info((enum tks_method)m)->name);
        tks__fmt_double(c[1], 64, r->chain_net_min, 0);
        tks__fmt_double(c[2], 64, r->chain_net_mean, 1);
        snprintf(c[3], 64, "%+.1f", r->chain_net_mean - ref->chain_net_mean);
        snprintf(c[4], 64, "%s", r->ineligible_reason ? r->ineligible_reason : "fenced both ends");
        tks__table_add_row(t2, cells);
    }
    if (t2)
        tks__table_print(t2, f, "");
    tks__table_free(t2);
}

void tks__report_validation_text(const tks_validation *v, const tks_platform *p, FILE *f)
{
    int m;
    fprintf(f, "Empty-window experiment (white paper 3.1.2, 3.2.2): every figure in TSC ticks, "
               "variances in ticks^2.\n");
    fprintf(f, "Timer quantum: %llu tick(s): fenced reads advance in steps of %llu",
            (unsigned long long)v->quantum, (unsigned long long)v->quantum);
    tks__report_unfenced_phrase(p, f);
    fprintf(f, ".\n");
    tks__report_units(p, f);
    tks__report_kernel_line(v->where, &v->kernel, p, f);
    fprintf(f, "\n");
    empty_window_table(v, f);
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        if (v->methods[m].selected && v->methods[m].budget_limited) {
            fprintf(f, "* fewer samples per ensemble to fit the time budget (--budget).\n");
            break;
        }
    fprintf(f, "\nErgodic: ensemble minimums agree within one quantum, and the spread of the "
               "ensembles' inlier variances is within max(quantum^2, half their mean).\n");
    if (v->chain && v->reference >= 0)
        chain_table(v, f);
    fprintf(f, "\n");
    fprintf(f, "Recommended: %s. ",
            v->recommended >= 0 ? tks_method_info((enum tks_method)v->recommended)->name : "none");
    tks__diags_join(f, &v->diags, ". "); /* why: the validate.* code choose() found */
    fputs(".\n", f);
}

static void method_json(const tks_validation *v, const tks_platform *p, int m, tks__json *j)
{
    const tks_method_validation *r = &v->methods[m];
    tks__json_u64(j, "overhead_ticks", r->across.min_of_minimums);
    tks__json_double(j, "overhead_quanta", (double)r->across.min_of_minimums / (double)v->quantum);
    tks__json_double(j, "total_variance", r->across.total_variance);
    tks__json_u64(j, "abs_max_deviation", r->across.abs_max_deviation);
    tks__json_double(j, "variance_of_variances", r->across.variance_of_variances);
    tks__json_double(j, "variance_of_minimums", r->across.variance_of_minimums);
    tks__json_u64(j, "spurious_minimums", r->across.spurious_minimums);
    tks__json_u64(j, "ensembles", r->ensembles);
    tks__json_u64(j, "samples_per_ensemble", r->samples);
    tks__json_bool(j, "budget_limited", r->budget_limited);
    tks__json_u64(j, "discarded", r->discarded);
    tks__json_u64(j, "discarded_migrated", r->discarded_migrated);
    tks__json_u64(j, "discarded_negative", r->discarded_negative);
    tks__json_bool(j, "ergodic", r->erg.ergodic);
    tks__json_begin_object(j, "ergodicity");
    tks__json_bool(j, "minimum_stable", r->erg.minimum_stable);
    tks__json_double(j, "minimum_spread_ticks", r->erg.minimum_spread);
    tks__json_bool(j, "variance_stable", r->erg.variance_stable);
    tks__json_double(j, "inlier_variance_sd", r->erg.variance_sd);
    tks__json_double(j, "inlier_variance_limit", r->erg.variance_limit);
    tks__json_double(j, "mean_inlier_variance", r->across.mean_inlier_variance);
    tks__json_end_object(j);
    tks__json_double(j, "overhead_ns", tks_ticks_to_ns(p, (double)r->across.min_of_minimums));
    tks__json_double(j, "median_ticks", r->median);
    tks__json_double(j, "phase_averaged_mean_ticks", r->pa_mean);
    tks__json_double(j, "seconds", r->seconds);
    if (r->chain_done) {
        tks__json_begin_object(j, "chain");
        tks__json_u64(j, "adds", v->chain_adds);
        tks__json_double(j, "net_min_ticks", r->chain_net_min);
        tks__json_double(j, "net_mean_ticks", r->chain_net_mean);
        if (v->reference >= 0)
            tks__json_double(j, "vs_reference_ticks",
                            r->chain_net_mean - v->methods[v->reference].chain_net_mean);
        tks__json_end_object(j);
    }
}

int tks__report_validation_json(const tks_validation *v, const tks_platform *p, FILE *f)
{
    tks__json j;
    int m;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "validate");
    tks__report_context_json(&j, p, v->quantum);
    tks__report_kernel_json(v->where, &v->kernel, p, &j);
    tks__json_u64(&j, "quantum_ticks", v->quantum);
    tks__json_u64(&j, "unfenced_step_ticks", v->unfenced_step);
    tks__json_string(&j, "recommended",
                    v->recommended >= 0 ? tks_method_info((enum tks_method)v->recommended)->name
                                        : NULL);
    {
        char *why = v->diags.n ? tks_diag_message(&v->diags.items[0]) : NULL;
        tks__json_string(&j, "recommendation_reason", why ? why : "");
        free(why);
    }
    tks__json_diags(&j, &v->diags);
    tks__json_double(&j, "seconds", v->seconds);
    tks__json_begin_array(&j, "methods");
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const tks_method_validation *r = &v->methods[m];
        const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
        if (!tks__report_validation_listed(v, m))
            continue;
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "name", mi->name);
        tks__json_string(&j, "begin", mi->begin);
        tks__json_string(&j, "end", mi->end);
        tks__json_bool(&j, "available", r->available);
        tks__json_bool(&j, "eligible", r->eligible);
        tks__json_string(&j, "ineligible_reason", r->ineligible_reason);
        if (r->available && r->rc)
            tks__json_string(&j, "error", tks_strerror(r->rc));
        if (r->available && !r->rc)
            method_json(v, p, m, &j);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

/* The pooled summary sorts run->ticks in place rather than a second buffer of up to 10^8
 * samples: the raw CSV and the ensemble summaries, which need the order, are done by then. */
int tks__report_validation_plots(const char *dir, enum tks_method m, const tks_sample_run *run,
                                const tks_summary *ens, uint64_t quantum)
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
    rc = tks__plot_ensembles(dir, file, title, ens, run->ensembles, NULL);
    if (!rc && (rc = tks_summarize(run->ticks, n, quantum, run->ticks, &all)) == 0) {
        snprintf(file, sizeof file, "validate-%s-histogram", name);
        snprintf(title, sizeof title, "validate: %s, empty window, all %zu samples (quantum %llu "
                 "tick%s)", name, n, (unsigned long long)quantum, quantum == 1 ? "" : "s");
        errno = 0;
        rc = tks__plot_histogram(dir, file, title, run->ticks, n, quantum, all.median, all.mean);
    }
    return rc;
}
