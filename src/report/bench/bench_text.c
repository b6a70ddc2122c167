/* SPDX-License-Identifier: MIT */
/* bench_text.c: benchmark results for people: an aligned console table (with each benchmark's
 * warnings under it and, on request, its histogram) and the same figures as a Markdown table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"

#define COLS 11
/* The last column, work counters (issue 26), is there when a result has one. */
static const char *const headers[COLS + 1] = {"Benchmark", "ticks", "95% interval", "core cycles",
                                              "ns", "min", "median", "overhead", "windows",
                                              "outliers", "discarded", "work counters"};

/* The headers, the time column named in --benchmark_time_unit's unit. */
static const char **headers_of(const tks_options *o, const char *h[COLS + 1])
{
    for (int c = 0; c < COLS + 1; c++)
        h[c] = c == 4 ? tks__bench_time_unit(o) : headers[c];
    return h;
}

struct row {
    char cell[COLS][136];
    char work[600];
    const tks_result *r; /* the counters' (counters_tabular.c): r's, or stat over r[0..reps) */
    size_t reps;
    int stat;
};

/* The cells of row w, the work counters last (shown when a result has any). */
static void cells_of(const struct row *w, const char *cells[COLS + 1])
{
    for (int c = 0; c < COLS; c++)
        cells[c] = w->cell[c];
    cells[COLS] = w->work;
}

static void fmt(char *buf, size_t size, double v, int decimals)
{
    if (isfinite(v))
        tks__fmt_double(buf, size, v, decimals);
    else
        snprintf(buf, size, "-");
}

/* Decimals enough to show a tenth of the interval's half-width, between 1 and 4. */
static int decimals_for(const tks_interval *e)
{
    double half = (e->hi - e->lo) / 2;
    if (!(half > 0))
        return 2;
    int d = (int)ceil(-log10(half / 10));
    return d < 1 ? 1 : d > 4 ? 4 : d;
}

static void row_of(const tks_options *o, const tks_result *r, struct row *w)
{
    int d = decimals_for(&r->estimate), dc = decimals_for(&r->core_cycles);
    char a[24], b[24], lower[24];
    double up, down;
    int lopsided;
    memset(w, 0, sizeof *w);
    w->r = r, w->reps = 1, w->stat = -1;
    snprintf(w->cell[0], sizeof w->cell[0], "%s", r->name);
    if (!r->ok || o->dry_run) { /* a dry run has no figures: the body ran, that is all */
        snprintf(w->cell[1], sizeof w->cell[1], "%s",
                 r->skipped ? "skipped" : !r->ok ? "FAILED" : "ran (dry run)");
        for (int c = 2; c < COLS; c++)
            snprintf(w->cell[c], sizeof w->cell[c], "-");
        return;
    }
    fmt(w->cell[1], sizeof w->cell[1], r->estimate.value, d);
    fmt(a, sizeof a, r->estimate.lo, d);
    fmt(b, sizeof b, r->estimate.hi, d);
    snprintf(w->cell[2], sizeof w->cell[2], "[%s, %s]", a, b);
    /* Core cycles with their own interval, which carries the reference's error too: +-half
     * its width, or each side where they differ by more than a tenth of the wider one (latency
     * mode on a shared core reaches down further than up: figures.c). The ratio of two
     * intervals is never quite symmetric; that small a difference moves neither end by more
     * than a twentieth of the interval and is not worth the wider cell. */
    up = r->core_cycles.hi - r->core_cycles.value;
    down = r->core_cycles.value - r->core_cycles.lo;
    fmt(a, sizeof a, r->core_cycles.value, dc);
    fmt(b, sizeof b, up, dc);
    fmt(lower, sizeof lower, down, dc);
    lopsided = fabs(up - down) > 0.1 * fmax(up, down) && strcmp(b, lower) != 0;
    if (!lopsided)
        fmt(b, sizeof b, (up + down) / 2, dc);
    if (!isfinite(r->core_cycles.value))
        snprintf(w->cell[3], sizeof w->cell[3], "-");
    else if (lopsided)
        snprintf(w->cell[3], sizeof w->cell[3], "%s+%s/-%s", a, b, lower);
    else
        snprintf(w->cell[3], sizeof w->cell[3], "%s+-%s", a, b);
    fmt(w->cell[4], sizeof w->cell[4], tks__bench_time(o, r->ns.value),
        d + 3 * (int)o->time_unit);
    fmt(w->cell[5], sizeof w->cell[5], r->min.value, r->mode == TKS_MODE_LATENCY ? 0 : d);
    fmt(w->cell[6], sizeof w->cell[6], r->median.value, r->mode == TKS_MODE_LATENCY ? 1 : d);
    fmt(a, sizeof a, r->overhead.value, 1);
    fmt(b, sizeof b, (r->overhead.hi - r->overhead.lo) / 2, 1);
    snprintf(w->cell[7], sizeof w->cell[7], "%s+-%s", a, b);
    snprintf(w->cell[8], sizeof w->cell[8], "%llu", (unsigned long long)r->windows);
    snprintf(w->cell[9], sizeof w->cell[9], "%llu/%llu", (unsigned long long)r->outliers_low,
             (unsigned long long)r->outliers_high);
    snprintf(w->cell[10], sizeof w->cell[10], "%llu",
             (unsigned long long)(r->discarded_migrated + r->discarded_negative));
    tks__bench_counters_cell(w->work, sizeof w->work, r, 1, -1);
}

