/* SPDX-License-Identifier: MIT */
/* bench_html.c: a benchmark run as one HTML page (--html FILE, or --format html): every
 * benchmark's cost with its ~95% interval drawn side by side, the table (sortable, filterable,
 * each row's figures in data attributes, the same numbers as the JSON), the warnings, and the
 * distribution of each benchmark's windows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"
#include "report/html/html.h"

static void head(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                 size_t n, const char *prog)
{
    char title[200], *text = NULL;
    size_t len = 0;
    FILE *m;
    snprintf(title, sizeof title, "%s: %zu benchmark run%s", prog ? prog : "benchmarks", n,
             n == 1 ? "" : "s");
    tks__html_begin(f, title);
    if ((m = open_memstream(&text, &len)) != NULL) {
        enum tks_method meth = n ? r[0].method : TKS_METHOD_COUNT;
        fprintf(m, "tickscope %s: method %s, %s mode, %.3g s per benchmark\n", TKS_VERSION_STRING,
                (unsigned)meth < TKS_METHOD_COUNT ? tks_method_info(meth)->name : "?",
                o->mode == TKS_MODE_LATENCY ? "latency" : "throughput", o->min_time);
        tks__report_units(p, m);
        fclose(m);
        tks__html_lines(f, text, "meta");
        free(text);
    }
}

/* A run's name, with its repetition after the first ("add40 #2"). Returns buf. */
static const char *label_of(const tks_result *r, char *buf, size_t size)
{
    if (r->repetition)
        snprintf(buf, size, "%s #%u", r->name, r->repetition + 1);
    else
        snprintf(buf, size, "%s", r->name);
    return buf;
}

/* Each benchmark's headline with its interval: one line per run, the names on the left. */
static void figure(FILE *f, const tks_result *r, size_t n)
{
    tks__svg s;
    tks__svg_axes a;
    double lo = INFINITY, hi = -INFINITY;
    size_t shown = 0, longest = 4;
    for (size_t i = 0; i < n; i++) {
        if (!r[i].ok)
            continue;
        lo = fmin(lo, isfinite(r[i].estimate.lo) ? r[i].estimate.lo : r[i].estimate.value);
        hi = fmax(hi, isfinite(r[i].estimate.hi) ? r[i].estimate.hi : r[i].estimate.value);
        longest = strlen(r[i].name) + 4 > longest ? strlen(r[i].name) + 4 : longest;
        shown++;
    }
    if (!shown)
        return;
    memset(&a, 0, sizeof a);
    a.title = "Ticks per execution, with the ~95% interval";
    a.xlabel = "ticks";
    a.ylabel = "";
    tks__svg_range(lo, hi, &a.x0, &a.x1);
    a.y0 = 0;
    a.y1 = (double)shown + 1;
    a.no_y_ticks = 1;
    a.left = (int)(longest > 40 ? 270 : longest * 6.5 + 16);
    a.height = (int)(80 + 22 * shown);
    tks__svg_begin(&s, f, &a);
    shown = 0;
    for (size_t i = 0; i < n; i++) {
        char tip[200];
        double y;
        if (!r[i].ok)
            continue;
        y = a.y1 - (double)++shown;
        snprintf(tip, sizeof tip, "%s: %.4g ticks [%.4g, %.4g]", r[i].name, r[i].estimate.value,
                 r[i].estimate.lo, r[i].estimate.hi);
        tks__svg_interval(&s, y, r[i].estimate.lo, r[i].estimate.hi, 1, "a");
        tks__svg_point(&s, r[i].estimate.value, y, tip, "a");
        tks__svg_text(&s, a.x0, y, -6, "end", label_of(&r[i], tip, sizeof tip));
    }
    tks__svg_end(&s);
}

