/* SPDX-License-Identifier: MIT */
/* region_formats.c: the regions' writer table, and their Markdown writer: one table row per
 * region (and per thread of it with TICKSCOPE_REGIONS_PER_THREAD), net figures in ticks with the
 * mean in core cycles and ns, then the notes. */
#include "report/region/region_report.h"

#include <math.h>

#include "report/common/report.h"

#define COLS 11
static const char *const headers[COLS] = {"region", "thread", "method", "passes", "mean (ticks)",
                                          "median", "p90", "p99", "max", "mean (core cycles)",
                                          "mean (ns)"};

static void md_row(FILE *f, const tks__region_report_data *d, const tks__region_row *r)
{
    const tks_region_stats *s = &r->st;
    char c[COLS][48];
    const char *cells[COLS];
    c[0][0] = '\0'; /* the name is its own cell */
    if (r->thread)
        snprintf(c[1], sizeof c[1], "%u", r->thread);
    else
        snprintf(c[1], sizeof c[1], "all");
    snprintf(c[2], sizeof c[2], "%s", r->method);
    snprintf(c[3], sizeof c[3], "%llu", (unsigned long long)s->passes);
    tks__cell_double(c[4], sizeof c[4], s->mean);
    tks__cell_double(c[5], sizeof c[5], s->median);
    tks__cell_double(c[6], sizeof c[6], s->p90);
    tks__cell_double(c[7], sizeof c[7], s->p99);
    tks__cell_double(c[8], sizeof c[8], s->max);
    tks__cell_double(c[9], sizeof c[9], tks__region_cycles(d, s->mean));
    tks__cell_double(c[10], sizeof c[10], tks__region_ns(d, s->mean));
    for (int k = 0; k < COLS; k++)
        cells[k] = c[k][0] ? c[k] : NULL;
    cells[0] = s->name;
    tks__md_row(f, COLS, cells);
}

static int region_markdown(FILE *f, const void *doc)
{
    const tks__region_report_data *d = doc;
    tks__md_header(f, COLS, headers, "lrlrrrrrrrr");
    for (size_t i = 0, k = 0; i < d->n_rows; i++) {
        md_row(f, d, &d->rows[i]);
        for (; k < d->n_thread_rows && d->thread_rows[k].region == i; k++)
            md_row(f, d, &d->thread_rows[k]);
    }
    if (d->n_notes)
        fputc('\n', f);
    for (size_t i = 0; i < d->n_notes; i++)
        fprintf(f, "> %s\n", d->notes[i]);
    return ferror(f) ? TKS_EIO : 0;
}

static int region_text(FILE *f, const void *doc)
{
    return tks__region_write_text(f, doc);
}

static int region_json(FILE *f, const void *doc)
{
    return tks__region_write_json(f, doc);
}

static int region_csv(FILE *f, const void *doc)
{
    return tks__region_write_csv(f, doc);
}

TKS__WRITERS(tks__region_writers, "the regions", {TKS_FORMAT_CONSOLE, region_text},
             {TKS_FORMAT_JSON, region_json}, {TKS_FORMAT_CSV, region_csv},
             {TKS_FORMAT_MARKDOWN, region_markdown});
