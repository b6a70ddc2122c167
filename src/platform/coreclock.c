/* SPDX-License-Identifier: MIT */
/* coreclock.c: core cycles per timer tick without performance counters, from a chain of dependent
 * register adds timed at two lengths and checked against other chains (core_check.h);
 * cross-checked with the hardware cycle counter when one exists. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "platform/core_check.h"
#include "sample/events.h"
#include "base/diag.h"
#include "tickscope.h"

#define MIN_SHORT_ITERS 16ul    /* 1024 adds: long enough to hide the loop-exit mispredict */
#define MAX_SHORT_ITERS (1ul << 16) /* 4M adds: a sane cap for a very slow timer */
#define LONG_FACTOR 4ul         /* long = 4 x short: most of each pair's time is the difference */
#define ROUNDS 15u
#define REPS 7u                 /* timings per length per round; the minimum is kept */
#define MIN_REPS 3u
#define ROUNDS_BUDGET_NS 20000000l /* fewer repetitions when a slow timer needs long chains */
#define COUNTER_REPS 9u
#define CALM_SPREAD 0.02        /* rounds further apart than this: the machine was disturbed */
#define MAX_ATTEMPTS 3u
/* For 15 rounds the 4th and 12th smallest bound the median with 96.5% confidence (binomial). */
#define CI_LO_RANK 3u
#define CI_HI_RANK 11u
_Static_assert(ROUNDS == 15, "CI_LO_RANK and CI_HI_RANK are the ranks for 15 rounds");
#define WARMUP_NS 2000000l

/* The fenced method the chain is timed with: the architecture's first method where the CPU has
 * it, else the best fenced one it has (lfence_rdtsc on an x86 without RDTSCP); set once by
 * tks_core_clock_measure before any timing. */
static enum tks_method clock_method = TKS_METHOD_COUNT;

/* One timing of the chain between two reads of method M, inline: the short and the long chain
 * run the very same instructions, so the harness cancels exactly. */
