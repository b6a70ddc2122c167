/* SPDX-License-Identifier: MIT */
/* region_events.c: event counters in the regions (TICKSCOPE_REGION_COUNTERS=LIST, the names of
 * --counters): each thread opens the events for itself at its first counted pass (sample/events.c,
 * the benchmark runner's code) and reads them just before a pass's begin reading and just after
 * its end reading; the difference less a read pair's own count (measured when the thread opens
 * them) is added to the region's running sums, one pass a batch, and the report gives events per
 * pass with the interval of stats/event_rates.c. An event the machine cannot count is a coded
 * diagnostic in the report (found by the first thread that opens them). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/diag.h"
#include "region/internal.h"
#include "sample/events.h"
#include "stats/event_rates.h"

#define COST_REPS 31u

int tks__region_counting = 0;

struct region_events {
    long tid;                       /* the thread that opened them: an adopted block reopens */
    struct tks__event_set set;
    double cost[TKS__EVENTS_MAX];
    uint64_t start[TKS_REGION_MAX + 1][TKS__EVENTS_MAX];
    tks__event_sums sums[TKS_REGION_MAX + 1][TKS__EVENTS_MAX];
};

/* This thread's counters, opened at its first counted pass (NULL when they cannot be). */
static struct region_events *mine(tks__region_ctx *ctx, struct tks__region_thread *t)
{
    struct region_events *ev = t->events;
    long tid = (long)syscall(SYS_gettid);
    if (ev && ev->tid == tid)
        return ev;
    if (ev) /* a block adopted from a thread that ended: its counters counted that thread */
        tks__events_close(&ev->set);
    else if (!(ev = calloc(1, sizeof *ev)))
        return NULL;
    memset(ev, 0, sizeof *ev);
    ev->tid = tid;
    if (tks__events_open(&ev->set, ctx->cfg.counters, NULL, NULL, 0) != 0) {
        free(ev);
        t->events = NULL;
        tks__region_counting = 0;
        return NULL;
    }
    tks__events_read_cost(&ev->set, COST_REPS, ev->cost);
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->events_found) { /* the refusals are the machine's: said once */
        ctx->events_found = 1;
        ctx->n_event_names = ev->set.n;
        for (size_t i = 0; i < ev->set.n; i++) {
            memcpy(ctx->event_names[i], ev->set.ev[i].name, sizeof ctx->event_names[i]);
            ctx->event_counted[i] = ev->set.ev[i].refusal == TKS__EVENT_COUNTED;
        }
        tks__events_diagnose(&ev->set, &ctx->events_diags);
    }
    pthread_mutex_unlock(&ctx->lock);
    t->events = ev;
    return ev;
}

void tks__region_events_read(tks__region_ctx *ctx, struct tks__region_slot *slot, int end)
{
    struct tks__region_thread *t = tks__region_self;
    struct region_events *ev;
    uint64_t now[TKS__EVENTS_MAX];
    size_t id = (size_t)(slot - t->slot);
    if (id > TKS_REGION_MAX || !(ev = end ? t->events : mine(ctx, t)) ||
        tks__events_read(&ev->set, now) != 0)
        return;
    if (!end) {
        memcpy(ev->start[id], now, sizeof now);
        return;
    }
    for (size_t i = 0; i < ev->set.n; i++)
        tks__event_sums_add(&ev->sums[id][i], (double)(now[i] - ev->start[id][i]) - ev->cost[i], 1);
}

void tks__region_events_collect(tks__region_ctx *ctx, size_t i,
                                const struct tks__region_thread *only, tks_region_stats *st)
{
    tks__event_sums sum[TKS__EVENTS_MAX];
    memset(sum, 0, sizeof sum);
    st->n_events = ctx->n_event_names;
    for (const struct tks__region_thread *t = ctx->reg.threads; t; t = t->next) {
        const struct region_events *ev = t->events;
        if (!ev || (only && t != only))
            continue;
        for (size_t e = 0; e < ev->set.n && e < TKS__EVENTS_MAX; e++)
            tks__event_sums_merge(&sum[e], &ev->sums[i + 1][e]);
    }
    for (size_t e = 0; e < st->n_events; e++) {
        tks_interval v;
        if (!ctx->event_counted[e] || tks__event_rate_sums(&sum[e], &v) != 0)
            v.value = v.lo = v.hi = NAN;
        st->events[e] = v.value;
        st->events_lo[e] = v.lo;
        st->events_hi[e] = v.hi;
    }
}

void tks__region_events_reset(struct tks__region_thread *t)
{
    struct region_events *ev = t->events;
    if (ev)
        memset(ev->sums, 0, sizeof ev->sums);
}
