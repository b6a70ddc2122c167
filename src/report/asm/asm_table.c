/* SPDX-License-Identifier: MIT */
/* asm_table.c: asm's writer tables: a table of measured snippets, a row per snippet, as a console
 * table, Markdown (a user's own uops.info row for this machine), CSV and JSON; and one snippet,
 * whose CSV and Markdown are that table with one row. */
#include "report/asm/asm_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


#define COLS 7
static const char *const headers[COLS] = {"name", "mode", "ticks", "core cycles",
                                          "95% interval (cycles)", "r2", "code"};

static void num(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%.3f", v);
    else
        snprintf(buf, size, "-");
}

static void cells_of(const tks__asm_request *q, const tks_asm_result *r, int rc,
                     char cell[COLS][160])
{
    snprintf(cell[0], 160, "%s", q->name ? q->name : "");
    snprintf(cell[1], 160, "%s", q->mode == TKS_ASM_THROUGHPUT ? "throughput" : "latency");
    if (rc) {
        snprintf(cell[2], 160, "error");
        snprintf(cell[3], 160, "-");
        snprintf(cell[4], 160, "%.150s", r->error);
        snprintf(cell[5], 160, "-");
    } else {
        num(cell[2], 160, r->ticks_per_copy.value);
        num(cell[3], 160, r->core_cycles.value);
        if (isfinite(r->core_cycles.value))
            snprintf(cell[4], 160, "[%.3f, %.3f]", r->core_cycles.lo, r->core_cycles.hi);
        else
            snprintf(cell[4], 160, "-");
        snprintf(cell[5], 160, "%.4f", r->fit.r2);
    }
    snprintf(cell[6], 160, "%.150s", q->code);
}

static int table_json(FILE *f, const void *doc)
{
    const tks__asm_doc *d = doc;
    tks__json j;
    tks__report_asm_json_begin(&j, d->p, f);
    tks__json_begin_array(&j, "rows");
    for (size_t i = 0; i < d->n; i++) {
        tks__json_begin_object(&j, NULL);
        tks__report_asm_members(&j, &d->q[i], &d->r[i]);
        tks__json_string(&j, "error", d->rc[i] ? d->r[i].error : NULL);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

static int table_csv(FILE *f, const void *doc)
{
    const tks__asm_doc *d = doc;
    fputs("name,mode,code,ticks_per_copy,ticks_lo,ticks_hi,core_cycles,core_cycles_lo,"
          "core_cycles_hi,r2,error,diagnostics\n", f);
    for (size_t i = 0; i < d->n; i++) {
        const tks__asm_request *q = &d->q[i];
        const tks_asm_result *r = &d->r[i];
        tks__csv_field(f, q->name ? q->name : "");
        fputc(',', f);
        tks__csv_field(f, q->mode == TKS_ASM_THROUGHPUT ? "throughput" : "latency");
        fputc(',', f);
        tks__csv_field(f, q->code);
        if (d->rc[i]) {
            for (int k = 0; k < 7; k++)
                tks__csv_next_double(f, NAN);
            fputc(',', f);
            tks__csv_field(f, r->error);
        } else {
            tks__csv_next_double(f, r->ticks_per_copy.value);
            tks__csv_next_double(f, r->ticks_per_copy.lo);
            tks__csv_next_double(f, r->ticks_per_copy.hi);
            tks__csv_next_double(f, r->core_cycles.value);
            tks__csv_next_double(f, r->core_cycles.lo);
            tks__csv_next_double(f, r->core_cycles.hi);
            tks__csv_next_double(f, r->fit.r2);
            fputc(',', f);
        }
        fputc(',', f);
        tks__csv_diag_codes(f, &r->diags);
        fputc('\n', f);
    }
    return ferror(f) ? TKS_EIO : 0;
}

static int table_markdown(FILE *f, const void *doc)
{
    const tks__asm_doc *d = doc;
    char cell[COLS][160];
    const char *row[COLS];
    for (int c = 0; c < COLS; c++)
        row[c] = cell[c];
    tks__md_header(f, COLS, headers, "llrrlrl");
    for (size_t i = 0; i < d->n; i++) {
        char code[170];
        cells_of(&d->q[i], &d->r[i], d->rc[i], cell);
        snprintf(code, sizeof code, "`%s`", cell[COLS - 1]);
        row[COLS - 1] = code;
        tks__md_row(f, COLS, row);
        row[COLS - 1] = cell[COLS - 1];
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->r[i].diags.n) {
            fprintf(f, "\n%s:\n", d->q[i].name ? d->q[i].name : "the snippet");
            tks__diags_markdown(f, &d->r[i].diags);
        }
    return ferror(f) ? TKS_EIO : 0;
}

static int table_console(FILE *f, const void *doc)
{
    const tks__asm_doc *d = doc;
    char cell[COLS][160];
    const char *row[COLS];
    tks__table *t = tks__table_new(COLS, headers, "llrrlrl");
    if (!t)
        return TKS_ENOMEM;
    for (size_t i = 0; i < d->n; i++) {
        cells_of(&d->q[i], &d->r[i], d->rc[i], cell);
        for (int c = 0; c < COLS; c++)
            row[c] = cell[c];
        if (tks__table_add_row(t, row) != 0) {
            tks__table_free(t);
            return TKS_ENOMEM;
        }
    }
    fputs("Cost per copy: ticks and core cycles (an estimate from an interleaved dependent-add "
          "reference); latency = result to result, throughput = start to start.\n", f);
    tks__table_print(t, f, "");
    tks__table_free(t);
    return ferror(f) ? TKS_EIO : 0;
}

int tks__asm_html(FILE *f, const void *doc); /* asm_html.c */
TKS__WRITERS(tks__asm_table_writers, "asm --table", {TKS_FORMAT_CONSOLE, table_console},
             {TKS_FORMAT_JSON, table_json}, {TKS_FORMAT_CSV, table_csv},
             {TKS_FORMAT_MARKDOWN, table_markdown}, {TKS_FORMAT_HTML, tks__asm_html});

/* One snippet: its own text and JSON document; as CSV and Markdown, the table of one row. */
static int snippet_console(FILE *f, const void *doc)
{
    const tks__asm_doc *d = doc;
    tks__report_asm_text(d->q, d->r, d->p, f);
    return ferror(f) ? TKS_EIO : 0;
}

static int snippet_json(FILE *f, const void *doc)
{
    const tks__asm_doc *d = doc;
    return tks__report_asm_json(d->q, d->r, d->p, f);
}

TKS__WRITERS(tks__asm_writers, "asm", {TKS_FORMAT_CONSOLE, snippet_console},
             {TKS_FORMAT_JSON, snippet_json}, {TKS_FORMAT_CSV, table_csv},
             {TKS_FORMAT_MARKDOWN, table_markdown}, {TKS_FORMAT_HTML, tks__asm_html});