static void aggregate_rows(const tks_options *o, const tks_result *r, size_t reps,
                           const tks_platform *p, struct row *w)
{
    static const char *const names[4] = {"mean", "median", "stddev", "cv"};
    tks__bench_aggregate a;
    tks__bench_aggregate_of(r, reps, p, &a);
    for (int i = 0; i < TKS__AGG_COUNT; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].r = r, w[i].reps = reps, w[i].stat = i;
        snprintf(w[i].cell[0], sizeof w[i].cell[0], "%s_%s", r->name, names[i]);
        for (int c = 1; c < COLS; c++)
            snprintf(w[i].cell[c], sizeof w[i].cell[c], "%s", "");
        if (i == TKS__AGG_CV) {
            tks__bench_counters_cell(w[i].work, sizeof w[i].work, r, reps, i);
            fmt(w[i].cell[1], sizeof w[i].cell[1], 100 * a.ticks[i], 2);
            strcat(w[i].cell[1], "%");
            continue;
        }
        fmt(w[i].cell[1], sizeof w[i].cell[1], a.ticks[i], 3);
        fmt(w[i].cell[3], sizeof w[i].cell[3], a.cycles[i], 3);
        fmt(w[i].cell[4], sizeof w[i].cell[4], tks__bench_time(o, a.ns[i]), 3 + 3 * (int)o->time_unit);
        tks__bench_counters_cell(w[i].work, sizeof w[i].work, r, reps, i);
    }
}

static void header(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                   size_t n, const char *bullet)
{
    enum tks_method m = n ? r[0].method : TKS_METHOD_COUNT;
    char per[48];
    if (o->windows)
        snprintf(per, sizeof per, "%lu windows", o->windows);
    else
        snprintf(per, sizeof per, "%.3g s", o->min_time);
    fprintf(f, "%stickscope %s: method %s, %s mode, %s per benchmark\n", bullet,
            TKS_VERSION_STRING, (unsigned)m < TKS_METHOD_COUNT ? tks_method_info(m)->name : "?",
            o->mode == TKS_MODE_LATENCY ? "latency" : "throughput", per);
    fputs(bullet, f);
    tks__report_units(p, f);
    for (size_t i = 0; i < p->n_env; i++)
        if (p->env[i].status == TKS_ENV_WARN) {
            fprintf(f, "%swarning: ", bullet);
            tks__report_finding(f, &p->env[i], "; ");
            fputc('\n', f);
        }
}

static const char *estimate_name(const tks_options *o)
{
    return o->mode == TKS_MODE_LATENCY
               ? "ticks: phase-averaged mean per execution, the empty window's subtracted "
                 "and the harness gap of a non-empty window (measured with the reference chains); "
                 "a block under 100 ticks combined with its cost in a stream when the two agree"
               : "ticks: least-squares slope per execution over the repetition counts";
}

