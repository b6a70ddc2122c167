/* SPDX-License-Identifier: MIT */
/* compare_html.c: `tickscope compare` as one HTML page: each benchmark's change (new / old - 1)
 * with its ~95% interval drawn against the threshold, the verdicts, and the table (sortable,
 * filterable; the figures in data attributes, the same numbers as the JSON). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare/compare_report.h"
#include "report/html/html.h"

static const char *unit_name(enum tks__unit u)
{
    return u == TKS__UNIT_CORE ? "core cycles" : u == TKS__UNIT_TICKS ? "ticks" : "ns";
}

static void figure(FILE *f, const tks__cmp_result *r)
{
    tks__svg s;
    tks__svg_axes a;
    double lo = -r->threshold, hi = r->threshold;
    size_t longest = 4;
    char label[32];
    for (size_t i = 0; i < r->n; i++) {
        const tks__cmp_row *w = &r->rows[i];
        lo = fmin(lo, isfinite(w->lo) ? w->lo : w->change);
        hi = fmax(hi, isfinite(w->hi) ? w->hi : w->change);
        longest = strlen(w->name) > longest ? strlen(w->name) : longest;
    }
    memset(&a, 0, sizeof a);
    a.title = "Change (new / old - 1, %) with its ~95% interval; dashed: the threshold";
    a.xlabel = "change, %";
    a.ylabel = "";
    tks__svg_range(100 * lo, 100 * hi, &a.x0, &a.x1);
    if (a.x0 >= 0) /* the range starts at 0 when nothing got faster: show a little below */
        a.x0 = -(a.x1 - a.x0) / 10;
    a.y0 = 0;
    a.y1 = (double)r->n + 1;
    a.no_y_ticks = 1;
    a.left = (int)(longest > 40 ? 270 : longest * 6.5 + 16);
    a.height = (int)(90 + 22 * r->n);
    tks__svg_begin(&s, f, &a);
    tks__svg_vmark(&s, 0, "0", "axis");
    snprintf(label, sizeof label, "-%g%%", 100 * r->threshold);
    tks__svg_vmark(&s, -100 * r->threshold, label, "mark");
    snprintf(label, sizeof label, "+%g%%", 100 * r->threshold);
    tks__svg_vmark(&s, 100 * r->threshold, label, "mark");
    for (size_t i = 0; i < r->n; i++) {
        const tks__cmp_row *w = &r->rows[i];
        const char *cls = w->verdict == TKS__SLOWER   ? "b"
                          : w->verdict == TKS__FASTER ? "c"
                                                              : "a";
        char tip[240];
        double y = a.y1 - (double)(i + 1);
        snprintf(tip, sizeof tip, "%s: %+.2f%% [%+.2f%%, %+.2f%%], %s", w->name, 100 * w->change,
                 100 * w->lo, 100 * w->hi, tks__verdict_name(w->verdict));
        tks__svg_interval(&s, y, 100 * w->lo, 100 * w->hi, 1, cls);
        tks__svg_point(&s, 100 * w->change, y, tip, cls);
        tks__svg_text(&s, a.x0, y, -6, "end", w->name);
    }
    tks__svg_end(&s);
}

static void table(FILE *f, const tks__cmp_result *r)
{
    static const char *const hdr[] = {"benchmark", "unit", "old", "new", "change [95% interval]",
                                      "test", "p", "runs", "verdict"};
    char buf[160];
    tks__html_table_begin(f, "compare", hdr, 9, 1);
    for (size_t i = 0; i < r->n; i++) {
        const tks__cmp_row *w = &r->rows[i];
        fputs("<tr data-name=\"", f);
        tks__html_text(f, w->name);
        fprintf(f, "\" data-verdict=\"%s\"", tks__verdict_name(w->verdict));
        tks__html_data(f, "old", w->old_value);
        tks__html_data(f, "new", w->new_value);
        tks__html_data(f, "change", w->change);
        tks__html_data(f, "change-lo", w->lo);
        tks__html_data(f, "change-hi", w->hi);
        fputs(">", f);
        tks__html_cell(f, w->name, NAN);
        tks__html_cell(f, unit_name(w->unit), NAN);
        snprintf(buf, sizeof buf, "%.4g", w->old_value);
        tks__html_cell(f, buf, w->old_value);
        snprintf(buf, sizeof buf, "%.4g", w->new_value);
        tks__html_cell(f, buf, w->new_value);
        if (!isfinite(w->change))
            snprintf(buf, sizeof buf, "-");
        else if (!isfinite(w->lo) || !isfinite(w->hi))
            snprintf(buf, sizeof buf, "%+.2f%% (no interval)", 100 * w->change);
        else
            snprintf(buf, sizeof buf, "%+.2f%% [%+.2f%%, %+.2f%%]", 100 * w->change, 100 * w->lo,
                     100 * w->hi);
        tks__html_cell(f, buf, w->change);
        tks__html_cell(f, w->test == TKS__TEST_UTEST       ? "Mann-Whitney U"
                          : w->test == TKS__TEST_BOOTSTRAP ? "bootstrap"
                                                           : (w->too_few ? "none: too few runs" : "none"),
                       NAN);
        snprintf(buf, sizeof buf, isfinite(w->p) ? "%.3g" : "-", w->p);
        tks__html_cell(f, buf, w->p);
        snprintf(buf, sizeof buf, "%zu / %zu", w->n_old, w->n_new);
        tks__html_cell(f, buf, NAN);
        snprintf(buf, sizeof buf, "%s%s", tks__verdict_name(w->verdict),
                 w->regression ? " (regression)" : w->not_tested ? " (NOT TESTED)" : "");
        fputs("<td class=\"verdict l\">", f);
        tks__html_text(f, buf);
        fputs("</td></tr>\n", f);
    }
    tks__html_table_end(f);
}

int tks__cmp_html(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name)
{
    char title[600];
    snprintf(title, sizeof title, "compare: %s against %s", new_name, old_name);
    tks__html_begin(f, title);
    fprintf(f, "<p class=\"meta\">A (old) = ");
    tks__html_text(f, old_name);
    fputs(", B (new) = ", f);
    tks__html_text(f, new_name);
    fprintf(f, "; %zu benchmark%s in both; a change within &#177;%g%% is the same",
            r->n, r->n == 1 ? "" : "s", 100 * r->threshold);
    if (r->gate >= 0)
        fprintf(f, "; a regression is slower by more than %g%% with 95%% confidence", 100 * r->gate);
    fprintf(f, ".</p>\n<p class=\"verdict\">%zu regression%s", r->regressions,
            r->regressions == 1 ? "" : "s");
    if (r->not_tested) /* issue 46: as loud as the regressions */
        fprintf(f, "; %zu benchmark%s NOT TESTED against the gate (too few runs)", r->not_tested,
                r->not_tested == 1 ? "" : "s");
    fputs(".</p>\n", f);
    tks__html_diags(f, &r->diags, NULL, "warn", NULL); /* as the console has them */
    if (r->only_old || r->only_new) {
        fprintf(f, "<p class=\"meta\">In one file only: %zu old (", r->only_old);
        tks__html_text(f, r->only_old_names);
        fprintf(f, "), %zu new (", r->only_new);
        tks__html_text(f, r->only_new_names);
        fputs(").</p>\n", f);
    }
    if (r->n)
        figure(f, r);
    table(f, r);
    return tks__html_end(f);
}
