/* SPDX-License-Identifier: MIT */
/* compare_formats.c: `tickscope compare`'s writer table, and its CSV writer: one row per
 * benchmark the two files share, with the columns of the JSON's "benchmarks". */
#include "report/compare/compare_report.h"

#include "tickscope.h"

static int compare_csv(FILE *f, const void *doc)
{
    const tks__compare_doc *d = doc;
    static const char *const unit[TKS__UNITS] = {"core_cycles", "ticks", "ns"};
    fputs("name,unit,old,new,change,change_lo,change_hi,test,p_value,n_old,n_new,verdict,"
          "regression,not_tested\n", f);
    for (size_t i = 0; i < d->r->n; i++) {
        const tks__cmp_row *w = &d->r->rows[i];
        tks__csv_field(f, w->name);
        fprintf(f, ",%s", unit[w->unit]);
        tks__csv_next_double(f, w->old_value);
        tks__csv_next_double(f, w->new_value);
        tks__csv_next_double(f, w->change);
        tks__csv_next_double(f, w->lo);
        tks__csv_next_double(f, w->hi);
        fprintf(f, ",%s", w->test == TKS__TEST_UTEST       ? "mann-whitney-u"
                          : w->test == TKS__TEST_BOOTSTRAP ? "bootstrap" : "none");
        tks__csv_next_double(f, w->p);
        fprintf(f, ",%zu,%zu,%s,%s,%s\n", w->n_old, w->n_new, tks__verdict_name(w->verdict),
                w->regression ? "yes" : "no", w->not_tested ? "yes" : "no");
    }
    return ferror(f) ? TKS_EIO : 0;
}

static int compare_console(FILE *f, const void *doc)
{
    const tks__compare_doc *d = doc;
    return tks__cmp_console(f, d->r, d->old_name, d->new_name);
}

static int compare_markdown(FILE *f, const void *doc)
{
    const tks__compare_doc *d = doc;
    return tks__cmp_markdown(f, d->r, d->old_name, d->new_name);
}

static int compare_json(FILE *f, const void *doc)
{
    const tks__compare_doc *d = doc;
    return tks__cmp_json(f, d->r, d->old_name, d->new_name);
}

static int compare_html(FILE *f, const void *doc)
{
    const tks__compare_doc *d = doc;
    return tks__cmp_html(f, d->r, d->old_name, d->new_name);
}

TKS__WRITERS(tks__compare_writers, "compare", {TKS_FORMAT_CONSOLE, compare_console},
             {TKS_FORMAT_JSON, compare_json}, {TKS_FORMAT_CSV, compare_csv},
             {TKS_FORMAT_MARKDOWN, compare_markdown}, {TKS_FORMAT_HTML, compare_html});
