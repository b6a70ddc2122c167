/* SPDX-License-Identifier: MIT */
/* tickscope/region.h: named regions anywhere in a program, accumulated on every pass and reported
 * at exit (or on demand, or on a signal) in ticks, core cycles and ns.
 *
 *     #include <tickscope/region.h>
 *
 *     TKS_REGION_BEGIN("parse");
 *     n = parse(line);
 *     TKS_REGION_END("parse");
 *
 * Link with -ltickscope -lm -lpthread. The first use of a call site registers the region (a call
 * into the library); every later pass costs the two inline clock reads of the validated fence
 * method, a load and a branch at each end, and the accumulation into this thread's own slot (no
 * lock, no atomic read-modify-write: plain stores, bracketed by a sequence counter so a report
 * taken while the thread runs reads whole figures). Define TKS_REGIONS_DISABLE (or TKS_NO_REGIONS) before
 * including this header and every macro and function below compiles to nothing.
 *
 * The method: -DTKS_REGION_METHOD=TKS_METHOD_LFENCE (any enum tks_method constant) compiles it
 * in; otherwise the library chooses once at start-up (TICKSCOPE_REGION_METHOD=name overrides)
 * and each read dispatches on it with a predictable branch.
 *
 * Environment (read at the first region use; it overrides the tks_region_set_* calls):
 *   TICKSCOPE_REGION_OUT        stderr (default), stdout, a file name, or none (no report at exit)
 *   TICKSCOPE_REGION_FORMAT     text (default), json, csv
 *   TICKSCOPE_REGION_RESERVOIR  keep up to N passes per region and thread for quantiles (0: off)
 *   TICKSCOPE_REGION_SIGNAL     USR1, USR2 or a number: a report on every such signal
 *   TICKSCOPE_REGION_METHOD     lfence, serialize, mfence, rdtscp, rdtsc (isb, cntvct on arm64)
 *   TICKSCOPE_REGIONS_PER_THREAD  1: a row per thread under each merged row (tks_region_set_per_thread) */
#ifndef TICKSCOPE_REGION_H
#define TICKSCOPE_REGION_H

#include <stddef.h>

#include "clock.h"
#include "common.h"
#include "region_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What tks_region_report and TICKSCOPE_REGION_FORMAT accept: the formats of tickscope/common.h
 * (console text, JSON, CSV, Markdown), under the names the regions had before. */
#define TKS_REGION_TEXT TKS_FORMAT_CONSOLE
#define TKS_REGION_JSON TKS_FORMAT_JSON
#define TKS_REGION_CSV TKS_FORMAT_CSV
#define TKS_REGION_MARKDOWN TKS_FORMAT_MARKDOWN


#if defined(TKS_REGIONS_DISABLE) || defined(TKS_NO_REGIONS)

/* Compiled out: no code, no data, no reference to the library. The functions become empty
 * inline stubs (not macros, so a call used as a statement draws no unused-value warning). */
#define TKS_REGION_BEGIN(name) ((void)0)
#define TKS_REGION_END(name) ((void)0)
#if defined(__GNUC__) || defined(__clang__)
#define TKS__REGION_STUB static inline __attribute__((unused))
#else
#define TKS__REGION_STUB static inline
#endif
TKS__REGION_STUB int tks_region_report(const char *out, int format)
{
    (void)out, (void)format;
    return 0;
}
TKS__REGION_STUB void tks_region_reset(void) {}
TKS__REGION_STUB int tks_region_set_output(const char *out, int format)
{
    (void)out, (void)format;
    return 0;
}
TKS__REGION_STUB int tks_region_set_reservoir(const char *name, size_t size)
{
    (void)name, (void)size;
    return 0;
}
TKS__REGION_STUB int tks_region_set_tsc_hz(double hz)
{
    (void)hz;
    return 0;
}
TKS__REGION_STUB int tks_region_set_per_thread(int on)
{
    (void)on;
    return 0;
}
TKS__REGION_STUB int tks_region_report_on_signal(int sig)
{
    (void)sig;
    return 0;
}
TKS__REGION_STUB int tks_region_stats_get(const char *name, tks_region_stats *out)
{
    (void)name, (void)out;
    return -1; /* TKS_EINVAL: no region has any name */
}
TKS__REGION_STUB double tks_region_overhead(void) { return 0; }