#define CHAIN_CASE(m, M, flags, ...)                                                         \
    case TKS_METHOD_##M:                                                                    \
        TKS__CHAIN_TIMED(acc, n, t0, tks_begin_##m(), t1, tks_end_##m(&aux1));              \
        break;

/* One timing of iters blocks of the add chain (arch/add_chain.h) between two reads of
 * clock_method; UINT64_MAX when it migrated or went backwards. Not inlined, so the short and the
 * long chain run the very same instructions and the harness cancels exactly. */
static __attribute__((noinline)) uint64_t chain_ticks(unsigned long iters)
{
    unsigned long acc = 1, n = iters;
    /* In memory, not a register: i386 has none to spare across the window. */
    volatile tks_u32 aux0;
    tks_u32 aux1 = TKS_AUX_NONE;
    uint64_t t0 = 0, t1 = 0;
    if ((unsigned)clock_method >= TKS_METHOD_COUNT)
        return UINT64_MAX;
    aux0 = TKS_MF_END_AUX(tks_method_info(clock_method)->flags) ? tks_cpu_aux() : TKS_AUX_NONE;
    /* After the TSC_AUX read, whose RDTSCP clobbers three registers, so that neither value is
     * reloaded from the stack inside the window. */
    switch (clock_method) {
        TKS_METHOD_EACH_HERE_WITH(CHAIN_CASE, ~)
    default:
        return UINT64_MAX;
    }
    if (aux0 != aux1 || t1 <= t0)
        return UINT64_MAX;
    return t1 - t0;
}

static uint64_t min_ticks(unsigned long iters, unsigned reps)
{
    uint64_t best = UINT64_MAX, t;
    while (reps--)
        if ((t = chain_ticks(iters)) < best)
            best = t;
    return best;
}

static int64_t ns_between(const struct timespec *a, const struct timespec *b)
{
    return (int64_t)(b->tv_sec - a->tv_sec) * 1000000000 + (b->tv_nsec - a->tv_nsec);
}

/* A core that was idle may run at a low frequency for a while after waking up. */
static void warm_up(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        (void)chain_ticks(1024);
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while (ns_between(&a, &b) < WARMUP_NS);
}

/* Double the chain until long minus short spans want_ticks: a slow timer (arm64's 24 MHz
 * counter) needs far longer chains than a TSC for the same quantisation error. */
static unsigned long choose_short_iters(uint64_t want_ticks)
{
    unsigned long s;
    for (s = MIN_SHORT_ITERS; s < MAX_SHORT_ITERS; s *= 2) {
        uint64_t ts = min_ticks(s, 3), tl = min_ticks(s * LONG_FACTOR, 3);
        if (ts != UINT64_MAX && tl != UINT64_MAX && tl > ts && tl - ts >= want_ticks)
            break;
    }
    return s;
}

/* How many timings per length a round can afford: on this kind of machine all of them, but a
 * 24 MHz arm64 counter needs chains a hundred times longer than a TSC does. */
static unsigned choose_reps(unsigned long short_iters)
{
    struct timespec a, b;
    int64_t pair_ns;
    long reps;
    clock_gettime(CLOCK_MONOTONIC, &a);
    (void)chain_ticks(short_iters);
    (void)chain_ticks(short_iters * LONG_FACTOR);
    clock_gettime(CLOCK_MONOTONIC, &b);
    pair_ns = ns_between(&a, &b);
    reps = pair_ns > 0 ? (long)(ROUNDS_BUDGET_NS / ((int64_t)ROUNDS * pair_ns)) : (long)REPS;
    return reps < (long)MIN_REPS ? MIN_REPS : reps > (long)REPS ? REPS : (unsigned)reps;
}

static void sort_doubles(double *v, unsigned n)
{
    unsigned i, j;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* ---------------------------------------------------------------- the hardware counter */

/* The cycles event, opened as the event counters open any event (sample/events.h: rdpmc where
 * the kernel allows it, else read()); 0 and its count, or -1 when it could not be read. */
static int counter_read(struct tks__event_set *c, uint64_t *v)
{
    uint64_t all[TKS__EVENTS_MAX];
    if (tks__events_read(c, all) != 0)
        return -1;
    *v = all[0];
    return 0;
}

/* Counter cycles and ticks around the same chain, the minimum of each over several timings:
 * an interrupt inflates the ticks but (exclude_kernel) not the cycles, so each gets its own. */
static int counted_chain(struct tks__event_set *c, unsigned long iters, uint64_t *cycles,
                         uint64_t *ticks)
{
    unsigned r;
    uint64_t c0, c1, t;
    *cycles = *ticks = UINT64_MAX;
    for (r = 0; r < COUNTER_REPS; r++) {
        if (counter_read(c, &c0) != 0)
            return -1;
        t = chain_ticks(iters);
        if (counter_read(c, &c1) != 0)
            return -1;
        if (t < *ticks)
            *ticks = t;
        if (c1 > c0 && c1 - c0 < *cycles)
            *cycles = c1 - c0;
    }
    return *ticks == UINT64_MAX || *cycles == UINT64_MAX ? -1 : 0;
}

static void counter_measure(tks_core_clock *out, unsigned long short_iters)
{
    struct tks__event_set c;
    const struct tks__event *e = &c.ev[0];
    uint64_t cs, ts, cl, tl;
    if (tks__events_open(&c, "cycles", NULL, NULL, 0) != 0 || e->refusal != TKS__EVENT_COUNTED) {
        (void)tks__diag(&out->counter_diags, TKS_DIAG_PLATFORM_COUNTER_REFUSED,
                        TKS__DN(e->err ? e->err : EINVAL));
        tks__events_close(&c);
        return;
    }
    if (counted_chain(&c, short_iters, &cs, &ts) != 0 ||
        counted_chain(&c, short_iters * LONG_FACTOR, &cl, &tl) != 0 || cl <= cs || tl <= ts) {
        (void)tks__diag0(&out->counter_diags, TKS_DIAG_PLATFORM_COUNTER_SILENT);
    } else {
        out->counter = 1;
        out->counter_rdpmc = e->rdpmc != NULL;
        out->counter_cycles_per_tick = (double)(cl - cs) / (double)(tl - ts);
        if (!e->rdpmc)
            (void)tks__diag(&out->counter_diags, TKS_DIAG_PLATFORM_COUNTER_READ,
                            TKS__DS(e->rdpmc_why ? e->rdpmc_why : "no user-space read"));
        else
            (void)tks__diag0(&out->counter_diags, TKS_DIAG_PLATFORM_COUNTER_RDPMC);
    }
    tks__events_close(&c);
}

/* ---------------------------------------------------------------- the measurement */

/* ROUNDS timings of the chain's two lengths into cpt, unsorted. */
static int rounds(unsigned long s_iters, unsigned long l_iters, unsigned reps,
                  const tks_core_clock *out, double *cpt)
{
    unsigned done = 0, attempts = 0;
    while (done < ROUNDS) {
        uint64_t ms = UINT64_MAX, ml = UINT64_MAX, t;
        unsigned r;
        if (attempts++ >= 4 * ROUNDS)
            return TKS_EDISCARD;
        for (r = 0; r < reps; r++) {
            if ((t = chain_ticks(s_iters)) < ms)
                ms = t;
            if ((t = chain_ticks(l_iters)) < ml)
                ml = t;
        }
        if (ms == UINT64_MAX || ml == UINT64_MAX || ml <= ms)
            continue;
        cpt[done++] = (double)(out->adds_long - out->adds_short) / (double)(ml - ms);
    }
    return 0;
}

int tks_core_clock_measure(tks_core_clock *out)
{
    double cpt[ROUNDS];
    unsigned long s_iters, l_iters;
    uint64_t quantum = 1, want;
    unsigned reps;
    int rc;
    if (!out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    clock_method = TKS__METHOD_FIRST;
    if (!tks_method_available(clock_method, tks_cpu_features_get()))
        clock_method = tks_method_default(tks_cpu_features_get());
    if ((unsigned)clock_method >= TKS_METHOD_COUNT ||
        !(tks_method_info(clock_method)->flags & TKS_MF_FENCED_END))
        return TKS_EUNAVAIL;
    warm_up();
    if ((rc = tks_timer_quantum_step(clock_method, &quantum, NULL)) != 0)
        return rc;
    /* Quantisation error of at most one quantum on each end, kept far below 0.1%. */
    want = quantum * 2000 > 20000 ? quantum * 2000 : 20000;
    s_iters = choose_short_iters(want);
    l_iters = s_iters * LONG_FACTOR;
    reps = choose_reps(s_iters);
    out->adds_short = (uint64_t)s_iters * TKS_CHAIN_BLOCK;
    out->adds_long = (uint64_t)l_iters * TKS_CHAIN_BLOCK;

    /* Short and long alternate within a round so that a change of core frequency during it
     * reaches both lengths alike; between rounds it shows up as spread. A spread over
     * CALM_SPREAD (another task or guest took the CPU, the host changed its clock) sends the
     * whole measurement round again, up to MAX_ATTEMPTS times; the calmest is kept, and its
     * spread and interval say how calm that was. */
    for (out->attempts = 1;; out->attempts++) {
        double spread;
        if ((rc = rounds(s_iters, l_iters, reps, out, cpt)) != 0)
            return rc;
        sort_doubles(cpt, ROUNDS);
        spread = (cpt[ROUNDS - 1] - cpt[0]) / cpt[ROUNDS / 2];
        if (out->attempts == 1 || spread < out->spread) {
            out->cycles_per_tick = cpt[ROUNDS / 2];
            out->lo = cpt[CI_LO_RANK];
            out->hi = cpt[CI_HI_RANK];
            out->spread = spread;
        }
        if (out->spread <= CALM_SPREAD || out->attempts == MAX_ATTEMPTS)
            break;
    }
    out->rounds = ROUNDS;
    if ((rc = tks__core_clock_check(out, clock_method)) != 0)
        return rc;
    counter_measure(out, s_iters);
    return 0;
}
