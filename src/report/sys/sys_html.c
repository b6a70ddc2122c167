/* SPDX-License-Identifier: MIT */
/* sys_html.c: `tickscope sys` as one HTML page: for each suite its rows (sortable, filterable,
 * the figures in data attributes, the same numbers as the JSON) and its warnings; the call
 * staircase (cpu); the memory-latency curve with its knees and /sys's levels (mem); perf bench
 * beside ours (--versus-perf). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes_text.h"
#include "report/html/html.h"
#include "report/sys/sys_report.h"

static char *bytes_label(char *buf, size_t size, double v)
{
    return tks__fmt_bytes(buf, size, (size_t)v);
}

static void ops_table(FILE *f, const tks_sys_result *r)
{
    static const char *const hdr[] = {"operation", "ticks [95% interval]", "core cycles", "ns",
                                      "GB/s", "what"};
    char id[24], buf[160];
    snprintf(id, sizeof id, "ops-%s", tks_sys_suite_name(r->suite));
    tks__html_table_begin(f, id, hdr, 6, 1);
    for (size_t i = 0; i < r->n_ops; i++) {
        const tks_sys_op *op = &r->ops[i];
        fprintf(f, "<tr data-id=\"%s\" data-ok=\"%d\"", op->id, op->ok);
        if (op->ok) {
            tks__html_data_figures(f, op->ticks.value, op->ticks.lo, op->ticks.hi, op->cycles.value,
                                   op->ns.value);
        }
        fputs(" title=\"", f);
        if (op->ok)
            tks__html_diags(f, &op->diags, NULL, NULL, "; ");
        else
            tks__html_text(f, op->error);
        fputs("\">", f);
        snprintf(buf, sizeof buf, "%s%s", op->id, op->derived ? "*" : "");
        tks__html_cell(f, buf, NAN);
        if (!op->ok) {
            tks__html_cell(f, op->unavailable ? "not on this machine" : "not measured", NAN);
            fputs("<td></td><td></td><td></td>", f);
        } else {
            tks__html_cell(f, tks__html_interval(buf, sizeof buf, op->ticks.value, op->ticks.lo,
                                                 op->ticks.hi, 2), op->ticks.value);
            snprintf(buf, sizeof buf, isfinite(op->cycles.value) ? "%.2f" : "-", op->cycles.value);
            tks__html_cell(f, buf, op->cycles.value);
            snprintf(buf, sizeof buf, "%.2f", op->ns.value);
            tks__html_cell(f, buf, op->ns.value);
            snprintf(buf, sizeof buf, op->gb_per_s > 0 ? "%.2f" : "-", op->gb_per_s);
            tks__html_cell(f, buf, op->gb_per_s > 0 ? op->gb_per_s : NAN);
        }
        fputs("<td class=\"l\">", f);
        tks__html_text(f, op->what);
        fputs("</td></tr>\n", f);
    }
    tks__html_table_end(f);
}

/* Notes and warnings, one paragraph each, from the same words the console prints. */
static void notes(FILE *f, const tks_sys_result *r)
{
    for (size_t i = 0; i < r->n_ops; i++)
        tks__html_diags(f, &r->ops[i].diags, r->ops[i].id, NULL, NULL);
    tks__html_diags(f, &r->diags, NULL, NULL, NULL);
}

/* Core cycles per call against the number of integer arguments (the ticks when the core clock
 * is unknown), with the intervals. */
