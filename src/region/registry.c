/* registry.c: the region registry, the per-thread blocks of slots, and the slow paths the inline
 * macros of tickscope/region.h call on a call site's first use and on anything unusual (nesting,
 * an end without a begin, a pass over 2^32 ticks). Nothing here runs inside a measured window. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region/acc.h"
#include "region/internal.h"
#include "bench/runner.h"
#include "stats/sort.h"

__thread struct tks__region_thread *tks__region_self;
int tks__region_method = -1; /* set by tks__region_init before any site is registered */

pthread_mutex_t tks__region_lock = PTHREAD_MUTEX_INITIALIZER;
tks__region_registry tks__region_reg;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;

void tks__region_note(const char *fmt, ...)
{
    va_list ap;
    if (tks__region_reg.n_notes == TKS__REGION_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(tks__region_reg.notes[tks__region_reg.n_notes++], sizeof tks__region_reg.notes[0], fmt,
              ap);
    va_end(ap);
}

/* A thread is ending: its open passes will never end. The block stays on the list (its figures
 * are reported) and the next new thread adopts it, setting each slot up again as it uses it. */
static void thread_gone(void *p)
{
    struct tks__region_thread *t = p;
    for (size_t i = 0; i < TKS_REGION_MAX; i++) {
        struct tks__region_slot *s = &t->slot[i];
        if (s->open > 1)
            s->unterminated += s->open - 1;
        s->open = 0;
    }
    pthread_mutex_lock(&tks__region_lock);
    t->dead = 1;
    pthread_mutex_unlock(&tks__region_lock);
    tks__region_self = NULL;
}

static void init_once_fn(void)
{
    pthread_key_create(&thread_key, thread_gone);
    pthread_mutex_lock(&tks__region_lock);
    tks__region_method = (int)tks_bench_default_method();
    pthread_mutex_unlock(&tks__region_lock);
    tks__region_out_init();
}

void tks__region_init(void)
{
    pthread_once(&init_once, init_once_fn);
}

/* This thread's block: adopted from an exited thread, or made (lock not held). */
static struct tks__region_thread *self(void)
{
    struct tks__region_thread *t = tks__region_self, *b;
    if (t)
        return t;
    pthread_mutex_lock(&tks__region_lock);
    for (b = tks__region_reg.threads; b; b = b->next)
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
            t->next = tks__region_reg.threads;
            tks__region_reg.threads = t;
        } else {
            tks__region_reg.alloc_failures++;
        }
    }
    pthread_mutex_unlock(&tks__region_lock);
    if (t) {
        pthread_setspecific(thread_key, t);
        tks__region_self = t;
    }
    return t;
}

/* Look a name up (lock held); -1 when absent. Names are compared as stored (cut to fit). */
static int find(const char *name)
{
    for (size_t i = 0; i < tks__region_reg.n; i++)
        if (strncmp(tks__region_reg.name[i], name, TKS_REGION_NAME_MAX - 1) == 0)
            return (int)i;
    return -1;
}

/* Find or add a region (lock held): its index, or -1 when the table is full. */
static int find_or_add(const char *name)
{
    int i = find(name);
    if (i >= 0)
        return i;
    if (tks__region_reg.n == TKS_REGION_MAX)
        return -1;
    i = (int)tks__region_reg.n++;
    snprintf(tks__region_reg.name[i], TKS_REGION_NAME_MAX, "%s", name);
    tks__region_reg.reservoir[i] = tks__region_reg.default_reservoir;
    return i;
}

/* The site's slot index + 1, registering it on first use; -1 when the table is full (counted once
 * per call site: the site then skips itself without calling here again). */
static int site_id(tks__region_site *s, const char *name, int m)
{
    int id = __atomic_load_n(&s->id, __ATOMIC_RELAXED);
    if (id)
        return id;
    tks__region_init();
    if (!name)
        name = "(null)";
    pthread_mutex_lock(&tks__region_lock);
    id = find_or_add(name);
    if (id < 0) {
        if (tks__region_reg.dropped_sites++ == 0)
            snprintf(tks__region_reg.first_dropped, TKS_REGION_NAME_MAX, "%s", name);
    } else {
        if (!tks__region_reg.has_method[id]) {
            tks__region_reg.has_method[id] = 1;
            tks__region_reg.method[id] = m;
        }
        /* Once, at start-up of this way of reading: outside every window. */
        tks__region_calibrate(m);
        id++;
    }
    pthread_mutex_unlock(&tks__region_lock);
    __atomic_store_n(&s->id, id, __ATOMIC_RELAXED);
    return id;
}

/* First use of region id on this thread. */
static void setup_slot(struct tks__region_slot *s, int id)
{
    size_t cap;
    pthread_mutex_lock(&tks__region_lock);
    cap = tks__region_reg.reservoir[id - 1];
    s->threads++;
    if (cap && !s->res) {
        if (cap > UINT32_MAX)
            cap = UINT32_MAX;
        s->res = malloc(cap * sizeof *s->res);
        if (s->res)
            s->res_cap = (tks_u32)cap;
        else
            tks__region_reg.alloc_failures++;
    }
    pthread_mutex_unlock(&tks__region_lock);
    if (s->count == 0)
        s->min = UINT64_MAX;
    if (!s->rng)
        s->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)s;
    s->open = 1;
}

struct tks__region_slot *tks__region_begin_slow(tks__region_site *s, const char *name, int m)
{
    int id = site_id(s, name, m);
    struct tks__region_thread *t;
    struct tks__region_slot *slot;
    if (id <= 0 || !(t = self()))
        return NULL;
    slot = &t->slot[id - 1];
    if (slot->open == 0)
        setup_slot(slot, id);
    if (slot->open >= 2) {
        /* The same region again inside an open pass (recursion): only the outermost is timed,
         * so the time is not counted twice. */
        slot->open++;
        return NULL;
    }
    return slot;
}

