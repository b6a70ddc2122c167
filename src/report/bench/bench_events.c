/* SPDX-License-Identifier: MIT */
/* bench_events.c: a result's event counters (tks_result.events) in each benchmark format: a line
 * per counted event under the console's and Markdown's notes; in the JSON, each counted event as
 * a field of the benchmark's entry named by the event with its per-iteration count (as Google
 * Benchmark 1.7 writes its perf counters), our figures with their intervals in
 * event_counters[], and the refused ones with the diagnostic saying why in
 * event_counters_refused[]; in the CSV, columns after Google Benchmark's, named by the event. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"

/* The diagnostic that refused an event (the result carries it); NULL if it is not there. */
static const tks_diag *refusal_of(const tks_result *r, const tks_event_figure *e)
{
    for (size_t i = 0; i < r->diags.n; i++)
        if ((int)r->diags.items[i].code == e->refusal)
            return &r->diags.items[i];
    return NULL;
}

void tks__bench_events_text(FILE *f, const tks_result *r, const char *pre)
{
    size_t counted = 0;
    for (size_t i = 0; i < r->n_events; i++)
        counted += r->events[i].counted && isfinite(r->events[i].per_iteration.value);
    if (!counted)
        return;
    fprintf(f, "%s%s: events per iteration [95%%], of which the harness (an empty block's windows "
               "and loop), and the block's own:\n", pre, r->name);
    for (size_t i = 0; i < r->n_events; i++) {
        const tks_event_figure *e = &r->events[i];
        if (!e->counted || !isfinite(e->per_iteration.value))
            continue;
        fprintf(f, "%s  %-20s %.4g [%.4g, %.4g]  harness %.4g [%.4g, %.4g]  block %.4g [%.4g, "
                   "%.4g]  (%s, %.4g a read pair)\n",
                pre, e->name, e->per_iteration.value, e->per_iteration.lo, e->per_iteration.hi,
                e->harness.value, e->harness.lo, e->harness.hi, e->block.value, e->block.lo,
                e->block.hi, e->rdpmc ? "rdpmc" : "read()", e->read_cost);
    }
}

static void range(tks__json *j, const char *key, const tks_interval *v)
{
    tks__json_range(j, key, v->lo, v->hi);
}

void tks__bench_events_json(tks__json *j, const tks_result *r)
{
    if (!r->n_events)
        return;
    for (size_t i = 0; i < r->n_events; i++) /* Google Benchmark's: per iteration, by name */
        if (r->events[i].counted && isfinite(r->events[i].per_iteration.value))
            tks__json_double(j, r->events[i].name, r->events[i].per_iteration.value);
    tks__json_begin_array(j, "event_counters");
    for (size_t i = 0; i < r->n_events; i++) {
        const tks_event_figure *e = &r->events[i];
        if (!e->counted)
            continue;
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", e->name);
        tks__json_double(j, "per_iteration", e->per_iteration.value);
        range(j, "per_iteration_ci", &e->per_iteration);
        tks__json_double(j, "harness", e->harness.value);
        range(j, "harness_ci", &e->harness);
        tks__json_double(j, "block", e->block.value);
        range(j, "block_ci", &e->block);
        tks__json_double(j, "read_cost", e->read_cost);
        tks__json_string(j, "read", e->rdpmc ? "rdpmc" : "read");
        tks__json_double(j, "running", e->running);
        tks__json_u64(j, "batches", e->batches);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
    tks__json_begin_array(j, "event_counters_refused");
    for (size_t i = 0; i < r->n_events; i++) {
        const tks_event_figure *e = &r->events[i];
        const tks_diag *d = refusal_of(r, e);
        char *why = d ? tks_diag_message(d) : NULL;
        if (e->counted)
            continue;
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", e->name);
        tks__json_string(j, "code", d ? tks_diag_info_of(d->code)->id : NULL);
        tks__json_string(j, "reason", why);
        tks__json_end_object(j);
        free(why);
    }
    tks__json_end_array(j);
}

/* The columns are those of the first result that has event counters (every result of a run
 * asked for the same). */
static const tks_result *with_events(const tks_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].n_events)
            return &r[i];
    return NULL;
}