static void staircase(FILE *f, const tks_sys_result *r)
{
    double x[8], y[8], lo[8], hi[8], top = 0;
    size_t n = 0;
    int cycles = 1;
    tks__svg s;
    tks__svg_axes a;
    for (size_t i = 0; i < r->n_ops; i++)
        if (!strncmp(r->ops[i].id, "call_", 5) && r->ops[i].ok && isdigit((unsigned char)r->ops[i].id[5]))
            cycles &= isfinite(r->ops[i].cycles.value);
    for (size_t i = 0; i < r->n_ops && n < 8; i++) {
        const tks_sys_op *op = &r->ops[i];
        const tks_interval *v = cycles ? &op->cycles : &op->ticks;
        if (strncmp(op->id, "call_", 5) || !op->ok || !isdigit((unsigned char)op->id[5]))
            continue;
        x[n] = atof(op->id + 5);
        y[n] = v->value;
        lo[n] = v->lo;
        hi[n] = v->hi;
        top = fmax(top, isfinite(hi[n]) ? hi[n] : y[n]);
        n++;
    }
    if (!n)
        return;
    memset(&a, 0, sizeof a);
    a.title = "A call with n integer arguments (the 7th goes on the stack)";
    a.xlabel = "integer arguments";
    a.ylabel = cycles ? "core cycles per call" : "ticks per call";
    a.x0 = -0.5;
    a.x1 = 7.5;
    tks__svg_range(0, top, &a.y0, &a.y1);
    tks__svg_begin(&s, f, &a);
    tks__svg_line(&s, x, y, n, "a");
    for (size_t i = 0; i < n; i++) {
        char tip[96];
        snprintf(tip, sizeof tip, "%g arguments: %.2f [%.2f, %.2f]", x[i], y[i], lo[i], hi[i]);
        tks__svg_interval(&s, x[i], lo[i], hi[i], 0, "a");
        tks__svg_point(&s, x[i], y[i], tip, "a");
    }
    tks__svg_end(&s);
}

/* Load-to-use latency against the working set (log scale), over small and huge pages, with the
 * knees found and the levels /sys declares; then the points as a table. */
static void curve(FILE *f, const tks_sys_result *r)
{
    double x[TKS_SYS_CURVE_MAX], y[TKS_SYS_CURVE_MAX], yh[TKS_SYS_CURVE_MAX], top = 0;
    int cycles = 1;
    char buf[64], b2[32];
    tks__svg s;
    tks__svg_axes a;
    static const char *const hdr[] = {"working set", "core cycles", "ticks [95% interval]",
                                      "huge pages, core cycles"};
    for (size_t i = 0; i < r->n_curve; i++)
        cycles &= isfinite(r->curve[i].cycles);
    for (size_t i = 0; i < r->n_curve; i++) {
        const tks_sys_curve_point *pt = &r->curve[i];
        double k = cycles && pt->ticks > 0 ? pt->cycles / pt->ticks : 1;
        x[i] = (double)pt->bytes;
        y[i] = cycles ? pt->cycles : pt->ticks;
        yh[i] = cycles ? pt->cycles_huge : NAN;
        top = fmax(top, fmax(y[i], isfinite(yh[i]) ? yh[i] : 0));
        top = fmax(top, isfinite(pt->hi) ? pt->hi * k : 0);
    }
    memset(&a, 0, sizeof a);
    a.title = "Load-to-use latency by working set; dashed: the knees (red) and /sys's levels";
    a.xlabel = "working set";
    a.ylabel = cycles ? "core cycles per load" : "ticks per load";
    a.x0 = x[0];
    a.x1 = x[r->n_curve - 1];
    a.logx = 1;
    a.xfmt = bytes_label;
    a.height = 360;
    tks__svg_range(0, top, &a.y0, &a.y1);
    tks__svg_begin(&s, f, &a);
    for (size_t i = 0; i < r->n_caches; i++) {
        snprintf(buf, sizeof buf, "L%d", r->caches[i].level);
        tks__svg_vmark(&s, (double)r->caches[i].bytes, buf, "mark");
    }
    for (size_t i = 0; i < r->n_knees; i++) {
        tks__fmt_bytes(b2, sizeof b2, r->knees[i]);
        snprintf(buf, sizeof buf, "knee %s", b2);
        fprintf(f, "<g class=\"knee-mark\" data-bytes=\"%zu\">", r->knees[i]);
        tks__svg_vmark(&s, (double)r->knees[i], NULL, "knee");
        fputs("<title>", f);
        tks__html_text(f, buf);
        fputs("</title></g>\n", f);
    }
    tks__svg_line(&s, x, y, r->n_curve, "a");
    tks__svg_line(&s, x, yh, r->n_curve, "c");
    for (size_t i = 0; i < r->n_curve; i++) {
        const tks_sys_curve_point *pt = &r->curve[i];
        double k = cycles && pt->ticks > 0 ? pt->cycles / pt->ticks : 1;
        tks__fmt_bytes(b2, sizeof b2, pt->bytes);
        snprintf(buf, sizeof buf, "%s: %.2f", b2, y[i]);
        tks__svg_interval(&s, x[i], pt->lo * k, pt->hi * k, 0, "a");
        tks__svg_point(&s, x[i], y[i], buf, "a");
    }
    tks__svg_end(&s);
    fputs("<p class=\"meta\">Knees (the last working set before the cost doubles):", f);
    for (size_t i = 0; i < r->n_knees; i++)
        fprintf(f, " %s%s", tks__fmt_bytes(b2, sizeof b2, r->knees[i]), i + 1 < r->n_knees ? "," : "");
    fputs(r->n_knees ? ".</p>\n" : " none found.</p>\n", f);
    tks__html_table_begin(f, "curve", hdr, 4, 0);
    for (size_t i = 0; i < r->n_curve; i++) {
        const tks_sys_curve_point *pt = &r->curve[i];
        fprintf(f, "<tr data-bytes=\"%zu\"", pt->bytes);
        tks__html_data(f, "core-cycles", pt->cycles);
        tks__html_data(f, "ticks", pt->ticks);
        fputs(">", f);
        tks__html_cell(f, tks__fmt_bytes(b2, sizeof b2, pt->bytes), (double)pt->bytes);
        snprintf(buf, sizeof buf, isfinite(pt->cycles) ? "%.2f" : "-", pt->cycles);
        tks__html_cell(f, buf, pt->cycles);
        tks__html_cell(f, tks__html_interval(buf, sizeof buf, pt->ticks, pt->lo, pt->hi, 2), pt->ticks);
        snprintf(buf, sizeof buf, isfinite(pt->cycles_huge) ? "%.2f" : "-", pt->cycles_huge);
        tks__html_cell(f, buf, pt->cycles_huge);
        fputs("</tr>\n", f);
    }
    tks__html_table_end(f);
}

