/* SPDX-License-Identifier: MIT */
/* counters_tabular.c: --benchmark_counters_tabular in the console table, as Google Benchmark
 * 1.7.1's console reporter lays it out (console_reporter.cc): each counter its own column, headed
 * by its name, right-aligned, the value formatted as in the one-cell form ("1.2G/s", "64",
 * "3.25%" in a cv row); and the header printed again whenever a row's set of counters differs
 * from the previous row's (its run_type aggregate rows keep their runs' set). Here a rate also
 * has a column for its figure per core cycle (bytes_per_second's bytes_per_cycle, as the CSV
 * names it), and the event counters (--counters) follow the work counters, one column each with
 * the count per iteration, as Google Benchmark shows its perf counters. The table is printed
 * whole (each set's rows fitted to the terminal) or streamed row by row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"

#define FIXED_MAX 16 /* the console's own columns */
#define EXTRA_MAX (2 * TKS_WORK_COUNTERS_MAX + TKS_EVENTS_MAX)
#define NAME_MAX_ (TKS_WORK_COUNTER_NAME + 16)

struct tks__bench_tabular {
    FILE *f;
    int fixed, columns, stream;
    const char *head[FIXED_MAX];
    char align[FIXED_MAX + EXTRA_MAX + 1];
    size_t planned[FIXED_MAX];
    tks__table *t;
    int have_t;
    char key[EXTRA_MAX * NAME_MAX_]; /* t's counter columns, their names joined by '\n' */
};

/* The counter columns of a row: their names and cells. */
struct extra {
    size_t n;
    char name[EXTRA_MAX][NAME_MAX_];
    char cell[EXTRA_MAX][48];
};

static void put(struct extra *x, const char *name, const char *cell)
{
    if (x->n == EXTRA_MAX)
        return;
    snprintf(x->name[x->n], sizeof x->name[x->n], "%s", name);
    snprintf(x->cell[x->n], sizeof x->cell[x->n], "%s", cell);
    x->n++;
}

/* The first of r[0..reps) with work counters: an aggregate row's columns are its. */
static const tks_result *counters_namer(const tks_result *r, size_t reps)
{
    for (size_t i = 0; i < reps; i++)
        if (r[i].ok && r[i].n_work_counters)
            return &r[i];
    return NULL;
}

/* A run's counters (stat < 0) or an aggregate row's over r[0..reps). */
static void extra_of(const tks_result *r, size_t reps, int stat, struct extra *x)
{
    const tks_result *w = stat < 0 ? r : counters_namer(r, reps);
    const tks_result *e = stat < 0 ? (tks__bench_events_counted(r) ? r : NULL)
                                   : tks__bench_events_namer(r, reps);
    const tks_work_counter *c[TKS_WORK_COUNTERS_MAX];
    size_t n = w ? tks__bench_counters_sorted(w, c) : 0;
    char v[48], name[NAME_MAX_];
    x->n = 0;
    for (size_t i = 0; i < n; i++) {
        tks__bench_counter_text(v, sizeof v, tks__bench_counter_stat(r, reps, c[i], stat),
                                c[i]->flags, stat);
        put(x, c[i]->name, v);
        if (!(c[i]->flags & TKS_COUNTER_RATE))
            continue;
        /* per core cycle: a run's own figure; an aggregate row leaves it empty */
        if (stat < 0 && isfinite(c[i]->per_cycle.value))
            snprintf(v, sizeof v, "%.4g", c[i]->per_cycle.value);
        else
            snprintf(v, sizeof v, "%s", stat < 0 ? "-" : "");
        tks__bench_per_cycle_name(name, sizeof name, c[i]->name);
        put(x, name, v);
    }
    for (size_t i = 0; e && i < e->n_events && i < TKS_EVENTS_MAX; i++) {
        const tks_event_figure *f = &e->events[i];
        if (!f->counted || !isfinite(f->per_iteration.value))
            continue;
        tks__bench_counter_text(v, sizeof v, tks__bench_event_stat(r, reps, f, stat), 0, stat);
        put(x, f->name, v);
    }
}