static int histograms(FILE *f, const tks_result *r, size_t n)
{
    tks__histogram_style st;
    memset(&st, 0, sizeof st);
    st.indent = "  ";
    for (size_t i = 0; i < n; i++) {
        size_t m;
        uint64_t *v;
        tks_summary s;
        uint32_t k = r[i].ks[r[i].n_ks ? r[i].n_ks - 1 : 0];
        int rc;
        if (!r[i].ok || !r[i].n_samples)
            continue;
        if (!(v = tks__bench_windows(&r[i], &m, &s)))
            return TKS_ENOMEM; /* windows were there: only memory can have run out */
        fprintf(f, "\n%s: %zu windows of %u execution%s, ticks (overhead included)\n", r[i].name,
                m, k, k == 1 ? "" : "s");
        rc = tks__histogram_print(f, v, m, r[i].quantum, s.median, s.pa_mean, &st);
        free(v);
        if (rc)
            return rc;
    }
    return 0;
}

/* Rows for every result, with the aggregate rows after each instance's repetitions (only those
 * with --benchmark_report_aggregates_only or display_aggregates_only). */
static struct row *all_rows(const tks_options *o, const tks_platform *p, const tks_result *r,
                            size_t n, size_t *count)
{
    unsigned reps = o->repetitions ? o->repetitions : 1;
    size_t cap = n + (reps > 1 ? 4 * (n / reps + 1) : 0), m = 0;
    struct row *w = malloc((cap ? cap : 1) * sizeof *w);
    if (!w)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (tks__bench_show_runs(o, &r[i - i % reps], p))
            row_of(o, &r[i], &w[m++]);
        if (reps > 1 && (i + 1) % reps == 0) {
            aggregate_rows(o, &r[i + 1 - reps], reps, p, &w[m]);
            m += 4;
        }
    }
    *count = m;
    return w;
}

/* One line per instance run more than once: what its runs say about the next one. */
static void between_runs(FILE *f, const tks_options *o, const tks_platform *p,
                         const tks_result *r, size_t n, const char *pre)
{
    unsigned reps = o->repetitions ? o->repetitions : 1;
    if (reps < 2)
        return;
    for (size_t i = 0; i + reps <= n; i += reps) {
        tks__bench_aggregate a;
        int cyc;
        tks__bench_aggregate_of(&r[i], reps, p, &a);
        if (a.runs < 2)
            continue;
        cyc = a.cycle_runs == a.runs;
        const tks_interval *m = cyc ? &a.cycles_mean : &a.ticks_mean;
        const tks_interval *x = cyc ? &a.cycles_next : &a.ticks_next;
        fprintf(f, "%s%s: over %zu %s: %.4g %s, the mean within [%.4g, %.4g], the next run within "
                   "[%.4g, %.4g] (95%%, from the runs' spread)\n",
                pre, r[i].name, a.runs,
                o->processes > 1 ? "fresh processes" : "runs in this process", m->value,
                cyc ? "core cycles" : "ticks", m->lo, m->hi, x->lo, x->hi);
    }
}

/* A latency-mode headline that combines the fenced windows' figure with the stream's. */
static void modes_note(FILE *f, const tks_result *r, const char *pre)
{
    int cyc = isfinite(r->latency_window_cycles.value) && r->cycles_per_tick > 0;
    double u = cyc ? r->cycles_per_tick : 1;
    const tks_interval *l = cyc ? &r->latency_window_cycles : &r->latency_window,
                       *t = &r->throughput_alongside;
    fprintf(f, "%s%s: one fenced execution reads %.3f [%.3f, %.3f] %s and the block in a stream "
               "%.3f [%.3f, %.3f]: they agree, so the headline combines the two (weighted by "
               "their precision)\n",
            pre, r->name, l->value, l->lo, l->hi, cyc ? "core cycles" : "ticks", t->value * u,
            t->lo * u, t->hi * u);
}