#else /* regions compiled in */

/* ---------------------------------------------------------------- the API */

/* Write a report now. out: NULL for the configured destination (TICKSCOPE_REGION_OUT or
 * tks_region_set_output; stderr by default), "stderr", "stdout" or "-", or a file name (written
 * whole, through a temporary). format: an enum tks_format (an int, so that C++ callers may pass -1), or TKS_FORMAT_DEFAULT (-1) for the configured one.
 * A file that cannot be written is reported once on stderr, counted, and the report goes to
 * stderr instead. Threads still inside regions are read as they are (figures may be one pass
 * behind). 0, TKS_EIO (the file could not be written), TKS_EINVAL. */
TKS_API int tks_region_report(const char *out, int format);
/* Zero every region's figures on every thread (the regions stay registered). Call it while no
 * other thread is inside a region: their slots are written without a lock. */
TKS_API void tks_region_reset(void);
/* Where and how the report at exit is written: out as for tks_region_report, "none" for no report
 * at exit (NULL leaves it unchanged); format an enum tks_format or TKS_FORMAT_DEFAULT (unchanged). The
 * environment variables, when set, win. 0 or TKS_EINVAL. */
TKS_API int tks_region_set_output(const char *out, int format);
/* Keep up to size passes (per thread) of region name in a reservoir (Vitter's algorithm R), for
 * the median, p90, p99 and a histogram; name NULL sets the default for every region. Takes effect
 * on threads that have not yet used the region. 0 or TKS_EINVAL / TKS_ERANGE (name table full). */
TKS_API int tks_region_set_reservoir(const char *name, size_t size);
/* The TSC rate for nanoseconds (Hz; <= 0: measured, the default). */
TKS_API int tks_region_set_tsc_hz(double hz);
/* on = 1: the report shows, under each region's merged row, one row per thread (per block of
 * slots: a thread that ended hands its block to the next new one, whose passes add to it);
 * 0: merged rows only (the default). TICKSCOPE_REGIONS_PER_THREAD=0/1 wins. 0 or TKS_EINVAL. */
TKS_API int tks_region_set_per_thread(int on);
/* Report on every delivery of sig (0: stop). A pipe and a reporting thread are set up, so the
 * handler itself only writes one byte. 0, TKS_EINVAL, TKS_EIO (the handler could not be set). */
TKS_API int tks_region_report_on_signal(int sig);
/* One region's figures (what the report prints). 0, or TKS_EINVAL when no region has that name. */
TKS_API int tks_region_stats_get(const char *name, tks_region_stats *out);
/* The per-pass overhead subtracted, in ticks (measured at the first region use). */
TKS_API double tks_region_overhead(void);

/* ---------------------------------------------------------------- inside the macros
 * Not for direct use. A call site's handle: id 0 until registered, then its slot's index (the
 * region's + 1); full is set when the table was full (the site then stays at 0 and takes the
 * slow path, which returns at once). */
typedef struct tks__region_site {
    int id;
    int full;
} tks__region_site;

/* GNU C and MSVC spellings of what the slots need: 64-byte alignment, thread-local storage, and
 * relaxed atomic loads and stores (plain moves on x86-64 and arm64, never torn, and visible to
 * ThreadSanitizer as atomic). MSVC's aligned accesses of up to 64 bits are single moves on x64;
 * its volatile accesses are ordered (/volatile:ms, the default on x86). */
