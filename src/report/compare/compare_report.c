/* SPDX-License-Identifier: MIT */
/* compare_report.c: the comparison of two result files as a console table, a Markdown table for
 * a pull-request comment, and JSON. One row per benchmark both files have. */
#include "report/compare/compare_report.h"

#include <math.h>
#include <string.h>

#include "report/common/report.h"

static const char *test_name(enum tks__cmp_test t)
{
    return t == TKS__TEST_UTEST ? "U" : t == TKS__TEST_BOOTSTRAP ? "bootstrap" : "none";
}

static void pct(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%+.2f%%", 100 * v);
    else
        snprintf(buf, size, "?");
}

/* The cells of one row: name, unit, old, new, change, interval, test, p, verdict. */
static void cells_of(const tks__cmp_row *w, char c[9][160])
{
    char lo[32], hi[32];
    snprintf(c[0], 160, "%s", w->name);
    snprintf(c[1], 160, "%s", tks__unit_name(w->unit));
    snprintf(c[2], 160, "%.5g", w->old_value);
    snprintf(c[3], 160, "%.5g", w->new_value);
    pct(c[4], 160, w->change);
    pct(lo, sizeof lo, w->lo);
    pct(hi, sizeof hi, w->hi);
    if (isfinite(w->lo)) {
        snprintf(c[5], 160, "[%s, %s]", lo, hi);
    } else if (isfinite(w->assumed_lo)) {
        /* issue 46: no test; the interval with the assumed spread between processes */
        pct(lo, sizeof lo, w->assumed_lo);
        pct(hi, sizeof hi, w->assumed_hi);
        snprintf(c[5], 160, "~[%s, %s]", lo, hi);
    } else {
        snprintf(c[5], 160, "-");
    }
    snprintf(c[6], 160, "%s %zu/%zu", test_name(w->test), w->n_old, w->n_new);
    if (isfinite(w->p))
        snprintf(c[7], 160, w->p < 0.001 ? "%.1e" : "%.3f", w->p);
    else
        snprintf(c[7], 160, "-");
    tks__cmp_verdict_text(w, c[8], 140);
    if (w->regression)
        strcat(c[8], w->too_few ? " REGRESSION (assumed spread)" : " REGRESSION");
    else if (w->not_tested)
        strcat(c[8], " NOT TESTED");
}

/* issue 46: the rows the gate could not decide, as loud as its regressions: named (on the
 * console, whose stderr says what each needs), or each with what its sides need (Markdown). */
static void not_tested(FILE *f, const tks__cmp_result *r, int md)
{
    const char *why = "against the gate (too few runs for a test; exit status 3 unless a "
                      "regression fails it)";
    if (!r->not_tested)
        return;
    fprintf(f, md ? "- **%zu benchmark(s) NOT TESTED** %s:\n" : "%zu benchmark(s) NOT TESTED %s",
            r->not_tested, why);
    for (size_t i = 0, k = 0; i < r->n; i++) {
        char needs[300];
        if (!r->rows[i].not_tested)
            continue;
        tks__cmp_needs_text(r, &r->rows[i], needs, sizeof needs);
        if (md)
            fprintf(f, "  - **NOT TESTED** `%s`: %s\n", r->rows[i].name, needs);
        else
            fprintf(f, "%s%s", k++ ? ", " : ": ", r->rows[i].name);
    }
    if (!md)
        fputs(".\n", f);
}

static const char *const headers[9] = {"benchmark", "unit", "old", "new", "change",
                                       "95% interval", "test (n old/new)", "p", "verdict"};

static void footer(FILE *f, const tks__cmp_result *r, const char *bullet)
{
    if (r->only_old)
        fprintf(f, "%sOnly in the old file (%zu): %s.\n", bullet, r->only_old, r->only_old_names);
    if (r->only_new)
        fprintf(f, "%sOnly in the new file (%zu): %s.\n", bullet, r->only_new, r->only_new_names);
    if (r->gate >= 0) {
        int loud = *bullet && r->regressions; /* Markdown: as loud as NOT TESTED */
        fprintf(f, "%s%s%zu regression(s)%s beyond +%.2f%% with 95%% confidence", bullet,
                loud ? "**" : "", r->regressions, loud ? "**" : "", 100 * r->gate);
        for (size_t i = 0, k = 0; i < r->n; i++)
            if (r->rows[i].regression)
                fprintf(f, "%s%s%s", k++ ? ", " : ": ", r->rows[i].name,
                        r->rows[i].too_few ? " (with the assumed spread)" : "");
        fputs(".\n", f);
    }
    not_tested(f, r, *bullet != 0);
}

int tks__cmp_console(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name)
{
    tks__table *t = tks__table_new(9, headers, "llrrrllrl");
    if (!t)
        return TKS_ENOMEM;
    fprintf(f, "Comparing %s (old) with %s (new): change = new / old - 1 with its 95%% interval; "
               "'same' when the interval lies within +-%.2f%%.\n",
            old_name, new_name, 100 * r->threshold);
    tks__diags_print(f, &r->diags, "", NULL);
    fputc('\n', f);
    for (size_t i = 0; i < r->n; i++) {
        char c[9][160];
        const char *cp[9];
        cells_of(&r->rows[i], c);
        for (int k = 0; k < 9; k++)
            cp[k] = c[k];
        tks__table_add_row(t, cp);
    }
    tks__table_print(t, f, "");
    tks__table_free(t);
    fputc('\n', f);
    if (tks__cmp_counters_console(f, r) != 0) /* issue 26 */
        return TKS_ENOMEM;
    footer(f, r, "");
    return ferror(f) ? TKS_EIO : 0;
}