tks_u64 tks__region_end_slow(tks__region_site *s, const char *name, int m, tks_u64 t1)
{
    int id = site_id(s, name, m);
    struct tks__region_thread *t;
    struct tks__region_slot *slot;
    tks_u64 d;
    if (id <= 0 || !(t = self()))
        return 0;
    slot = &t->slot[id - 1];
    if (slot->open == 0)
        setup_slot(slot, id);
    if (slot->open > 2) {
        slot->open--; /* the end of an inner pass of a recursive region */
        return 0;
    }
    if (slot->open < 2) {
        slot->ends_without_begin++;
        return 0;
    }
    /* The first pass through a new end site: the begin's site was registered already. */
    d = t1 - slot->start;
    slot->open = 1;
    tks__region_add(slot, d);
    return d;
}

void tks__region_add_wide(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 hi = d >> 32, lo = d & 0xffffffffu, mid, sq_lo, sq_hi;
    if ((int64_t)d < 0) {
        /* The end was read before the begin: the two readings came from CPUs whose TSCs differ. */
        slot->negative++;
        return;
    }
    tks__region_tally(slot, d);
    /* d^2 = hi^2 2^64 + 2 hi lo 2^32 + lo^2, with hi < 2^31 so 2 hi lo < 2^64. */
    mid = 2 * hi * lo;
    sq_lo = lo * lo;
    sq_hi = hi * hi + (mid >> 32);
    sq_lo += mid << 32;
    sq_hi += sq_lo < (mid << 32);
    slot->sq_lo += sq_lo;
    slot->sq_hi += sq_hi + (slot->sq_lo < sq_lo);
    if (slot->res_cap)
        tks__region_keep_wide(slot, d);
}

void tks__region_keep_wide(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 n = slot->count, x = slot->rng, j;
    if (n <= slot->res_cap) {
        slot->res[n - 1] = d;
        return;
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    slot->rng = x;
    j = x % n;
    if (j < slot->res_cap)
        slot->res[j] = d;
}

/* ---------------------------------------------------------------- the API */

void tks_region_reset(void)
{
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    for (struct tks__region_thread *t = tks__region_reg.threads; t; t = t->next)
        for (size_t i = 0; i < tks__region_reg.n; i++) {
            struct tks__region_slot *s = &t->slot[i];
            s->count = s->sum = s->max = s->sq_lo = s->sq_hi = 0;
            s->min = UINT64_MAX;
            s->ends_without_begin = s->unterminated = s->negative = 0;
        }
    tks__region_reg.dropped_sites = 0;
    pthread_mutex_unlock(&tks__region_lock);
}

int tks_region_set_reservoir(const char *name, size_t size)
{
    int i, rc = 0;
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    if (!name) {
        tks__region_reg.default_reservoir = size;
        for (size_t k = 0; k < tks__region_reg.n; k++)
            if (!tks__region_reg.reservoir_set[k])
                tks__region_reg.reservoir[k] = size;
    } else if ((i = find_or_add(name)) < 0) {
        rc = TKS_ERANGE;
    } else {
        tks__region_reg.reservoir[i] = size;
        tks__region_reg.reservoir_set[i] = 1;
    }
    pthread_mutex_unlock(&tks__region_lock);
    return rc;
}

void tks__region_collect(size_t i, tks_region_stats *st, uint64_t **kept, size_t *len)
{
    tks__region_acc a;
    const tks__region_overhead_est *ov = tks__region_overhead_of(tks__region_reg.method[i]);
    size_t nsrc = 0, cap = 0, total = 0;
    const uint64_t **src = NULL;
    size_t *srclen = NULL;
    uint64_t *srccount = NULL, *buf = NULL;
    double o = ov ? ov->ticks : 0;

    tks__region_acc_init(&a);
    for (struct tks__region_thread *t = tks__region_reg.threads; t; t = t->next) {
        const struct tks__region_slot *s = &t->slot[i];
        tks__region_acc_merge_slot(&a, s);
        if (s->res_cap && s->count) {
            nsrc++;
            if (s->res_cap > cap)
                cap = s->res_cap;
        }
    }
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", tks__region_reg.name[i]);
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
        for (struct tks__region_thread *t = tks__region_reg.threads; t; t = t->next) {
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
    tks_sort_u64(buf, total);
    st->kept = total;
    st->median = tks_quantile_sorted(buf, total, 0.5) - o;
    st->p90 = tks_quantile_sorted(buf, total, 0.9) - o;
    st->p99 = tks_quantile_sorted(buf, total, 0.99) - o;
    *kept = buf;
    *len = total;
}

int tks_region_stats_get(const char *name, tks_region_stats *out)
{
    int i;
    uint64_t *kept;
    size_t len;
    if (!name || !out)
        return TKS_EINVAL;
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    i = find(name);
    if (i >= 0)
        tks__region_collect((size_t)i, out, &kept, &len);
    pthread_mutex_unlock(&tks__region_lock);
    if (i < 0)
        return TKS_EINVAL;
    free(kept);
    return 0;
}

double tks_region_overhead(void)
{
    const tks__region_overhead_est *e;
    double v;
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    e = tks__region_overhead_of(tks__region_reg.n ? tks__region_reg.method[0] : -1);
    v = e ? e->ticks : 0;
    pthread_mutex_unlock(&tks__region_lock);
    return v;
}