static void table(FILE *f, const tks_result *r, size_t n)
{
    static const char *const hdr[] = {"Benchmark", "ticks [95% interval]", "core cycles", "ns",
                                      "min", "median", "windows"};
    char buf[160];
    tks__html_table_begin(f, "benchmarks", hdr, 7, 1);
    for (size_t i = 0; i < n; i++) {
        const tks_result *x = &r[i];
        fputs("<tr", f);
        fputs(" data-name=\"", f);
        tks__html_text(f, x->name);
        fprintf(f, "\" data-repetition=\"%u\" data-ok=\"%d\"", x->repetition, x->ok);
        if (x->ok) {
            tks__html_data_figures(f, x->estimate.value, x->estimate.lo, x->estimate.hi,
                                   x->core_cycles.value, x->ns.value);
        }
        fputs(">", f);
        tks__html_cell(f, label_of(x, buf, sizeof buf), NAN);
        if (!x->ok) {
            tks__html_cell(f, x->skipped ? "skipped" : "FAILED", NAN);
            fputs("<td></td><td></td><td></td><td></td><td></td></tr>\n", f);
            continue;
        }
        tks__html_cell(f, tks__html_interval(buf, sizeof buf, x->estimate.value, x->estimate.lo,
                                             x->estimate.hi, 3), x->estimate.value);
        tks__html_cell(f, tks__html_interval(buf, sizeof buf, x->core_cycles.value,
                                             x->core_cycles.lo, x->core_cycles.hi, 3),
                       x->core_cycles.value);
        snprintf(buf, sizeof buf, "%.3f", x->ns.value);
        tks__html_cell(f, isfinite(x->ns.value) ? buf : "-", x->ns.value);
        snprintf(buf, sizeof buf, "%.0f", x->min.value);
        tks__html_cell(f, buf, x->min.value);
        snprintf(buf, sizeof buf, "%.1f", x->median.value);
        tks__html_cell(f, buf, x->median.value);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)x->windows);
        tks__html_cell(f, buf, (double)x->windows);
        fputs("</tr>\n", f);
    }
    tks__html_table_end(f);
}

/* A run's error and its diagnostics, under one heading when there is any. */
static void warnings(FILE *f, const tks_result *r, size_t n)
{
    int any = 0;
    for (size_t i = 0; i < n && !any; i++)
        any = (!r[i].ok && r[i].error[0]) || r[i].diags.n;
    if (!any)
        return;
    fputs("<h2>Warnings</h2>\n", f);
    for (size_t i = 0; i < n; i++) {
        if (!r[i].ok && r[i].error[0]) {
            fputs("<p class=\"warn\">", f);
            tks__html_text(f, r[i].name);
            fputs(": ", f);
            tks__html_text(f, r[i].error);
            fputs("</p>\n", f);
        }
        tks__html_diags(f, &r[i].diags, r[i].name, "warn", NULL);
    }
}

/* The windows of one run (the largest k), binned as the terminal histogram is. */
static void histogram(FILE *f, const tks_result *r)
{
    size_t m;
    tks_summary sum;
    tks__histogram h;
    uint64_t *v = tks__bench_windows(r, &m, &sum);
    uint64_t top = 0;
    tks__svg s;
    tks__svg_axes a;
    char title[200];
    if (!v)
        return;
    if (tks__histogram_build(v, m, r->quantum, 60, &h) != 0 || !h.nbins) {
        free(v);
        return;
    }
    for (size_t b = 0; b < h.nbins; b++)
        top = h.counts[b] > top ? h.counts[b] : top;
    char name[160];
    snprintf(title, sizeof title, "%s: %zu windows (ticks, overhead included)",
             label_of(r, name, sizeof name), m);
    memset(&a, 0, sizeof a);
    a.title = title;
    a.xlabel = "ticks per window";
    a.ylabel = "windows";
    a.x0 = (double)h.lo;
    a.x1 = (double)(h.lo + h.width * h.nbins);
    tks__svg_range(0, (double)top, &a.y0, &a.y1);
    a.height = 240;
    tks__svg_begin(&s, f, &a);
    for (size_t b = 0; b < h.nbins; b++) {
        double x0 = tks__svg_x(&s, (double)(h.lo + h.width * b)),
               x1 = tks__svg_x(&s, (double)(h.lo + h.width * (b + 1))),
               y = tks__svg_y(&s, (double)h.counts[b]), y0 = tks__svg_y(&s, 0);
        fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                   "<title>%llu windows</title></rect>\n",
                x0, y, x1 - x0 > 1 ? x1 - x0 - 0.5 : 0.5, y0 - y,
                (unsigned long long)h.counts[b]);
    }
    tks__svg_vmark(&s, sum.median, "median", "mark");
    tks__svg_end(&s);
    tks__histogram_free(&h);
    free(v);
}

int tks__bench_html(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                    size_t n, const char *prog)
{
    head(f, o, p, r, n, prog);
    figure(f, r, n);
    table(f, r, n);
    warnings(f, r, n);
    fputs("<h2>Windows</h2>\n", f);
    for (size_t i = 0; i < n; i++)
        if (r[i].ok && r[i].n_samples)
            histogram(f, &r[i]);
    return tks__html_end(f);
}
