/* SPDX-License-Identifier: MIT */
/* overhead.c: which method the regions read the clock with, and what one empty
 * begin/end pair costs through the regions' own inline path: measured once per method at
 * start-up and subtracted from every figure reported. */
#include <math.h>
#include <stdlib.h>

#include "region/acc.h"
#include "region/internal.h"
#include "stats/sort.h"

#define PAIRS 20000u  /* about 1 ms with a fenced method; the first WARMUP are dropped */
#define WARMUP 1000u
#define BLOCKS 19u    /* (PAIRS - WARMUP) / BLOCKS pairs per block estimate */

int tks__region_effective_method(tks__region_ctx *ctx, int m)
{
    return m >= 0 ? m : ctx->method;
}

/* The slot the empty pairs go through: a global, so the compiler must store the begin reading
 * to memory before the end sequence (its "memory" clobber), as it must for a thread's slot. */
static struct tks__region_slot cal_slot;

/* m is a constant in every expansion, so the reads fold exactly as they do in the user's code;
 * -1 keeps the start-up dispatch, and its branch inside the window is measured with it. */
#define EMPTY_PAIRS(m)                                                                     \
    for (size_t i = 0; i < n; i++) {                                                       \
        tks_u64 t1;                                                                        \
        cal_slot.start = tks__region_read_begin(m);                                        \
        t1 = tks__region_read_end(m);                                                      \
        d[i] = t1 - cal_slot.start;                                                        \
    }

static void empty_pairs(int m, uint64_t *d, size_t n)
{
#define EMPTY_PAIRS_CASE(name, NAME, flags)                                                \
    case TKS_METHOD_##NAME:                                                                \
        EMPTY_PAIRS(TKS_METHOD_##NAME) break;
    switch (m) {
    case -1: EMPTY_PAIRS(-1) break;
        TKS_METHOD_EACH_HERE(EMPTY_PAIRS_CASE)
    default: EMPTY_PAIRS(-1) break;
    }
}

const tks__region_overhead_est *tks__region_overhead_of(tks__region_ctx *ctx, int m)
{
    const tks__region_overhead_est *e;
    if (m < -1 || m >= (int)TKS_METHOD_COUNT)
        return NULL;
    e = &ctx->reg.overhead[m + 1];
    return e->measured ? e : NULL;
}

/* The overhead, robustly: the pairs are cut into BLOCKS blocks; each block's phase-averaged mean
 * (the mean inside Tukey's far fences, quantum-aware, which resolves sub-quantum durations) is
 * one estimate, and the median of the BLOCKS estimates is the one subtracted from means, so a
 * block disturbed by an interrupt or a frequency change does not move it. Their spread (scaled
 * MAD) says how far it may be off between runs; the resolution is the larger of one quantum and
 * twice that spread. Order statistics are net of the pairs' median, which the timer quantises as
 * it does theirs (not of their minimum: of 19,000 pairs it is a rare low tail). */
void tks__region_overhead_estimate(tks__region_overhead_est *e, const uint64_t *d, size_t n,
                                   uint64_t *scratch)
{
    double means[BLOCKS], dev[BLOCKS];
    size_t nb = 0, per = n / BLOCKS;
    tks_summary s;

    for (size_t i = 0; i < n; i++)
        scratch[i] = d[i];
    tks__sort_u64(scratch, n);
    e->quantum = tks__region_step_of(scratch, n);
    e->min = scratch[0];
    e->median = tks_quantile_sorted(scratch, n, 0.5);
    e->pairs = n;
    for (size_t b = 0; b < BLOCKS; b++)
        if (tks_summarize(d + b * per, per, e->quantum, scratch, &s) == 0)
            means[nb++] = s.pa_mean;
    if (nb == 0) {
        e->ticks = e->median;
        e->spread = 0;
    } else {
        e->ticks = tks__median(means, nb);
        for (size_t b = 0; b < nb; b++)
            dev[b] = fabs(means[b] - e->ticks);
        e->spread = 1.4826 * tks__median(dev, nb);
    }
    e->resolution = 2 * e->spread > (double)e->quantum ? 2 * e->spread : (double)e->quantum;
}

void tks__region_calibrate(tks__region_ctx *ctx, int m)
{
    tks__region_overhead_est *e;
    uint64_t *d, *scratch;

    if (m < -1 || m >= (int)TKS_METHOD_COUNT)
        return;
    e = &ctx->reg.overhead[m + 1];
    if (e->measured)
        return;
    e->measured = 1; /* whatever happens: never again */
    d = malloc(2 * PAIRS * sizeof *d);
    if (!d) {
        tks__region_note(ctx, "the overhead could not be measured (out of memory): nothing "
                              "subtracted");
        return;
    }
    scratch = d + PAIRS;
    empty_pairs(m, d, PAIRS);
    tks__region_overhead_estimate(e, d + WARMUP, PAIRS - WARMUP, scratch);
    free(d);
}

double tks__region_overhead_ticks(tks__region_ctx *ctx)
{
    const tks__region_overhead_est *e;
    double v;
    pthread_mutex_lock(&ctx->lock);
    /* The first region's method: with no -DTKS_REGION_METHOD, every region's. */
    e = tks__region_overhead_of(ctx, ctx->reg.n ? ctx->reg.method[0] : -1);
    v = e ? e->ticks : 0;
    pthread_mutex_unlock(&ctx->lock);
    return v;
}
