/* calibrate.c: which method the regions read the clock with, and what one empty
 * begin/end pair costs through the regions' own inline path: measured once per method at
 * start-up and subtracted from every figure reported. */
#include <stdlib.h>

#include "region/internal.h"

#define PAIRS 20000u  /* about 1 ms with a fenced method; the first WARMUP are dropped */
#define WARMUP 1000u

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

void tks__region_calibrate(tks__region_ctx *ctx, int m)
{
    tks__region_overhead_est *e;
    uint64_t *d, *scratch;
    tks_summary s;

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
    /* The phase-averaged mean (the mean of the pairs inside Tukey's far fences) is what a mean
     * of many passes carries; the minimum and median are quantised to the timer's step. The
     * quantum is given as 1: this runs at start-up, before anything knows it. */
    if (tks_summarize(d + WARMUP, PAIRS - WARMUP, 1, scratch, &s) == 0) {
        e->ticks = s.pa_mean;
        e->median = s.median;
        e->min = s.min;
        e->pairs = s.pa_n;
    } else {
        tks__region_note(ctx, "the overhead could not be summarised: nothing subtracted");
    }
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
