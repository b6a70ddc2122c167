/* SPDX-License-Identifier: MIT */
/* asm_html.c: a table of snippets (`tickscope asm --table`, or one snippet) as one HTML page:
 * every form's cost per copy in ticks and core cycles with its interval, sortable by any column
 * and filtered by what is typed (a name, a mnemonic, "throughput"); the figures in data
 * attributes, the same numbers as the JSON. */
#include <math.h>

#include "report/asm/asm_report.h"
#include "report/html/html.h"

int tks__asm_html(FILE *f, const void *doc);

int tks__asm_html(FILE *f, const void *doc)
{
    static const char *const hdr[] = {"name", "mode", "ticks", "core cycles",
                                      "95% interval (cycles)", "r2", "code"};
    const tks__asm_doc *d = doc;
    char buf[200];
    size_t failed = 0;
    tks__html_begin(f, "tickscope asm: the cost of each instruction form");
    for (size_t i = 0; i < d->n; i++)
        failed += d->rc[i] != 0;
    fprintf(f, "<p class=\"meta\">%zu form%s (%zu could not be measured). Cost per copy: ticks "
               "and core cycles (an estimate from an interleaved dependent-add reference); "
               "latency = result to result, throughput = start to start. Click a header to "
               "sort; type to filter.</p>\n",
            d->n, d->n == 1 ? "" : "s", failed);
    tks__html_table_begin(f, "forms", hdr, 7, 1);
    for (size_t i = 0; i < d->n; i++) {
        const tks__asm_request *q = &d->q[i];
        const tks_asm_result *r = &d->r[i];
        const char *mode = q->mode == TKS_ASM_THROUGHPUT ? "throughput" : "latency";
        fputs("<tr data-name=\"", f);
        tks__html_text(f, q->name ? q->name : "");
        fprintf(f, "\" data-mode=\"%s\" data-ok=\"%d\"", mode, d->rc[i] == 0);
        if (d->rc[i] == 0) {
            tks__html_data(f, "ticks", r->ticks_per_copy.value);
            tks__html_data(f, "core-cycles", r->core_cycles.value);
            tks__html_data(f, "core-cycles-lo", r->core_cycles.lo);
            tks__html_data(f, "core-cycles-hi", r->core_cycles.hi);
        }
        fputs(">", f);
        tks__html_cell(f, q->name ? q->name : "", NAN);
        tks__html_cell(f, mode, NAN);
        if (d->rc[i]) {
            fputs("<td>error</td><td>-</td><td class=\"l warn\">", f);
            tks__html_text(f, r->error);
            fputs("</td><td>-</td>", f);
        } else {
            snprintf(buf, sizeof buf, "%.3f", r->ticks_per_copy.value);
            tks__html_cell(f, buf, r->ticks_per_copy.value);
            snprintf(buf, sizeof buf, isfinite(r->core_cycles.value) ? "%.3f" : "-",
                     r->core_cycles.value);
            tks__html_cell(f, buf, r->core_cycles.value);
            snprintf(buf, sizeof buf, isfinite(r->core_cycles.value) ? "[%.3f, %.3f]" : "-",
                     r->core_cycles.lo, r->core_cycles.hi);
            tks__html_cell(f, buf, r->core_cycles.lo);
            snprintf(buf, sizeof buf, "%.4f", r->fit.r2);
            tks__html_cell(f, buf, r->fit.r2);
        }
        fputs("<td class=\"l\"><code>", f);
        tks__html_text(f, q->code);
        fputs("</code></td></tr>\n", f);
    }
    tks__html_table_end(f);
    return tks__html_end(f);
}
