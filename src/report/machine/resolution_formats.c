/* SPDX-License-Identifier: MIT */
/* resolution_formats.c: `tickscope resolution`'s writer table, and its CSV and Markdown writers:
 * one row per n (dependent adds), as the JSON's "points". */
#include "report/machine/analysis_report.h"

#define COLS 8
static const char *const headers[COLS] = {"method", "n", "min_ticks", "median_ticks", "mean_ticks",
                                          "mean_ci95_ticks", "variance", "max_deviation"};

static int rows(FILE *f, const tks_resolution_result *r,
                void (*row)(FILE *, int, const char *const *))
{
    char c[COLS][48];
    const char *cells[COLS];
    for (int k = 0; k < COLS; k++)
        cells[k] = c[k];
    for (uint32_t i = 0; i < r->npoints; i++) {
        const tks_resolution_point *pt = &r->points[i];
        snprintf(c[0], 48, "%s", tks_method_info(r->method)->name);
        snprintf(c[1], 48, "%u", pt->n);
        snprintf(c[2], 48, "%llu", (unsigned long long)pt->min);
        tks__cell_double(c[3], 48, pt->median);
        tks__cell_double(c[4], 48, pt->mean);
        tks__cell_double(c[5], 48, pt->mean_ci);
        tks__cell_double(c[6], 48, pt->variance);
        snprintf(c[7], 48, "%llu", (unsigned long long)pt->max_deviation);
        row(f, COLS, cells);
    }
    return ferror(f) ? TKS_EIO : 0;
}

static int resolution_csv(FILE *f, const void *doc)
{
    tks__csv_row(f, COLS, headers);
    return rows(f, ((const tks__resolution_doc *)doc)->r, tks__csv_row);
}

static int resolution_markdown(FILE *f, const void *doc)
{
    const tks__resolution_doc *d = doc;
    tks__md_header(f, COLS, headers, "lrrrrrrr");
    rows(f, d->r, tks__md_row);
    fprintf(f, "\nFit of the phase-averaged mean: %.4f ticks per add, intercept %.2f ticks, "
               "r^2 %.5f.\n",
            d->r->fit_mean.slope, d->r->fit_mean.intercept, d->r->fit_mean.r2);
    return ferror(f) ? TKS_EIO : 0;
}

static int resolution_console(FILE *f, const void *doc)
{
    const tks__resolution_doc *d = doc;
    tks__report_resolution_text(d->r, d->p, f);
    return ferror(f) ? TKS_EIO : 0;
}

static int resolution_json(FILE *f, const void *doc)
{
    const tks__resolution_doc *d = doc;
    return tks__report_resolution_json(d->r, d->p, f);
}

TKS__WRITERS(tks__resolution_writers, "resolution",
             {TKS_FORMAT_CONSOLE, resolution_console}, {TKS_FORMAT_JSON, resolution_json},
             {TKS_FORMAT_CSV, resolution_csv}, {TKS_FORMAT_MARKDOWN, resolution_markdown});