void tks__bench_events_csv_header(FILE *f, const tks_result *r, size_t n)
{
    const tks_result *first = with_events(r, n);
    for (size_t i = 0; first && i < first->n_events; i++) {
        static const char *const suffix[] = {"", "_lo", "_hi", "_harness"};
        for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++) {
            char col[sizeof first->events[i].name + 16];
            snprintf(col, sizeof col, "%s%s", first->events[i].name, suffix[k]);
            fputc(',', f);
            tks__csv_field(f, col);
        }
    }
}

void tks__bench_events_csv_row(FILE *f, const tks_result *x, const tks_result *r, size_t n)
{
    const tks_result *first = with_events(r, n);
    for (size_t i = 0; first && i < first->n_events; i++) {
        const tks_event_figure *e = i < x->n_events && x->events[i].counted ? &x->events[i] : NULL;
        tks__csv_next_double(f, e ? e->per_iteration.value : NAN);
        tks__csv_next_double(f, e ? e->per_iteration.lo : NAN);
        tks__csv_next_double(f, e ? e->per_iteration.hi : NAN);
        tks__csv_next_double(f, e ? e->harness.value : NAN);
    }
}

/* ---- over repetitions: each event's per-iteration count, its mean, median, stddev and cv over
 * the runs that counted it (as Google Benchmark aggregates its perf counters: each statistic
 * over the repetitions' figures). */

static const tks_event_figure *event_of(const tks_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_events && i < TKS_EVENTS_MAX; i++)
        if (r->events[i].counted && isfinite(r->events[i].per_iteration.value) &&
            !strcmp(r->events[i].name, name))
            return &r->events[i];
    return NULL;
}

size_t tks__bench_events_counted(const tks_result *r)
{
    size_t m = 0;
    for (size_t i = 0; r->ok && i < r->n_events && i < TKS_EVENTS_MAX; i++)
        m += r->events[i].counted && isfinite(r->events[i].per_iteration.value);
    return m;
}

void tks__bench_event_aggregate(const tks_result *r, size_t reps, const char *name,
                                double out[TKS__AGG_COUNT])
{
    double *v = malloc((reps ? reps : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; v && i < reps; i++) {
        const tks_event_figure *e = r[i].ok ? event_of(&r[i], name) : NULL;
        if (e)
            v[m++] = e->per_iteration.value;
    }
    tks__bench_four(v, v ? m : 0, out);
    free(v);
}

const tks_result *tks__bench_events_namer(const tks_result *r, size_t reps)
{
    for (size_t i = 0; i < reps; i++)
        if (tks__bench_events_counted(&r[i]))
            return &r[i];
    return NULL;
}

double tks__bench_event_stat(const tks_result *r, size_t reps, const tks_event_figure *e,
                             int stat)
{
    double a[TKS__AGG_COUNT];
    if (stat < 0)
        return e->per_iteration.value;
    tks__bench_event_aggregate(r, reps, e->name, a);
    return a[stat];
}

void tks__bench_events_cell(char *buf, size_t size, int sep, const tks_result *r, size_t reps,
                            int stat)
{
    const tks_result *x = stat < 0 ? (tks__bench_events_counted(r) ? r : NULL)
                                   : tks__bench_events_namer(r, reps);
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; x && i < x->n_events && used < size; i++) {
        const tks_event_figure *e = &x->events[i];
        char v[48];
        int w;
        if (!e->counted || !isfinite(e->per_iteration.value))
            continue;
        tks__bench_counter_text(v, sizeof v, tks__bench_event_stat(r, reps, e, stat), 0, stat);
        w = snprintf(buf + used, size - used, "%s%s=%s", sep || used ? " " : "", e->name, v);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void tks__bench_events_json_aggregates(tks__json *j, const tks_result *r, size_t reps, int stat)
{
    const tks_result *x = tks__bench_events_namer(r, reps);
    for (size_t i = 0; x && i < x->n_events; i++)
        if (x->events[i].counted && isfinite(x->events[i].per_iteration.value))
            tks__json_double(j, x->events[i].name,
                             tks__bench_event_stat(r, reps, &x->events[i], stat));
}

void tks__bench_events_csv_aggregate(FILE *f, const tks_result *group, size_t reps, int stat,
                                     const tks_result *r, size_t n)
{
    const tks_result *first = with_events(r, n);
    for (size_t i = 0; first && i < first->n_events; i++) {
        double a[TKS__AGG_COUNT];
        tks__bench_event_aggregate(group, reps, first->events[i].name, a);
        tks__csv_next_double(f, a[stat]); /* the statistic; no interval, no harness */
        fputs(",,,", f);
    }
}
