/* SPDX-License-Identifier: MIT */
/* bench_outputs.c: where benchmark reports go: the output files opened before measuring and
 * committed after, the writer table (the choice of format), the raw windows and the plots. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"

int tks__bench_outputs_open(struct tks__bench_outputs *w, const tks_options *o, char *err,
                           size_t errlen)
{
    const char *out = o->out && *o->out ? o->out : "-";
    int rc;
    memset(w, 0, sizeof *w);
    w->out_path = out;
    w->raw_path = o->raw;
    w->file_path = o->report_file;
    w->html_path = o->html;
    if ((rc = tks__atomic_open(&w->out, out)) != 0) {
        tks__atomic_failure(&w->out, rc, out, err, errlen);
        return TKS_EIO;
    }
    if (o->raw) {
        if ((rc = tks__atomic_open(&w->raw, o->raw)) != 0) {
            tks__atomic_abort(&w->out);
            tks__atomic_failure(&w->raw, rc, o->raw, err, errlen);
            return TKS_EIO;
        }
        w->have_raw = 1;
    }
    if (o->report_file) {
        if ((rc = tks__atomic_open(&w->file, o->report_file)) != 0) {
            tks__atomic_failure(&w->file, rc, o->report_file, err, errlen);
            tks__atomic_abort(&w->out);
            tks__atomic_abort(&w->raw);
            return TKS_EIO;
        }
        w->have_file = 1;
    }
    if (o->html) {
        if ((rc = tks__atomic_open(&w->html, o->html)) != 0) {
            tks__atomic_failure(&w->html, rc, o->html, err, errlen);
            tks__atomic_abort(&w->out);
            tks__atomic_abort(&w->raw);
            tks__atomic_abort(&w->file);
            return TKS_EIO;
        }
        w->have_html = 1;
    }
    return 0;
}

int tks__bench_outputs_close(struct tks__bench_outputs *w, int commit, char *err, size_t errlen)
{
    int rc = 0, r;
    if (!commit) {
        tks__atomic_abort(&w->out);
        if (w->have_raw)
            tks__atomic_abort(&w->raw);
        if (w->have_file)
            tks__atomic_abort(&w->file);
        if (w->have_html)
            tks__atomic_abort(&w->html);
        return 0;
    }
    if (w->have_html && (r = tks__atomic_commit(&w->html)) != 0) {
        tks__atomic_failure(&w->html, r, w->html_path, err, errlen);
        rc = TKS_EIO;
    }
    if (w->have_file && (r = tks__atomic_commit(&w->file)) != 0) {
        tks__atomic_failure(&w->file, r, w->file_path, err, errlen);
        rc = TKS_EIO;
    }
    if ((r = tks__atomic_commit(&w->out)) != 0) {
        tks__atomic_failure(&w->out, r, w->out_path, err, errlen);
        rc = TKS_EIO;
    }
    if (w->have_raw && (r = tks__atomic_commit(&w->raw)) != 0 && rc == 0) {
        tks__atomic_failure(&w->raw, r, w->raw_path, err, errlen);
        rc = TKS_EIO;
    }
    return rc;
}

static int bench_console(FILE *f, const void *doc)
{
    const tks__bench_doc *d = doc;
    return tks__bench_console(f, d->o, d->p, d->r, d->n, d->streamed);
}

static int bench_json(FILE *f, const void *doc)
{
    const tks__bench_doc *d = doc;
    return tks__bench_json(f, d->o, d->p, d->r, d->n, d->prog);
}

static int bench_csv(FILE *f, const void *doc)
{
    const tks__bench_doc *d = doc;
    return tks__bench_csv(f, d->o, d->p, d->r, d->n);
}

static int bench_markdown(FILE *f, const void *doc)
{
    const tks__bench_doc *d = doc;
    return tks__bench_markdown(f, d->o, d->p, d->r, d->n);
}

static int bench_html(FILE *f, const void *doc)
{
    const tks__bench_doc *d = doc;
    return tks__bench_html(f, d->o, d->p, d->r, d->n, d->prog);
}

TKS__WRITERS(tks__bench_writers, "a benchmark program", {TKS_FORMAT_CONSOLE, bench_console},
             {TKS_FORMAT_JSON, bench_json}, {TKS_FORMAT_CSV, bench_csv},
             {TKS_FORMAT_MARKDOWN, bench_markdown}, {TKS_FORMAT_HTML, bench_html});

int tks__bench_format_parse(const char *opt, const char *v, enum tks_format *out, char *err,
                            size_t errlen)
{
    int f = tks__writers_parse(&tks__bench_writers, v);
    if (f < 0) {
        tks__writers_unknown(&tks__bench_writers, opt, v, err, errlen);
        return 2;
    }
    *out = (enum tks_format)f;
    return 0;
}

int tks__bench_report(struct tks__bench_outputs *w, const tks_options *o, const tks_platform *p,
                     const tks_result *r, size_t n, const char *prog, char *err, size_t errlen)
{
    /* --benchmark_display_aggregates_only: the display (stdout or --out) shows only the
     * aggregates, --benchmark_out's file everything (unless report_aggregates_only). */
    tks_options display = *o;
    const tks__bench_doc d = {&display, p, r, n, prog, w->streamed},
                         whole = {o, p, r, n, prog, 0};
    int rc;
    display.report_aggregates_only |= o->display_aggregates_only;
    if ((rc = tks__writers_write(&tks__bench_writers, o->format, w->out.f, &d)) != 0)
        tks__atomic_failure(&w->out, rc, w->out_path, err, errlen);
    if (rc == 0 && w->have_file &&
        (rc = tks__writers_write(&tks__bench_writers, o->report_file_format, w->file.f, &whole)) != 0)
        tks__atomic_failure(&w->file, rc, w->file_path, err, errlen);
    if (rc == 0 && w->have_html &&
        (rc = tks__writers_write(&tks__bench_writers, TKS_FORMAT_HTML, w->html.f, &whole)) != 0)
        tks__atomic_failure(&w->html, rc, w->html_path, err, errlen);
    if (rc == 0 && w->have_raw && (rc = tks__bench_raw_csv(w->raw.f, r, n)) != 0)
        tks__atomic_failure(&w->raw, rc, w->raw_path, err, errlen);
    return rc;
}

