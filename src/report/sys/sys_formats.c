/* SPDX-License-Identifier: MIT */
/* sys_formats.c: `tickscope sys`'s writer table, and its CSV writer: one row per operation of
 * every suite run, with the codes of its diagnostics and of its suite's. (The perf bench rows of
 * --versus-perf have columns of their own: they are in the console, Markdown and JSON reports.) */
#include "report/sys/sys_report.h"

#include <math.h>

static void interval_csv(FILE *f, const tks_interval *v)
{
    tks__csv_next_double(f, v->value);
    tks__csv_next_double(f, v->lo);
    tks__csv_next_double(f, v->hi);
}

static int sys_csv(FILE *f, const void *doc)
{
    const tks__sys_doc *d = doc;
    fputs("suite,id,what,ok,ticks,ticks_lo,ticks_hi,core_cycles,core_cycles_lo,core_cycles_hi,"
          "ns,ns_lo,ns_hi,windows,gb_per_s,error,diagnostics,suite_diagnostics\n", f);
    for (size_t s = 0; s < d->n; s++)
        for (size_t i = 0; i < d->res[s]->n_ops; i++) {
            const tks_sys_op *op = &d->res[s]->ops[i];
            tks__csv_field(f, tks_sys_suite_name(d->res[s]->suite));
            fputc(',', f);
            tks__csv_field(f, op->id);
            fputc(',', f);
            tks__csv_field(f, op->what);
            fprintf(f, ",%s", op->ok ? "yes" : "no");
            interval_csv(f, &op->ticks);
            interval_csv(f, &op->cycles);
            interval_csv(f, &op->ns);
            fprintf(f, ",%llu", (unsigned long long)op->windows);
            tks__csv_next_double(f, op->bytes > 0 ? op->gb_per_s : NAN);
            fputc(',', f);
            tks__csv_field(f, op->ok ? "" : op->error);
            fputc(',', f);
            tks__csv_diag_codes(f, &op->diags);
            fputc(',', f);
            tks__csv_diag_codes(f, &d->res[s]->diags);
            fputc('\n', f);
        }
    return ferror(f) ? TKS_EIO : 0;
}

static int sys_text(FILE *f, const tks__sys_doc *d, int md)
{
    if (!md && !d->streamed)
        tks__report_units(d->p, f);
    for (size_t i = 0; i < d->n && !(d->streamed && !md); i++) {
        if (md)
            tks__report_sys_markdown(d->res[i], f);
        else
            tks__report_sys_text(d->res[i], f);
    }
    if (d->rows)
        tks__report_sys_perf_text(d->rows, d->n_rows, md, f);
    return ferror(f) ? TKS_EIO : 0;
}

static int sys_console(FILE *f, const void *doc)
{
    return sys_text(f, doc, 0);
}

int tks__sys_streams(enum tks_format f)
{
    return tks__writers_find(&tks__sys_writers, f) == sys_console;
}

static int sys_markdown(FILE *f, const void *doc)
{
    return sys_text(f, doc, 1);
}

static int sys_json(FILE *f, const void *doc)
{
    const tks__sys_doc *d = doc;
    return tks__report_sys_json(d->res, d->n, d->rows, d->n_rows, d->p, f);
}

static int sys_html(FILE *f, const void *doc)
{
    return tks__report_sys_html(doc, f);
}

TKS__WRITERS(tks__sys_writers, "sys", {TKS_FORMAT_CONSOLE, sys_console},
             {TKS_FORMAT_JSON, sys_json}, {TKS_FORMAT_CSV, sys_csv},
             {TKS_FORMAT_MARKDOWN, sys_markdown}, {TKS_FORMAT_HTML, sys_html});
