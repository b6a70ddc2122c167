/* SPDX-License-Identifier: MIT */
/* collect.c: one region's figures merged over every thread, net of the measured overhead, and its
 * reservoirs merged into one sorted sample: what tks_region_stats_get and the report give. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region/acc.h"
#include "region/internal.h"
#include "stats/sort.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* A consistent copy of what a report reads of slot s, taken while its thread may be updating it:
 * the moments under the slot's sequence lock (retried while it is odd or moved), the counters
 * one by one (each is whole). The fields set up under the lock (threads, the reservoir) are read
 * as they are: the caller holds the lock. After a million tries (a report from a signal handler
 * interrupting that very update) the copy is taken as it is. */
static void snapshot(const struct tks__region_slot *s, struct tks__region_slot *c)
{
    memset(c, 0, sizeof *c);
    for (unsigned long tries = 0;; tries++) {
        tks_u32 q1 = LOAD(&s->seq), q2;
        c->count = LOAD(&s->count);
        c->sum = LOAD(&s->sum);
        c->min = LOAD(&s->min);
        c->max = LOAD(&s->max);
        c->sq_lo = LOAD(&s->sq_lo);
        c->sq_hi = LOAD(&s->sq_hi);
        q2 = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
        if ((q1 == q2 && !(q1 & 1)) || tries > 1000000)
            break;
        if (tries > 100)
            sched_yield();
    }
    c->open = LOAD(&s->open);
    c->ends_without_begin = LOAD(&s->ends_without_begin);
    c->unterminated = LOAD(&s->unterminated);
    c->negative = LOAD(&s->negative);
    c->moved = LOAD(&s->moved);
    c->threads = s->threads;
    c->res_cap = s->res_cap;
    c->res = s->res;
}

static double net(tks_region_stats *st, double raw, double sub, unsigned bit)
{
    return tks__region_net(raw, sub, st->resolution, bit, &st->below_resolution);
}

void tks__region_collect(tks__region_ctx *ctx, size_t i, const struct tks__region_thread *only,
                         tks_region_stats *st, uint64_t **kept, size_t *len)
{
    tks__region_acc a;
    const tks__region_overhead_est *ov = tks__region_overhead_of(ctx, ctx->reg.method[i]);
    size_t nsrc = 0, cap = 0, total = 0;
    const uint64_t **src = NULL;
    size_t *srclen = NULL;
    uint64_t *srccount = NULL, *buf = NULL;
    double o = ov ? ov->ticks : 0;

    tks__region_acc_init(&a);
    for (struct tks__region_thread *t = ctx->reg.threads; t; t = t->next) {
        struct tks__region_slot copy, *s = &copy;
        if (only && t != only)
            continue;
        snapshot(&t->slot[i + 1], &copy);
        tks__region_acc_merge_slot(&a, s);
        if (s->res_cap && s->count) {
            nsrc++;
            if (s->res_cap > cap)
                cap = s->res_cap;
        }
    }
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", ctx->reg.name[i]);
    tks__region_events_collect(ctx, i, only, st); /* event counters */
    st->passes = a.count;
    st->threads = a.threads;
    st->overhead = o;
    st->overhead_min = ov ? (double)ov->min : 0;
    st->overhead_median = ov ? ov->median : 0;
    st->resolution = ov ? ov->resolution : 1;
    st->raw_total = (double)tks__region_acc_sum(&a);
    st->raw_mean = tks__region_acc_mean(&a);
    st->variance = tks__region_acc_variance(&a);
    st->raw_min = a.count ? (double)a.min : NAN;
    st->raw_max = a.count ? (double)a.max : NAN;
    st->mean = net(st, st->raw_mean, o, TKS_REGION_BELOW_MEAN);
    st->total = a.count ? st->mean * (double)a.count : 0;
    st->min = net(st, st->raw_min, st->overhead_median, TKS_REGION_BELOW_MIN);
    st->max = net(st, st->raw_max, st->overhead_median, TKS_REGION_BELOW_MAX);
    st->raw_median = st->raw_p90 = st->raw_p99 = NAN;
    st->ends_without_begin = a.ends_without_begin;
    st->unterminated = a.unterminated;
    st->negative = a.negative;
    st->moved = a.moved;
    st->median = st->p90 = st->p99 = NAN;
    *kept = NULL;
    *len = 0;
    if (!nsrc)
        return;

    src = calloc(nsrc, sizeof *src);
    srclen = calloc(nsrc, sizeof *srclen);
    srccount = calloc(nsrc, sizeof *srccount);
    buf = malloc(cap * sizeof *buf);
    if (src && srclen && srccount && buf) {
        size_t k = 0;
        for (struct tks__region_thread *t = ctx->reg.threads; t && k < nsrc; t = t->next) {
            const struct tks__region_slot *s = &t->slot[i + 1];
            uint64_t count = LOAD(&s->count);
            if (only && t != only)
                continue;
            if (s->res_cap && count) {
                /* The kept values are read while the thread may replace some: each is whole,
                 * and any of them is a pass of the region, so the sample stays a sample. */
                size_t len1 = count < s->res_cap ? (size_t)count : s->res_cap;
                uint64_t *copy = malloc(len1 * sizeof *copy);
                if (!copy)
                    break;
                for (size_t j = 0; j < len1; j++)
                    copy[j] = LOAD(&s->res[j]);
                src[k] = copy;
                srccount[k] = count;
                srclen[k] = len1;
                k++;
            }
        }
        nsrc = k;
        total = tks__region_merge_kept(src, srclen, srccount, nsrc, cap, 0x2545f4914f6cdd1dull,
                                       buf);
    }
    for (size_t k = 0; src && k < nsrc; k++)
        free((void *)src[k]);
    free(src);
    free(srclen);
    free(srccount);
    if (!total) {
        free(buf);
        return;
    }
    tks__sort_u64(buf, total);
    st->kept = total;
    st->raw_median = tks_quantile_sorted(buf, total, 0.5);
    st->raw_p90 = tks_quantile_sorted(buf, total, 0.9);
    st->raw_p99 = tks_quantile_sorted(buf, total, 0.99);
    st->median = net(st, st->raw_median, st->overhead_median, TKS_REGION_BELOW_MEDIAN);
    st->p90 = net(st, st->raw_p90, st->overhead_median, TKS_REGION_BELOW_P90);
    st->p99 = net(st, st->raw_p99, st->overhead_median, TKS_REGION_BELOW_P99);
    *kept = buf;
    *len = total;
}

int tks__region_stats_get(tks__region_ctx *ctx, const char *name, tks_region_stats *out)
{
    int i;
    uint64_t *kept;
    size_t len;
    pthread_mutex_lock(&ctx->lock);
    i = tks__region_find(ctx, name);
    if (i >= 0)
        tks__region_collect(ctx, (size_t)i, NULL, out, &kept, &len);
    pthread_mutex_unlock(&ctx->lock);
    if (i < 0)
        return TKS_EINVAL;
    free(kept);
    return 0;
}