int tks__bench_outputs_stream(const struct tks__bench_outputs *w, const tks_options *o)
{
    return !strcmp(w->out_path, "-") &&
           tks__writers_find(&tks__bench_writers, o->format) == bench_console;
}

int tks__bench_raw_csv(FILE *f, const tks_result *r, size_t n)
{
    fputs("benchmark,repetition,window,k,empty_ticks,ticks\n", f);
    for (size_t i = 0; i < n; i++)
        for (size_t s = 0; s < r[i].n_samples; s++)
            fprintf(f, "%s,%u,%zu,%u,%llu,%llu\n", r[i].name, r[i].repetition, s, r[i].k[s],
                    (unsigned long long)r[i].empty[s], (unsigned long long)r[i].real[s]);
    return ferror(f) ? TKS_EIO : 0;
}

void tks__bench_plots(const char *dir, const tks_result *r, size_t n, char *msg, size_t size)
{
    size_t written = 0, failed = 0;
    char render[400];
    for (size_t i = 0; i < n; i++) {
        size_t m;
        uint64_t *v;
        tks_summary s;
        char name[160], title[200];
        if (!r[i].ok || !(v = tks__bench_windows(&r[i], &m, &s)))
            continue;
        if (r[i].repetition)
            snprintf(name, sizeof name, "%s.rep%u", r[i].name, r[i].repetition);
        else
            snprintf(name, sizeof name, "%s", r[i].name);
        snprintf(title, sizeof title, "%s: windows with k = %u (%s, %s mode)", r[i].name,
                 r[i].n_ks ? r[i].ks[r[i].n_ks - 1] : 1, tks_method_info(r[i].method)->name,
                 r[i].mode == TKS_MODE_LATENCY ? "latency" : "throughput");
        if (tks__plot_histogram(dir, name, title, v, m, r[i].quantum, s.median, s.pa_mean) == 0)
            written++;
        else
            failed++;
        free(v);
    }
    if (failed) {
        snprintf(msg, size, "--plot: %zu of %zu plots could not be written to %s", failed,
                 written + failed, dir);
        return;
    }
    tks__plot_render(dir, render, sizeof render);
    snprintf(msg, size, "wrote %zu histogram%s to %s; %s", written, written == 1 ? "" : "s", dir,
             render);
}