#if defined(_MSC_VER) && !defined(__clang__)
#define TKS__ALIGN64 __declspec(align(64))
#define TKS__THREAD __declspec(thread)
#define TKS__STORE(p, v) (*(p) = (v))
#define TKS__LOAD_RELAXED(p) (*(volatile const int *)(p))
typedef tks_u64 tks__u64_a8;
#define TKS__SEQ_OPEN(p, n) (*(p) = TKS__CAST(tks_u32, 2u * (n) + 1u), TKS__COMPILER_BARRIER())
#define TKS__SEQ_CLOSE(p, n) (TKS__COMPILER_BARRIER(), *(p) = TKS__CAST(tks_u32, 2u * (n) + 2u))
#else
#define TKS__ALIGN64 __attribute__((aligned(64)))
#define TKS__THREAD __thread
/* Release stores: plain moves on x86 (stlr on arm64), and with them no fence is needed. */
#define TKS__STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define TKS__LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
/* i386 aligns a 64-bit integer to 4 bytes; its atomic accesses need 8 (clang says so). */
typedef tks_u64 tks__u64_a8 __attribute__((aligned(8)));
/* A sequence lock (H. Boehm, "Can seqlocks get along with programming language memory models?",
 * MSPC 2012, with release stores of the data): odd while the owner updates a slot's moments, so a
 * report reading them while the thread runs takes a consistent copy (src/region/collect.c)
 * instead of a half-updated one (on i386 a 64-bit counter could be read torn, off by 2^32). Its
 * values come from the pass count n the update starts from (2n + 1, then 2n + 2), which the
 * update loads anyway: the lock adds two stores and no load to a pass. */
#define TKS__SEQ_OPEN(p, n) __atomic_store_n((p), TKS__CAST(tks_u32, 2u * (n) + 1u), __ATOMIC_RELAXED)
#define TKS__SEQ_CLOSE(p, n) __atomic_store_n((p), TKS__CAST(tks_u32, 2u * (n) + 2u), __ATOMIC_RELEASE)
#endif

/* One region on one thread, written only by that thread (other threads read it: reports). The
 * fields every pass touches come first and fill one cache line; the alignment makes a slot two
 * whole lines, so finding slot i is a shift, and no two threads' slots share a line. Every field
 * a report reads is stored with TKS__STORE; the moments change inside seq's odd window. */
struct TKS__ALIGN64 tks__region_slot {
    tks_u64 start;           /* the begin reading of the open pass (the owner's alone) */
    tks_u32 open;            /* 0: not set up on this thread; 1: idle; 1 + k: k passes open */
    tks_u32 seq;             /* 2 count + 1 while count..sq_hi are being updated, then 2 count */
    tks_u64 count, sum, min, max;
    tks_u64 sq_lo, sq_hi;    /* sum of squares, 128 bits in two halves (no __int128 on i386) */
    /* The second line: what a pass reads but rarely writes, then the rare counters. */
    tks_u64 ends_without_begin, unterminated, negative;
    tks_u64 moved;           /* passes that ended on another CPU than the pass before */
    tks_u64 rng;             /* xorshift state for the reservoir (the owner's alone) */
    tks__u64_a8 *res;        /* res_cap passes */
    tks_u32 res_cap;         /* reservoir capacity (0: none) */
    tks_u32 threads;         /* threads that set this slot up (a block outlives its thread) */
    tks_u32 cpu;             /* TSC_AUX of the last end (TKS_AUX_NONE: none yet, or no RDTSCP) */
};

/* One thread's slots. Blocks are never freed: one left by an exited thread is adopted by the
 * next new thread, so nothing is lost and memory stays bounded by the most threads alive.
 * slot[0] is never set up: an unregistered call site (id 0) finds it closed and takes the slow
 * path, so the fast path needs no check of its own for that. */
struct tks__region_thread {
    struct tks__region_slot slot[TKS_REGION_MAX + 1];
    struct tks__region_thread *next;
    int dead;
    void *events; /* event counters: the thread's own (region_events.c), NULL when off */
};

/* This thread's block; before its first region, and after it ends, an empty block whose slots
 * are all closed (never NULL, so the fast path does not test it). */
TKS_API extern TKS__THREAD struct tks__region_thread *tks__region_self;
TKS_API extern int tks__region_method; /* enum tks_method, chosen at start-up */
/* Event counters (TICKSCOPE_REGION_COUNTERS): nonzero when on; read before a pass's begin
 * reading and after its end reading, never between. */
TKS_API extern int tks__region_counting;
TKS_API void tks__region_events_begin(struct tks__region_slot *slot);
TKS_API void tks__region_events_end(struct tks__region_slot *slot);