static void perf_rows(FILE *f, const tks_sys_perf_row *rows, size_t n)
{
    static const char *const hdr[] = {"perf bench", "perf", "ours", "row", "gap", "why"};
    char buf[96];
    fputs("<h2>versus perf bench</h2>\n", f);
    tks__html_table_begin(f, "perf", hdr, 6, 0);
    for (size_t i = 0; i < n; i++) {
        const tks_sys_perf_row *x = &rows[i];
        fputs("<tr>", f);
        tks__html_cell(f, x->what, NAN);
        snprintf(buf, sizeof buf, x->ok ? "%.4g %s" : "-", x->perf_value, x->unit);
        tks__html_cell(f, buf, x->ok ? x->perf_value : NAN);
        snprintf(buf, sizeof buf, x->ok ? "%.4g" : "-", x->ours_value);
        tks__html_cell(f, buf, x->ok ? x->ours_value : NAN);
        tks__html_cell(f, x->ours_id, NAN);
        snprintf(buf, sizeof buf, x->ok && isfinite(x->gap) ? "%+.1f%%" : "-", 100 * x->gap);
        tks__html_cell(f, buf, x->ok ? x->gap : NAN);
        fputs("<td class=\"l\">", f);
        if (x->ok)
            tks__html_diags(f, &x->diags, NULL, NULL, "; ");
        else
            tks__html_text(f, x->error);
        fputs("</td></tr>\n", f);
    }
    tks__html_table_end(f);
}

int tks__report_sys_html(const tks__sys_doc *d, FILE *f)
{
    char *units = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&units, &len);
    tks__html_begin(f, "tickscope sys: what this machine's operations cost");
    if (m) {
        tks__report_units(d->p, m);
        fclose(m);
        tks__html_lines(f, units, "meta");
        free(units);
    }
    for (size_t i = 0; i < d->n; i++) {
        const tks_sys_result *r = d->res[i];
        fprintf(f, "<h2>%s</h2>\n<p class=\"meta\">Per operation, the empty window subtracted; "
                   "* = derived from other rows; %.1f s.</p>\n",
                tks_sys_suite_name(r->suite), r->seconds);
        if (r->suite == TKS_SYS_CPU)
            staircase(f, r);
        if (r->suite == TKS_SYS_MEM && r->n_curve)
            curve(f, r);
        ops_table(f, r);
        notes(f, r);
    }
    if (d->rows)
        perf_rows(f, d->rows, d->n_rows);
    return tks__html_end(f);
}