static void notes(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                  size_t n, const char *pre)
{
    double cpt = tks_core_cycles_per_tick(p);
    size_t interleaved = 0;
    between_runs(f, o, p, r, n, pre);
    for (size_t i = 0; i < n; i++)
        interleaved += r[i].ok && r[i].core_source == TKS_CORE_INTERLEAVED;
    if (interleaved)
        fprintf(f, "%score cycles: ticks converted at the core clock measured while each benchmark "
                   "ran (a dependent-add chain after every batch of windows; no cycle counter is "
                   "read); their interval includes that measurement's error\n", pre);
    else if (cpt > 0 && !p->core.counter)
        fprintf(f, "%score cycles are an estimate: ticks x %.3f, from a dependent-add chain (no "
                   "cycle counter)\n", pre, cpt);
    for (size_t i = 0; i < n; i++) {
        if (!r[i].ok)
            fprintf(f, "%s%s: %s\n", pre, r[i].name, r[i].error);
        if (r[i].ok && r[i].modes_combined)
            modes_note(f, &r[i], pre);
        if (r[i].ok)
            tks__bench_events_text(f, &r[i], pre); /* event counters */
        if (r[i].diags.n) {
            char who[sizeof r[i].name + 64];
            snprintf(who, sizeof who, "%s%s: ", pre, r[i].name);
            tks__diags_print(f, &r[i].diags, who, NULL);
        }
    }
}

/* The lines above the table: the run's method, mode and units, what the columns mean. */
static void console_head(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                         size_t n)
{
    header(f, o, p, r, n, "");
    fprintf(f, "%s; [interval] ~95%%; overhead = the empty window.\n\n", estimate_name(o));
}

/* What follows the table: the notes, the warnings and, on request, the histograms. */
static int console_tail(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                        size_t n)
{
    int rc = 0;
    fputc('\n', f);
    notes(f, o, p, r, n, "");
    if (o->histogram)
        rc = histograms(f, r, n);
    return rc ? rc : ferror(f) ? TKS_EIO : 0;
}

/* Rows w[0..m) into the table (cols of them: the work counters' column last when shown), kept
 * for one print or, streamed, printed at once; or into the tabular one (a column per counter). */
static int add_rows(tks__table *t, tks__bench_tabular *tab, const struct row *w, size_t m,
                    int stream)
{
    int rc = 0;
    for (size_t i = 0; i < m && rc == 0; i++) {
        const char *cells[COLS + 1];
        cells_of(&w[i], cells);
        rc = tab ? tks__bench_tabular_row(tab, cells, w[i].r, w[i].reps, w[i].stat)
             : stream ? tks__table_stream_row(t, cells) : tks__table_add_row(t, cells);
    }
    return rc;
}

int tks__bench_console(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                      size_t n, int streamed)
{
    size_t m;
    struct row *w;
    const char *h[COLS + 1];
    tks__table *t;
    int rc;
    if (streamed) /* the head and the rows are out already (tks__bench_stream_result) */
        return console_tail(f, o, p, r, n);
    w = all_rows(o, p, r, n, &m);
    t = tks__table_new(COLS + tks__bench_have_counters(r, n), headers_of(o, h), "lrlrrrrrrrrl");
    tks__bench_tabular *tab = o->counters_tabular ? tks__bench_tabular_new(
        f, COLS, h, "lrlrrrrrrrrl", tks__term_columns_of(f), NULL) : NULL;
    if (!w || !t || (o->counters_tabular && !tab)) {
        free(w);
        tks__table_free(t);
        tks__bench_tabular_end(tab);
        return TKS_ENOMEM;
    }
    console_head(f, o, p, r, n);
    rc = add_rows(t, tab, w, m, 0);
    if (tab) {
        int end = tks__bench_tabular_end(tab);
        rc = rc ? rc : end;
    } else {
        tks__table_print(t, f, "");
    }
    if (rc == 0)
        rc = console_tail(f, o, p, r, n);
    tks__table_free(t);
    free(w);
    return rc;
}

/* The widths a streamed table plans for: the longest name (with an aggregate's suffix) and, for
 * the figures, what a typical row holds, so that most rows line up. */
