/* SPDX-License-Identifier: MIT */
/* threads.c: each thread's block of slots (made, or adopted from an exited thread) and the slow
 * paths of tickscope/region.h's macros (a site's first use, nesting, an end without a begin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region/internal.h"

/* Every slot closed: where a thread's call sites look until it has a block of its own. */
static struct tks__region_thread idle_block;
__thread struct tks__region_thread *tks__region_self = &idle_block;

/* A thread is ending: its open passes will never end. The block stays on the list (its figures
 * are reported) and the next new thread adopts it, setting each slot up again as it uses it. */
void tks__region_thread_gone(tks__region_ctx *ctx, struct tks__region_thread *t)
{
    for (size_t i = 1; i <= TKS_REGION_MAX; i++) {
        struct tks__region_slot *s = &t->slot[i];
        if (s->open > 1)
            TKS__STORE(&s->unterminated, s->unterminated + s->open - 1u);
        TKS__STORE(&s->open, 0);
    }
    pthread_mutex_lock(&ctx->lock);
    t->dead = 1;
    pthread_mutex_unlock(&ctx->lock);
    tks__region_self = &idle_block;
}

/* This thread's block: adopted from an exited thread, or made (lock not held). */
static struct tks__region_thread *self(tks__region_ctx *ctx)
{
    struct tks__region_thread *t = tks__region_self, *b;
    if (t && t != &idle_block)
        return t;
    t = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (b = ctx->reg.threads; b; b = b->next)
        if (b->dead)
            break;
    if (b) {
        b->dead = 0;
        t = b;
    } else {
        void *mem = NULL;
        /* Slots start on a cache line, so each pass touches one line of its slot. */
        if (posix_memalign(&mem, 64, sizeof *t) == 0) {
            t = mem;
            memset(t, 0, sizeof *t);
            t->next = ctx->reg.threads;
            ctx->reg.threads = t;
        } else {
            ctx->reg.alloc_failures++;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    if (t) {
        pthread_setspecific(ctx->thread_key, t);
        tks__region_self = t;
    }
    return t;
}

/* The site's slot index (the region's + 1), registering it on first use; 0 when the table is full
 * (counted once per call site, which is then marked full and comes back here at once). */
static int site_id(tks__region_ctx *ctx, tks__region_site *s, const char *name, int m)
{
    tks__region_registry *reg = &ctx->reg;
    int id = __atomic_load_n(&s->id, __ATOMIC_RELAXED);
    if (id || __atomic_load_n(&s->full, __ATOMIC_RELAXED))
        return id;
    if (!name)
        name = "(null)";
    pthread_mutex_lock(&ctx->lock);
    id = tks__region_find_or_add(ctx, name);
    if (id < 0) {
        if (reg->dropped_sites++ == 0)
            snprintf(reg->first_dropped, TKS_REGION_NAME_MAX, "%s", name);
        __atomic_store_n(&s->full, 1, __ATOMIC_RELAXED);
        id = 0;
    } else {
        if (!reg->has_method[id]) {
            reg->has_method[id] = 1;
            reg->method[id] = m;
        }
        /* Once, at start-up of this way of reading: outside every window. */
        tks__region_calibrate(ctx, m);
        id++;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (id)
        __atomic_store_n(&s->id, id, __ATOMIC_RELAXED);
    return id;
}

/* First use of region id on this thread. */
static void setup_slot(tks__region_ctx *ctx, struct tks__region_slot *s, int id)
{
    size_t cap;
    pthread_mutex_lock(&ctx->lock);
    cap = ctx->reg.reservoir[id - 1];
    s->threads++;
    if (cap && !s->res) {
        if (cap > UINT32_MAX)
            cap = UINT32_MAX;
        s->res = malloc(cap * sizeof *s->res);
        if (s->res)
            s->res_cap = (tks_u32)cap;
        else
            ctx->reg.alloc_failures++;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (s->count == 0)
        TKS__STORE(&s->min, UINT64_MAX);
    if (!s->rng)
        s->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)s;
    s->cpu = TKS_AUX_NONE; /* a new thread: its first pass says where it runs */
    TKS__STORE(&s->open, 1);
}

struct tks__region_slot *tks__region_slow_begin(tks__region_ctx *ctx, tks__region_site *s,
                                                const char *name, int m)
{
    int id = site_id(ctx, s, name, m);
    struct tks__region_thread *t;
    struct tks__region_slot *slot;
    if (id <= 0 || !(t = self(ctx)))
        return NULL;
    slot = &t->slot[id];
    if (slot->open == 0)
        setup_slot(ctx, slot, id);
    if (slot->open >= 2) {
        /* The same region again inside an open pass (recursion): only the outermost is timed,
         * so the time is not counted twice. */
        TKS__STORE(&slot->open, slot->open + 1);
        return NULL;
    }
    return slot;
}

tks_u64 tks__region_slow_end(tks__region_ctx *ctx, tks__region_site *s, const char *name, int m,
                             tks_u64 t1)
{
    int id = site_id(ctx, s, name, m);
    struct tks__region_thread *t;
    struct tks__region_slot *slot;
    tks_u64 d;
    if (id <= 0 || !(t = self(ctx)))
        return 0;
    slot = &t->slot[id];
    if (slot->open == 0)
        setup_slot(ctx, slot, id);
    if (slot->open > 2) {
        TKS__STORE(&slot->open, slot->open - 1); /* the end of an inner pass of a recursion */
        return 0;
    }
    if (slot->open < 2) {
        TKS__STORE(&slot->ends_without_begin, slot->ends_without_begin + 1);
        return 0;
    }
    /* The first pass through a new end site: the begin's site was registered already. */
    d = t1 - slot->start;
    TKS__STORE(&slot->open, 1);
    tks__region_add(slot, d);
    if (tks__region_counting)
        tks__region_events_end(slot); /* event counters */
    return d;
}

void tks__region_slow_record(tks__region_ctx *ctx, tks__region_site *s, const char *name, int m,
                             tks_u64 d)
{
    int id = site_id(ctx, s, name, m);
    struct tks__region_thread *t;
    struct tks__region_slot *slot;
    if (id <= 0 || !(t = self(ctx)))
        return;
    slot = &t->slot[id];
    if (slot->open == 0)
        setup_slot(ctx, slot, id);
    tks__region_add(slot, d); /* a pass read backwards (two CPUs) is counted as negative there */
}

void tks__region_reset(tks__region_ctx *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    for (struct tks__region_thread *t = ctx->reg.threads; t; t = t->next)
        tks__region_events_reset(t); /* event counters */
    for (struct tks__region_thread *t = ctx->reg.threads; t; t = t->next)
        for (size_t i = 1; i <= ctx->reg.n; i++) {
            struct tks__region_slot *s = &t->slot[i];
            tks_u64 n = s->count;
            TKS__SEQ_OPEN(&s->seq, n);
            TKS__STORE(&s->count, 0);
            TKS__STORE(&s->sum, 0);
            TKS__STORE(&s->max, 0);
            TKS__STORE(&s->sq_lo, 0);
            TKS__STORE(&s->sq_hi, 0);
            TKS__STORE(&s->min, UINT64_MAX);
            TKS__STORE(&s->seq, 0u); /* 2 x the new count, 0 (the lock: reset's, not seq's) */
            TKS__STORE(&s->ends_without_begin, 0);
            TKS__STORE(&s->unterminated, 0);
            TKS__STORE(&s->negative, 0);
            TKS__STORE(&s->moved, 0);
        }
    ctx->reg.dropped_sites = 0;
    pthread_mutex_unlock(&ctx->lock);
}