TKS_API struct tks__region_slot *tks__region_begin_slow(tks__region_site *s, const char *name, int method);
TKS_API tks_u64 tks__region_end_slow(tks__region_site *s, const char *name, int method, tks_u64 t1);
TKS_API void tks__region_add_wide(struct tks__region_slot *slot, tks_u64 d);
TKS_API void tks__region_keep_wide(struct tks__region_slot *slot, tks_u64 d);

#if defined(__GNUC__)
#define TKS__LIKELY(x) __builtin_expect(!!(x), 1)
#define TKS__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TKS__LIKELY(x) (x)
#define TKS__UNLIKELY(x) (x)
#endif

/* The method given at compile time, or -1: read tks__region_method. */
#if defined(TKS_REGION_METHOD)
#define TKS__REGION_METHOD_ID TKS__CAST(int, TKS_REGION_METHOD)
#else
#define TKS__REGION_METHOD_ID (-1)
#endif

/* The usual method: this architecture's first in the order of preference (clock.h). */
#define TKS__REGION_USUAL TKS__CAST(int, TKS__METHOD_FIRST)
#define TKS__REGION_USUAL_BEGIN tks__begin_first
#define TKS__REGION_USUAL_END tks__end_first

/* One case per method this build has, from the method list in clock.h. */
#define TKS__REGION_BEGIN_CASE(name, NAME, flags)                                          \
    case TKS_METHOD_##NAME:                                                                \
        return tks_begin_##name();
#define TKS__REGION_END_CASE(name, NAME, flags)                                            \
    case TKS_METHOD_##NAME:                                                                \
        return tks_end_##name(cpu);

/* The reads. m is a constant in every caller, so with a compile-time method the switch folds to
 * one sequence; with -1 it dispatches on the start-up choice. The begin dispatch runs before the
 * first reading; the end dispatch is inside the window, one predictable branch, and is part of
 * the overhead measured and subtracted. */
TKS_ALWAYS_INLINE tks_u64 tks__region_read_begin(int m)
{
    int k = m < 0 ? tks__region_method : m;
    /* The usual choice first: one compare and a predicted branch, where a switch may become an
     * indirect jump. */
    if (TKS__LIKELY(k == TKS__REGION_USUAL))
        return TKS__REGION_USUAL_BEGIN();
    switch (k) {
        TKS_METHOD_EACH_HERE(TKS__REGION_BEGIN_CASE)
    default:
        return TKS__REGION_USUAL_BEGIN();
    }
}

/* The end reading, and TSC_AUX (the CPU, under Linux) in *cpu: RDTSCP returns it for free. */
TKS_ALWAYS_INLINE tks_u64 tks__region_read_end_cpu(int m, tks_u32 *cpu)
{
    int k = m < 0 ? tks__region_method : m;
    if (TKS__LIKELY(k == TKS__REGION_USUAL))
        return TKS__REGION_USUAL_END(cpu);
    switch (k) {
        TKS_METHOD_EACH_HERE(TKS__REGION_END_CASE)
    default:
        return TKS__REGION_USUAL_END(cpu);
    }
}

TKS_ALWAYS_INLINE tks_u64 tks__region_read_end(int m)
{
    tks_u32 cpu;
    return tks__region_read_end_cpu(m, &cpu);
}

/* Algorithm R: the n-th pass replaces a random kept one with probability cap / n. The index is
 * a multiply-high of 32 random bits by n (no division), exact enough below 2^32 passes. */
TKS_ALWAYS_INLINE void tks__region_keep(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 n = slot->count, x, j;
    if (n <= slot->res_cap) {
        TKS__STORE(&slot->res[n - 1], d);
        return;
    }
    if (TKS__UNLIKELY(n >> 32)) {
        tks__region_keep_wide(slot, d);
        return;
    }
    x = slot->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    slot->rng = x;
    j = ((x >> 32) * n) >> 32;
    if (j < slot->res_cap)
        TKS__STORE(&slot->res[j], d);
}

/* Accumulate one pass. Below 2^32 ticks (1.6 s at 2.6 GHz) d*d fits in 64 bits, so the 128-bit
 * sum of squares is one add with carry; longer passes, and ends read before their begins, take
 * the out-of-line path. */
