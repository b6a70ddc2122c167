/* SPDX-License-Identifier: MIT */
/* validate_formats.c: `tickscope validate`'s writer table, and its CSV and Markdown writers: one
 * row per method listed, the columns of its JSON's headline figures. */
#include "report/machine/analysis_report.h"

#define COLS 14
static const char *const headers[COLS] = {
    "method", "available", "eligible", "overhead_ticks", "overhead_ns", "overhead_quanta",
    "total_variance", "abs_max_deviation", "spurious_minimums", "ensembles", "samples_per_ensemble",
    "ergodic", "median_ticks", "recommended"};

static void cells_of(const tks__validation_doc *d, int m, char c[COLS][48])
{
    const tks_method_validation *r = &d->v->methods[m];
    int measured = r->available && !r->rc;
    for (int k = 0; k < COLS; k++)
        c[k][0] = '\0';
    snprintf(c[0], 48, "%s", tks_method_info((enum tks_method)m)->name);
    snprintf(c[1], 48, "%s", r->available ? "yes" : "no");
    snprintf(c[2], 48, "%s", r->eligible ? "yes" : "no");
    snprintf(c[13], 48, "%s", d->v->recommended == m ? "yes" : "no");
    if (!measured)
        return;
    snprintf(c[3], 48, "%llu", (unsigned long long)r->across.min_of_minimums);
    tks__cell_double(c[4], 48, tks_ticks_to_ns(d->p, (double)r->across.min_of_minimums));
    tks__cell_double(c[5], 48, (double)r->across.min_of_minimums / (double)d->v->quantum);
    tks__cell_double(c[6], 48, r->across.total_variance);
    snprintf(c[7], 48, "%llu", (unsigned long long)r->across.abs_max_deviation);
    snprintf(c[8], 48, "%llu", (unsigned long long)r->across.spurious_minimums);
    snprintf(c[9], 48, "%llu", (unsigned long long)r->ensembles);
    snprintf(c[10], 48, "%llu", (unsigned long long)r->samples);
    snprintf(c[11], 48, "%s", r->erg.ergodic ? "yes" : "no");
    tks__cell_double(c[12], 48, r->median);
}

static int rows(FILE *f, const tks__validation_doc *d, void (*row)(FILE *, int, const char *const *))
{
    char c[COLS][48];
    const char *cells[COLS];
    for (int k = 0; k < COLS; k++)
        cells[k] = c[k];
    for (int m = 0; m < TKS_METHOD_COUNT; m++)
        if (tks__report_validation_listed(d->v, m)) {
            cells_of(d, m, c);
            row(f, COLS, cells);
        }
    return ferror(f) ? TKS_EIO : 0;
}

static int validation_csv(FILE *f, const void *doc)
{
    tks__csv_row(f, COLS, headers);
    return rows(f, doc, tks__csv_row);
}

static int validation_markdown(FILE *f, const void *doc)
{
    const tks__validation_doc *d = doc;
    tks__md_header(f, COLS, headers, "lllrrrrrrrrlrl");
    rows(f, d, tks__md_row);
    if (d->v->recommended >= 0)
        fprintf(f, "\nRecommended: **%s**. ", tks_method_info((enum tks_method)d->v->recommended)->name);
    else
        fprintf(f, "\nRecommended: none. ");
    tks__diags_join(f, &d->v->diags, ". ");
    fputs(".\n", f);
    return ferror(f) ? TKS_EIO : 0;
}

static int validation_console(FILE *f, const void *doc)
{
    const tks__validation_doc *d = doc;
    tks__report_validation_text(d->v, d->p, f);
    return ferror(f) ? TKS_EIO : 0;
}

static int validation_json(FILE *f, const void *doc)
{
    const tks__validation_doc *d = doc;
    return tks__report_validation_json(d->v, d->p, f);
}

TKS__WRITERS(tks__validation_writers, "validate",
             {TKS_FORMAT_CONSOLE, validation_console}, {TKS_FORMAT_JSON, validation_json},
             {TKS_FORMAT_CSV, validation_csv}, {TKS_FORMAT_MARKDOWN, validation_markdown});