int tks__cmp_markdown(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name)
{
    fprintf(f, "**tickscope compare**: `%s` (old) against `%s` (new). Change = new / old - 1 "
               "with its 95%% interval; *same* when the interval lies within ±%.2f%%.\n\n",
            old_name, new_name, 100 * r->threshold);
    tks__diags_markdown(f, &r->diags);
    if (r->diags.n)
        fputc('\n', f);
    fputs("|", f);
    for (int k = 0; k < 9; k++)
        tks__md_cell(f, headers[k]);
    fputs("\n|---|---|--:|--:|--:|---|---|--:|---|\n", f);
    for (size_t i = 0; i < r->n; i++) {
        char c[9][160];
        cells_of(&r->rows[i], c);
        fputs("|", f);
        for (int k = 0; k < 8; k++)
            tks__md_cell(f, c[k]);
        /* the verdicts that say something stand out in a pull request, and so does a
         * benchmark the gate could not test (issue 46) */
        if (r->rows[i].verdict == TKS__SLOWER || r->rows[i].verdict == TKS__FASTER ||
            r->rows[i].regression || r->rows[i].not_tested)
            fprintf(f, " **%s** |\n", c[8]);
        else
            fprintf(f, " %s |\n", c[8]);
    }
    fputc('\n', f);
    tks__cmp_counters_markdown(f, r); /* issue 26 */
    footer(f, r, "- ");
    return ferror(f) ? TKS_EIO : 0;
}

static void json_interval(tks__json *j, const char *key, double lo, double hi)
{
    tks__json_begin_array(j, key);
    tks__json_double(j, NULL, lo);
    tks__json_double(j, NULL, hi);
    tks__json_end_array(j);
}

int tks__cmp_json(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name)
{
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "old", old_name);
    tks__json_string(&j, "new", new_name);
    tks__json_double(&j, "threshold", r->threshold);
    if (r->gate >= 0) {
        tks__json_double(&j, "fail_on_regression", r->gate);
        tks__json_double(&j, "assumed_spread", TKS__CMP_ASSUMED_CV); /* issue 46 */
    } else {
        tks__json_null(&j, "fail_on_regression");
        tks__json_null(&j, "assumed_spread");
    }
    tks__json_diag_messages(&j, "warnings", &r->diags); /* the messages alone, as before */
    tks__json_diags(&j, &r->diags);
    tks__json_begin_array(&j, "benchmarks");
    for (size_t i = 0; i < r->n; i++) {
        const tks__cmp_row *w = &r->rows[i];
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "name", w->name);
        tks__json_string(&j, "unit", w->unit == TKS__UNIT_CORE ? "core_cycles"
                                     : w->unit == TKS__UNIT_TICKS ? "ticks" : "ns");
        tks__json_double(&j, "old", w->old_value);
        tks__json_double(&j, "new", w->new_value);
        tks__json_double(&j, "change", w->change);
        json_interval(&j, "change_ci", w->lo, w->hi);
        /* issue 46: with the assumed spread between processes, where there was no test */
        json_interval(&j, "change_ci_assumed_spread", w->assumed_lo, w->assumed_hi);
        tks__json_string(&j, "test", w->test == TKS__TEST_UTEST ? "mann-whitney-u"
                                     : w->test == TKS__TEST_BOOTSTRAP ? "bootstrap" : "none");
        tks__json_double(&j, "p_value", w->p);
        tks__json_u64(&j, "n_old", w->n_old);
        tks__json_u64(&j, "n_new", w->n_new);
        tks__json_string(&j, "verdict", tks__verdict_name(w->verdict));
        tks__json_bool(&j, "too_few_runs", w->too_few);
        tks__json_double(&j, "smallest_p", w->min_p);
        tks__json_bool(&j, "regression", w->regression);
        tks__json_bool(&j, "not_tested", w->not_tested);
        tks__json_begin_object(&j, "runs_needed"); /* 0: that side has enough for a test */
        tks__json_u64(&j, "old", w->need_old);
        tks__json_u64(&j, "new", w->need_new);
        tks__json_end_object(&j);
        tks__cmp_counters_json(&j, w); /* issue 26 */
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_u64(&j, "only_old", r->only_old);
    tks__json_u64(&j, "only_new", r->only_new);
    tks__json_u64(&j, "regressions", r->regressions);
    tks__json_u64(&j, "not_tested", r->not_tested);
    /* the gate's outcome in one word, as the exit status has it (issue 46) */
    if (r->gate >= 0)
        tks__json_string(&j, "gate", r->regressions ? "regression"
                                     : r->not_tested ? "not_tested" : "pass");
    else
        tks__json_null(&j, "gate");
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}
