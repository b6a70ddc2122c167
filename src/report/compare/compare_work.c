/* SPDX-License-Identifier: MIT */
/* compare_work.c: the work counters two compared files share (issue 26), after the comparison
 * of times: a table of each benchmark's counters, old and new mean and the change, in the
 * console and Markdown, and each row's "counters" in the JSON. Shown, not judged. */
#include "report/compare/compare_report.h"

#include <math.h>
#include <string.h>

static void cells(const tks__cmp_row *w, const tks__cmp_counter_row *c, char v[5][160])
{
    snprintf(v[0], 160, "%s", w->name);
    snprintf(v[1], 160, "%s", c->name);
    snprintf(v[2], 160, "%.5g", c->old_value);
    snprintf(v[3], 160, "%.5g", c->new_value);
    if (isfinite(c->change))
        snprintf(v[4], 160, "%+.2f%%", 100 * c->change);
    else
        snprintf(v[4], 160, "?");
}

static size_t count(const tks__cmp_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += r->rows[i].n_counters;
    return n;
}

static const char *const headers[5] = {"benchmark", "work counter", "old", "new", "change"};
static const char intro[] = "Work counters both files have (the mean of each file's runs; "
                            "shown, not judged: the verdict is on time):";

int tks__cmp_counters_console(FILE *f, const tks__cmp_result *r)
{
    tks__table *t;
    if (!count(r))
        return 0;
    if (!(t = tks__table_new(5, headers, "llrrr")))
        return TKS_ENOMEM;
    fprintf(f, "%s\n\n", intro);
    for (size_t i = 0; i < r->n; i++)
        for (size_t k = 0; k < r->rows[i].n_counters; k++) {
            char v[5][160];
            const char *cp[5] = {v[0], v[1], v[2], v[3], v[4]};
            cells(&r->rows[i], &r->rows[i].counters[k], v);
            tks__table_add_row(t, cp);
        }
    tks__table_print(t, f, "");
    tks__table_free(t);
    fputc('\n', f);
    return 0;
}

void tks__cmp_counters_markdown(FILE *f, const tks__cmp_result *r)
{
    if (!count(r))
        return;
    fprintf(f, "%s\n\n|", intro);
    for (int k = 0; k < 5; k++)
        tks__md_cell(f, headers[k]);
    fputs("\n|---|---|--:|--:|--:|\n", f);
    for (size_t i = 0; i < r->n; i++)
        for (size_t k = 0; k < r->rows[i].n_counters; k++) {
            char v[5][160];
            cells(&r->rows[i], &r->rows[i].counters[k], v);
            fputc('|', f);
            for (int c = 0; c < 5; c++)
                tks__md_cell(f, v[c]);
            fputc('\n', f);
        }
    fputc('\n', f);
}

void tks__cmp_counters_json(tks__json *j, const tks__cmp_row *w)
{
    tks__json_begin_array(j, "counters");
    for (size_t k = 0; k < w->n_counters; k++) {
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", w->counters[k].name);
        tks__json_double(j, "old", w->counters[k].old_value);
        tks__json_double(j, "new", w->counters[k].new_value);
        tks__json_double(j, "change", w->counters[k].change);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
}
