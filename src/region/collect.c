/* collect.c: one region's figures merged over every thread, net of the measured overhead, and its
 * reservoirs merged into one sorted sample: what tks_region_stats_get and the report give. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region/acc.h"
#include "region/internal.h"
#include "stats/sort.h"

void tks__region_collect(tks__region_ctx *ctx, size_t i, tks_region_stats *st, uint64_t **kept,
                         size_t *len)
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
        const struct tks__region_slot *s = &t->slot[i];
        tks__region_acc_merge_slot(&a, s);
        if (s->res_cap && s->count) {
            nsrc++;
            if (s->res_cap > cap)
                cap = s->res_cap;
        }
    }
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", ctx->reg.name[i]);
    st->passes = a.count;
    st->threads = a.threads;
    st->overhead = o;
    st->raw_total = (double)tks__region_acc_sum(&a);
    st->total = st->raw_total - (double)a.count * o;
    st->mean = tks__region_acc_mean(&a) - o;
    st->variance = tks__region_acc_variance(&a);
    st->min = a.count ? (double)a.min - o : NAN;
    st->max = a.count ? (double)a.max - o : NAN;
    st->ends_without_begin = a.ends_without_begin;
    st->unterminated = a.unterminated;
    st->negative = a.negative;
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
        for (struct tks__region_thread *t = ctx->reg.threads; t; t = t->next) {
            const struct tks__region_slot *s = &t->slot[i];
            if (s->res_cap && s->count) {
                src[k] = s->res;
                srccount[k] = s->count;
                srclen[k] = s->count < s->res_cap ? (size_t)s->count : s->res_cap;
                k++;
            }
        }
        total = tks__region_merge_kept(src, srclen, srccount, nsrc, cap, 0x2545f4914f6cdd1dull,
                                       buf);
    }
    free(src);
    free(srclen);
    free(srccount);
    if (!total) {
        free(buf);
        return;
    }
    tks__sort_u64(buf, total);
    st->kept = total;
    st->median = tks_quantile_sorted(buf, total, 0.5) - o;
    st->p90 = tks_quantile_sorted(buf, total, 0.9) - o;
    st->p99 = tks_quantile_sorted(buf, total, 0.99) - o;
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
        tks__region_collect(ctx, (size_t)i, out, &kept, &len);
    pthread_mutex_unlock(&ctx->lock);
    if (i < 0)
        return TKS_EINVAL;
    free(kept);
    return 0;
}