TKS_ALWAYS_INLINE void tks__region_tally(struct tks__region_slot *slot, tks_u64 d)
{
    TKS__STORE(&slot->count, slot->count + 1);
    TKS__STORE(&slot->sum, slot->sum + d);
    if (d < slot->min)
        TKS__STORE(&slot->min, d);
    if (d > slot->max)
        TKS__STORE(&slot->max, d);
}

/* The caller holds seq odd (TKS__SEQ_OPEN). Count goes first, so the next seq follows it. */
TKS_ALWAYS_INLINE void tks__region_add_short(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 sq = d * d, lo = slot->sq_lo + sq;
    tks__region_tally(slot, d);
    TKS__STORE(&slot->sq_lo, lo);
    TKS__STORE(&slot->sq_hi, slot->sq_hi + (lo < sq));
}

TKS_ALWAYS_INLINE void tks__region_add(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 n;
    if (TKS__UNLIKELY(d >> 32)) {
        tks__region_add_wide(slot, d);
        return;
    }
    n = slot->count;
    TKS__SEQ_OPEN(&slot->seq, n);
    tks__region_add_short(slot, d);
    TKS__SEQ_CLOSE(&slot->seq, n);
    if (slot->res_cap)
        tks__region_keep(slot, d);
}

/* The pass ended on another CPU than the one before it: the thread was preempted and migrated,
 * during the pass or between the two (the first pass only records its CPU). */
TKS_ALWAYS_INLINE void tks__region_moved(struct tks__region_slot *slot, tks_u32 cpu)
{
    if (slot->cpu != TKS_AUX_NONE)
        TKS__STORE(&slot->moved, slot->moved + 1);
    slot->cpu = cpu;
}

/* Begin: everything but storing the reading happens before the clock is read. */
TKS_ALWAYS_INLINE void tks__region_begin(tks__region_site *s, const char *name, int m)
{
    struct tks__region_slot *slot = &tks__region_self->slot[TKS__LOAD_RELAXED(&s->id)];
    if (TKS__UNLIKELY(slot->open != 1)) {
        slot = tks__region_begin_slow(s, name, m);
        if (!slot)
            return; /* a nested pass of the same region, or the table is full */
    }
    TKS__STORE(&slot->open, 2);
    if (TKS__UNLIKELY(tks__region_counting))
        tks__region_events_begin(slot);
    slot->start = tks__region_read_begin(m);
}

/* End: the clock is read first; everything else happens after. Returns the pass's ticks
 * (overhead included), or 0 when no pass was accumulated. */
TKS_ALWAYS_INLINE tks_u64 tks__region_end(tks__region_site *s, const char *name, int m)
{
    tks_u32 cpu;
    tks_u64 t1 = tks__region_read_end_cpu(m, &cpu), d;
    struct tks__region_slot *slot = &tks__region_self->slot[TKS__LOAD_RELAXED(&s->id)];
    if (TKS__UNLIKELY(slot->open != 2))
        return tks__region_end_slow(s, name, m, t1);
    d = t1 - slot->start;
    TKS__STORE(&slot->open, 1);
    tks__region_add(slot, d);
    if (TKS__UNLIKELY(cpu != slot->cpu))
        tks__region_moved(slot, cpu);
    if (TKS__UNLIKELY(tks__region_counting))
        tks__region_events_end(slot);
    return d;
}

/* A static handle per call site: the begin and the end of a region are different sites and find
 * the same slot by name. name: a string that lives as long as the program (a literal). */
#define TKS_REGION_BEGIN(name)                                                             \
    do {                                                                                   \
        static tks__region_site tks__region_here;                                          \
        tks__region_begin(&tks__region_here, (name), TKS__REGION_METHOD_ID);               \
    } while (0)
#define TKS_REGION_END(name)                                                               \
    do {                                                                                   \
        static tks__region_site tks__region_here;                                          \
        (void)tks__region_end(&tks__region_here, (name), TKS__REGION_METHOD_ID);           \
    } while (0)

#endif /* regions compiled in */

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_REGION_H */