static const size_t planned_widths[COLS + 1] = {0, 8, 20, 12, 8, 6, 8, 10, 8, 8, 9, 24};

int tks__bench_stream_begin(tks__bench_stream *s, FILE *f, const tks_options *o,
                            const tks_platform *p, size_t name_width)
{
    memset(s, 0, sizeof s[0]);
    s->f = f;
    s->o = o;
    s->p = p;
    s->name_width = name_width + (o->repetitions > 1 ? sizeof "_median" - 1 : 0);
    s->columns = tks__term_columns_of(f);
    return 0;
}

/* The table is made when the first result is in: its work counters decide the last column. The
 * rows of an instance's runs wait for its last repetition when only the aggregates may be
 * shown (--benchmark_*_aggregates_only), as tks__bench_show_runs decides then. */
int tks__bench_stream_result(tks__bench_stream *s, const tks_result *r, size_t i)
{
    const tks_options *o = s->o;
    unsigned reps = o->repetitions ? o->repetitions : 1;
    /* what the display shows: stdout is the display */
    int wait = reps > 1 && (o->report_aggregates_only || o->display_aggregates_only);
    size_t first = i - i % reps, m = 0;
    struct row *w;
    int rc;
    tks__progress_erase();
    if (!s->t && !s->tab) {
        const char *h[COLS + 1];
        size_t planned[COLS + 1];
        memcpy(planned, planned_widths, sizeof planned);
        planned[0] = s->name_width;
        headers_of(o, h);
        if (o->counters_tabular) /* the header comes with the first row's counters */
            s->tab = tks__bench_tabular_new(s->f, COLS, h, "lrlrrrrrrrrl", s->columns, planned);
        else
            s->t = tks__table_new(COLS + tks__bench_have_counters(&r[i], 1), h, "lrlrrrrrrrrl");
        if (!s->t && !s->tab)
            return TKS_ENOMEM;
        console_head(s->f, o, s->p, &r[i], 1);
        if (s->t && (rc = tks__table_stream(s->t, s->f, "", s->columns, planned)) != 0)
            return rc;
    }
    if (wait && (i + 1) % reps != 0)
        return 0;
    if (!(w = malloc((reps + 4) * sizeof *w)))
        return TKS_ENOMEM;
    if (!wait)
        row_of(o, &r[i], &w[m++]);
    else if (tks__bench_show_runs_of(o, 1, &r[first], s->p))
        for (size_t k = first; k <= i; k++)
            row_of(o, &r[k], &w[m++]);
    if (reps > 1 && (i + 1) % reps == 0) {
        aggregate_rows(o, &r[first], reps, s->p, &w[m]);
        m += 4;
    }
    rc = add_rows(s->t, s->tab, w, m, 1);
    free(w);
    return rc;
}

void tks__bench_stream_end(tks__bench_stream *s)
{
    tks__table_free(s->t);
    s->t = NULL;
    tks__bench_tabular_end(s->tab);
    s->tab = NULL;
}

int tks__bench_markdown(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                       size_t n)
{
    size_t m;
    const char *h[COLS + 1];
    struct row *w = all_rows(o, p, r, n, &m);
    int cols = COLS + tks__bench_have_counters(r, n);
    if (!w)
        return TKS_ENOMEM;
    header(f, o, p, r, n, "");
    fprintf(f, "\n%s; intervals ~95%%; overhead = the empty window.\n\n", estimate_name(o));
    for (int c = 0; c < cols; c++)
        fprintf(f, "| %s ", headers_of(o, h)[c]);
    fputs("|\n", f);
    for (int c = 0; c < cols; c++)
        fputs(c == 0 || c == 2 || c == COLS ? "| --- " : "| ---: ", f);
    fputs("|\n", f);
    for (size_t i = 0; i < m; i++) {
        const char *cells[COLS + 1];
        cells_of(&w[i], cells);
        fputc('|', f);
        for (int c = 0; c < cols; c++)
            tks__md_cell(f, cells[c]);
        fputc('\n', f);
    }
    fputc('\n', f);
    notes(f, o, p, r, n, "- ");
    free(w);
    return ferror(f) ? TKS_EIO : 0;
}