static void key_of(const struct extra *x, char *key, size_t size)
{
    size_t used = 0;
    key[0] = 0;
    for (size_t i = 0; i < x->n && used < size; i++) {
        int w = snprintf(key + used, size - used, "%s\n", x->name[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

tks__bench_tabular *tks__bench_tabular_new(FILE *f, int fixed, const char *const *headers,
                                           const char *align, int columns,
                                           const size_t *planned)
{
    tks__bench_tabular *tb;
    if (fixed <= 0 || fixed > FIXED_MAX || !(tb = calloc(1, sizeof *tb)))
        return NULL;
    tb->f = f;
    tb->fixed = fixed;
    tb->columns = columns;
    tb->stream = planned != NULL;
    for (int c = 0; c < fixed; c++) {
        tb->head[c] = headers[c];
        tb->align[c] = align[c] == 'r' ? 'r' : 'l';
        tb->planned[c] = planned ? planned[c] : 0;
    }
    memset(tb->align + fixed, 'r', EXTRA_MAX); /* numbers, right-aligned as Google's */
    tb->align[fixed + EXTRA_MAX] = 0;
    return tb;
}

/* The table of the rows so far out (printed whole, or its streamed rows out already) and a new
 * one for x's set of counters, its header printed at once when streaming. */
static int new_table(tks__bench_tabular *tb, const struct extra *x)
{
    const char *h[FIXED_MAX + EXTRA_MAX];
    size_t planned[FIXED_MAX + EXTRA_MAX];
    int rc = 0;
    if (tb->have_t) {
        if (!tb->stream)
            tks__table_print_fit(tb->t, tb->f, "", tb->columns);
        fputc('\n', tb->f); /* a blank line, then the new set's header */
    }
    tks__table_free(tb->t);
    tb->t = NULL;
    tb->have_t = 0;
    for (int c = 0; c < tb->fixed; c++) {
        h[c] = tb->head[c];
        planned[c] = tb->planned[c];
    }
    for (size_t i = 0; i < x->n; i++) {
        size_t len = strlen(x->name[i]);
        h[tb->fixed + (int)i] = x->name[i];
        planned[tb->fixed + (int)i] = len > 10 ? len : 10; /* Google's: at least 10 wide */
    }
    if (!(tb->t = tks__table_new(tb->fixed + (int)x->n, h, tb->align)))
        return TKS_ENOMEM;
    tb->have_t = 1;
    if (tb->stream)
        rc = tks__table_stream(tb->t, tb->f, "", tb->columns, planned);
    return rc;
}

int tks__bench_tabular_row(tks__bench_tabular *tb, const char *const *cells, const tks_result *r,
                           size_t reps, int stat)
{
    const char *row[FIXED_MAX + EXTRA_MAX];
    char key[sizeof tb->key];
    struct extra *x = malloc(sizeof *x);
    int rc = 0;
    if (!x)
        return TKS_ENOMEM;
    extra_of(r, reps, stat, x);
    key_of(x, key, sizeof key);
    if (!tb->have_t || strcmp(key, tb->key)) {
        memcpy(tb->key, key, sizeof key);
        rc = new_table(tb, x);
    }
    for (int c = 0; rc == 0 && c < tb->fixed; c++)
        row[c] = cells[c];
    for (size_t i = 0; rc == 0 && i < x->n; i++)
        row[tb->fixed + (int)i] = x->cell[i];
    if (rc == 0)
        rc = tb->stream ? tks__table_stream_row(tb->t, row) : tks__table_add_row(tb->t, row);
    free(x);
    return rc;
}

int tks__bench_tabular_end(tks__bench_tabular *tb)
{
    int rc = 0;
    if (!tb)
        return 0;
    if (tb->have_t && !tb->stream)
        tks__table_print_fit(tb->t, tb->f, "", tb->columns);
    rc = ferror(tb->f) ? TKS_EIO : 0;
    tks__table_free(tb->t);
    free(tb);
    return rc;
}
