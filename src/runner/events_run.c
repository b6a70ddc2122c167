/* SPDX-License-Identifier: MIT */
/* events_run.c: event counters around a benchmark run's batches. Every main batch is read at
 * both ends by state.c, outside its windows (the companion and the pilot batches are not kept);
 * each read pair's own count, measured when the counters open, is taken out of every batch, as
 * the empty window is out of the clock's; after each main batch the same pairs run with an empty
 * block, so the report can name the harness's share (the empty window and the loop beside each
 * execution) of the per-iteration figure. */
#include "runner/events_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "sample/events.h"
#include "stats/event_rates.h"

#define COST_REPS 31u
#define MULTIPLEX_NOTE 0.999 /* a share of time on the PMU below this is said */

/* One batch: its events less the read's own, and its executions. */
struct counted_batch {
    double d[TKS__EVENTS_MAX];
    double execs;
};

struct tks__run_events {
    struct tks__event_set set;
    double cost[TKS__EVENTS_MAX];
    uint64_t start[TKS__EVENTS_MAX];
    int armed;
    struct counted_batch *main, *harness;
    size_t n_main, n_harness, cap;
};

int tks__run_events_open(struct tks_state *st, const tks_options *o, char *err, size_t errlen)
{
    struct tks__run_events *ev;
    int rc;
    st->events = NULL;
    if (!o->counters)
        return 0;
    if (!(ev = calloc(1, sizeof *ev)))
        return TKS_ENOMEM;
    if ((rc = tks__events_open(&ev->set, o->counters, NULL, err, errlen)) != 0) {
        free(ev);
        return rc;
    }
    tks__events_read_cost(&ev->set, COST_REPS, ev->cost);
    st->events = ev;
    return 0;
}

/* A new entry at the end of the main list or the harness's, the two grown together. */
static struct counted_batch *new_entry(struct tks__run_events *ev, int harness)
{
    size_t *n = harness ? &ev->n_harness : &ev->n_main;
    if (*n == ev->cap) {
        size_t cap = ev->cap ? 2 * ev->cap : 256;
        struct counted_batch *m = realloc(ev->main, cap * sizeof *m), *h;
        if (!m)
            return NULL;
        ev->main = m;
        if (!(h = realloc(ev->harness, cap * sizeof *h)))
            return NULL;
        ev->harness = h;
        ev->cap = cap;
    }
    return (harness ? ev->harness : ev->main) + (*n)++;
}

/* The events since ev->start, less a read pair's own, into a new entry of a list. */
static void count_since_start(struct tks__run_events *ev, int harness, double execs)
{
    uint64_t now[TKS__EVENTS_MAX];
    struct counted_batch *b;
    if (tks__events_read(&ev->set, now) != 0 || !(b = new_entry(ev, harness)))
        return;
    for (size_t i = 0; i < ev->set.n; i++)
        b->d[i] = (double)(now[i] - ev->start[i]) - ev->cost[i];
    b->execs = execs;
}

void tks__run_events_batch_begin(struct tks_state *st)
{
    struct tks__run_events *ev = st->events;
    if (!ev)
        return;
    /* not the once-and-twice batches of latency mode's correction: their windows hold the block
     * three times a pair, the counts per iteration are those of the others */
    ev->armed = st->phase == TKS_PHASE_MAIN && !st->b_companion && !st->b_twice &&
                tks__events_read(&ev->set, ev->start) == 0;
}

void tks__run_events_batch_end(struct tks_state *st)
{
    struct tks__run_events *ev = st->events;
    if (ev && ev->armed)
        count_since_start(ev, 0, (double)st->b_n * st->b_k);
}

void tks__run_events_harness(struct tks_state *st)
{
    struct tks__run_events *ev = st->events;
    uint64_t e[TKS_BATCH_MAX], r[TKS_BATCH_MAX];
    tks__batch b;
    if (!ev || !ev->armed || !st->b_n)
        return;
    ev->armed = 0;
    b.kernel = (int)st->method * TKS__KERNELS + (st->mode == TKS_MODE_THROUGHPUT);
    b.n = st->b_n;
    b.k = st->b_k;
    b.check_aux = st->check_aux;
    b.empty = e;
    b.real = r;
    if (tks__events_read(&ev->set, ev->start) != 0)
        return;
    tks__run_events_empty_batch(&b);
    count_since_start(ev, 1, (double)b.n * b.k);
}

/* One event's figures from the kept batches. */
static void figure(const struct tks__run_events *ev, size_t i, tks_event_figure *f)
{
    const struct tks__event *e = &ev->set.ev[i];
    double share = ev->set.enabled ? (double)ev->set.running / (double)ev->set.enabled : 1;
    snprintf(f->name, sizeof f->name, "%s", e->name);
    f->counted = e->refusal == TKS__EVENT_COUNTED;
    f->refusal = tks__events_refusal_code(&ev->set, i);
    f->rdpmc = e->rdpmc != NULL;
    f->read_cost = ev->cost[i];
    f->running = share;
    f->batches = ev->n_main;
    f->per_iteration = f->harness = f->block = (tks_interval){NAN, NAN, NAN};
    if (!f->counted || !ev->n_main)
        return;
    /* Batch by batch: the share of time on the PMU is the run's, so the scale is one factor. */
    if (tks__event_rate(&ev->main[0].d[i], sizeof ev->main[0] / sizeof(double),
                        &ev->main[0].execs, ev->n_main, &f->per_iteration) != 0)
        return;
    if (ev->n_harness)
        tks__event_rate(&ev->harness[0].d[i], sizeof ev->harness[0] / sizeof(double),
                        &ev->harness[0].execs, ev->n_harness, &f->harness);
    if (share > 0 && share < 1) {
        tks_interval *v[2] = {&f->per_iteration, &f->harness};
        for (int k = 0; k < 2; k++) {
            v[k]->value /= share;
            v[k]->lo /= share;
            v[k]->hi /= share;
        }
    }
    f->block = tks__interval_less(&f->per_iteration, &f->harness);
}

void tks__run_events_finish(struct tks_state *st, tks_result *r)
{
    struct tks__run_events *ev = st->events;
    if (!ev)
        return;
    st->events = NULL;
    tks__events_close(&ev->set);
    r->n_events = ev->set.n;
    for (size_t i = 0; i < ev->set.n; i++)
        figure(ev, i, &r->events[i]);
    tks__events_diagnose(&ev->set, &r->diags);
    if (ev->set.enabled && (double)ev->set.running < MULTIPLEX_NOTE * (double)ev->set.enabled)
        tks__diag(&r->diags, TKS_DIAG_EVENTS_MULTIPLEXED,
                  TKS__DN(100.0 * (double)ev->set.running / (double)ev->set.enabled));
    free(ev->main);
    free(ev->harness);
    free(ev);
}
