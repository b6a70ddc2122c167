/* SPDX-License-Identifier: MIT */
/* state.c: what TKS_MEASURE asks for between batches. Two pilot batches learn what a pair of
 * windows costs in wall time and what one execution costs in ticks; the plan then chooses the
 * repetition counts (throughput) and the storage, and batches run round the counts until the time
 * budget is spent. Everything here runs between batches, never inside a window. */
#include "runner/state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/now.h"
#include "base/proc_refs.h"
#include "runner/runner.h"
#include "runner/events_run.h"
#include "sample/add_check.h"
#include "sample/ensemble.h"
#include "sample/loop_floor.h"
#include "stats/reference.h"
#include "stats/sort.h"

#define PILOT_FIRST 4u            /* cold: its wall time is all it gives */
#define MAX_PAIRS (1u << 19)      /* storage bound: 10 MB, and sorting stays under ~50 ms */
#define MIN_LATENCY_WINDOWS 30u
#define MIN_POINT_WINDOWS 8u
#define THROUGHPUT_POINTS 8u
#define K_LIMIT (1u << 20)

void tks__state_init(struct tks_state *st)
{
    memset(st, 0, sizeof *st);
    st->method = TKS_METHOD_COUNT;
    st->quantum = 1;
}

void tks__state_release(struct tks_state *st)
{
    void *owned[] = {st->real,   st->empty,   st->k,      st->ref,     st->ref_gap,
                     st->ref_floor, st->ref_end, st->c_real, st->c_empty, st->c_k,
                     st->t_once, st->t_twice, st->t_ref, st->chk, st->ref_w};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
        free(owned[i]);
    st->real = st->empty = st->c_real = st->c_empty = st->t_once = st->t_twice = NULL;
    st->k = st->c_k = NULL;
    st->ref = st->ref_gap = st->ref_floor = NULL;
    st->ref_end = st->t_ref = NULL;
    st->chk = NULL;
    st->ref_w = NULL;
    st->chk_taken = 0;
    st->n = st->cap = st->n_ref = st->ref_cap = st->c_n = st->c_cap = st->t_n = st->t_cap = 0;
}

long long tks_state_arg(const tks_state *st) { return st ? st->arg : 0; }
long long tks_state_arg_at(const tks_state *st, size_t i) { return st && i < st->args.n ? st->args.v[i] : 0; }
size_t tks_state_arg_count(const tks_state *st) { return st ? st->args.n : 0; }
const char *tks_state_name(const tks_state *st) { return st ? st->name : ""; }
enum tks_mode tks_state_mode(const tks_state *st) { return st ? st->mode : TKS_MODE_LATENCY; }

void tks_state_skip(tks_state *st, const char *reason)
{
    if (!st || st->skipped)
        return;
    st->skipped = 1;
    snprintf(st->reason, sizeof st->reason, "%s", reason && *reason ? reason : "skipped");
}

static int fail(struct tks_state *st, int err, const char *reason)
{
    if (!st->error) {
        st->error = err;
        snprintf(st->reason, sizeof st->reason, "%s", reason);
    }
    st->phase = TKS_PHASE_DONE;
    return 0;
}

static int is_bad(uint64_t v) { return v == TKS__SAMPLE_MIGRATED || v >> 63; }

static void count_bad(struct tks_state *st, uint64_t e, uint64_t r)
{
    if (e == TKS__SAMPLE_MIGRATED || r == TKS__SAMPLE_MIGRATED)
        st->migrated++;
    else
        st->negative++;
}

/* The pilot's medians: what one pair of windows holds, and what the block costs. */
static void pilot_costs(struct tks_state *st)
{
    uint64_t e[TKS_BATCH_MAX], r[TKS_BATCH_MAX];
    size_t m = 0;
    for (uint32_t i = 1; i < st->b_n; i++) {
        if (is_bad(st->b_empty[i]) || is_bad(st->b_real[i])) {
            count_bad(st, st->b_empty[i], st->b_real[i]);
            continue;
        }
        e[m] = st->b_empty[i];
        r[m++] = st->b_real[i];
    }
    st->warmup += st->b_n - m;
    if (m == 0) {
        st->pilot_cost = st->pilot_overhead = 0;
        return;
    }
    tks__sort_u64(e, m);
    tks__sort_u64(r, m);
    st->pilot_overhead = (double)e[m / 2];
    st->pilot_cost = ((double)r[m / 2] - (double)e[m / 2]) / st->b_k;
}

/* Repetition counts: the largest window holds a span of block executions long enough that the
 * timer's step and the harness are small beside it (at least 2,000 ticks, 64 quanta and 16 empty
 * windows), and the counts are evenly spaced multiples so the fit sees a line. */
static size_t throughput_ks(const struct tks_state *st, uint32_t *ks, double span)
{
    double per = fmax(st->pilot_cost, 0.05); /* a block optimised away still gets finite counts */
    double kmax = fmin(fmax(span / per, THROUGHPUT_POINTS), K_LIMIT);
    uint32_t k1 = (uint32_t)ceil(kmax / THROUGHPUT_POINTS);
    for (size_t i = 0; i < THROUGHPUT_POINTS; i++)
        ks[i] = k1 * (uint32_t)(i + 1);
    return THROUGHPUT_POINTS;
}

static void plan_ks(struct tks_state *st)
{
    if (st->mode == TKS_MODE_LATENCY) {
        st->ks[0] = 1;
        st->nk = 1;
        return;
    }
    st->nk = throughput_ks(st, st->ks, fmax(2000.0, fmax(64.0 * (double)st->quantum,
                                                         16.0 * st->pilot_overhead)));
}

/* The throughput companion of a small latency-mode block: its counts and storage (a quarter of
 * the main windows'). Without memory for it the run goes on without it. */
static void plan_companion(struct tks_state *st)
{
    if (st->mode != TKS_MODE_LATENCY ||
        !(st->pilot_cost < fmax(TKS_COMPANION_TICKS, 4.0 * (double)st->quantum)))
        return;
    /* Shorter windows than a throughput run's: the companion only has to tell the modes apart
     * (to a few percent), and must leave the time to the latency windows. */
    st->c_nk = throughput_ks(st, st->c_ks, fmax(400.0, 16.0 * (double)st->quantum));
    st->c_cap = st->cap / TKS_COMPANION_EVERY + TKS_BATCH_MAX * st->c_nk;
    st->c_real = calloc(st->c_cap, sizeof *st->c_real);
    st->c_empty = calloc(st->c_cap, sizeof *st->c_empty);
    st->c_k = calloc(st->c_cap, sizeof *st->c_k);
    st->companion = st->c_real && st->c_empty && st->c_k;
}

/* Latency mode without hooks: storage for the windows of the block once and twice (as many as
 * the main windows; they take every other batch). A block with a setup or teardown hook may need
 * it before each execution, so it never runs twice in a window; without memory the run goes on
 * with the reference's gap alone. */
static void plan_twice(struct tks_state *st)
{
    if (st->mode != TKS_MODE_LATENCY || st->hooks)
        return;
    st->t_cap = st->cap;
    st->t_once = calloc(st->t_cap, sizeof *st->t_once);
    st->t_twice = calloc(st->t_cap, sizeof *st->t_twice);
    st->t_ref = calloc(st->t_cap, sizeof *st->t_ref);
    st->twice = st->t_once && st->t_twice && st->t_ref;
}

static int plan(struct tks_state *st)
{
    double tick_s = st->tsc_hz > 0 ? 1 / st->tsc_hz : 1e-9, avg = 0, want;
    plan_ks(st);
    for (size_t i = 0; i < st->nk; i++)
        avg += st->pilot_pair_s + (st->ks[i] - 1) * fmax(st->pilot_cost, 0) * tick_s;
    avg /= (double)st->nk;
    st->min_per_point = st->mode == TKS_MODE_LATENCY ? MIN_LATENCY_WINDOWS : MIN_POINT_WINDOWS;
    want = 1.5 * st->min_time / fmax(avg, 1e-9) + (double)(TKS_BATCH_MAX * st->nk);
    if (st->fixed_windows) /* Google's Nx; each point still gets a batch and its minimum */
        want = fmax((double)st->fixed_windows,
                    (double)(st->nk > 1 ? st->nk * TKS_BATCH_MAX : st->min_per_point * 2));
    want = fmax(want, (double)(st->min_per_point * st->nk * 2));
    st->cap = want > MAX_PAIRS ? MAX_PAIRS : (size_t)want;
    st->real = malloc(st->cap * sizeof *st->real);
    st->empty = malloc(st->cap * sizeof *st->empty);
    st->k = malloc(st->cap * sizeof *st->k);
    /* One reference per batch; a batch keeps at least one pair, or the run ends. */
    st->ref_cap = st->cap / (TKS_BATCH_MAX - 1) + 2 * TKS_POINTS_MAX + 16;
    st->ref = calloc(st->ref_cap, sizeof *st->ref);
    st->ref_gap = calloc(st->ref_cap, sizeof *st->ref_gap);
    st->ref_floor = calloc(st->ref_cap, sizeof *st->ref_floor);
    st->ref_end = calloc(st->ref_cap, sizeof *st->ref_end);
    if (st->keep_ref_w && !(st->ref_w = malloc(st->ref_cap * tks__reference_windows(st->mode) *
                                               sizeof *st->ref_w)))
        return fail(st, TKS_ENOMEM, "cannot allocate the reference's windows for the recording");
    if (!st->real || !st->empty || !st->k || !st->ref || !st->ref_gap || !st->ref_floor ||
        !st->ref_end)
        return fail(st, TKS_ENOMEM, "cannot allocate the sample storage");
    /* Touch every page now, so no first-touch fault lands between batches. */
    memset(st->real, 0, st->cap * sizeof *st->real);
    memset(st->empty, 0, st->cap * sizeof *st->empty);
    memset(st->k, 0, st->cap * sizeof *st->k);
    plan_companion(st);
    plan_twice(st);
    st->start = tks__now_s();
    st->deadline = st->fixed_windows ? INFINITY : st->start + st->min_time;
    st->phase = TKS_PHASE_MAIN;
    return 1;
}

/* Keep a batch's pairs; the first pair of every batch is the warm-up after the runner's own
 * code ran, and is dropped. */
static void absorb(struct tks_state *st)
{
    if (st->b_companion) {
        for (uint32_t i = 1; i < st->b_n && st->c_n < st->c_cap; i++) {
            if (is_bad(st->b_empty[i]) || is_bad(st->b_real[i]))
                continue;
            st->c_real[st->c_n] = st->b_real[i];
            st->c_empty[st->c_n] = st->b_empty[i];
            st->c_k[st->c_n++] = st->b_k;
        }
        return;
    }
    if (st->b_twice) {
        for (uint32_t i = 1; i < st->b_n && st->t_n < st->t_cap; i++) {
            if (is_bad(st->b_empty[i]) || is_bad(st->b_real[i])) {
                count_bad(st, st->b_empty[i], st->b_real[i]);
                continue;
            }
            st->t_once[st->t_n] = st->b_empty[i];
            st->t_twice[st->t_n] = st->b_real[i];
            st->t_ref[st->t_n++] = st->n_ref;
        }
        st->warmup++;
        return;
    }
    for (uint32_t i = 1; i < st->b_n; i++) {
        uint64_t e = st->b_empty[i], r = st->b_real[i];
        if (is_bad(e) || is_bad(r)) {
            count_bad(st, e, r);
            continue;
        }
        if (st->n == st->cap)
            break;
        st->real[st->n] = r;
        st->empty[st->n] = e;
        st->k[st->n++] = st->b_k;
        st->per_point[st->point]++;
    }
    st->warmup++;
}

/* The reference chain after a batch, through the benchmark's own method (its user-space loop in
 * sample/, between batches, never inside the user's windows): its windows, laid out as
 * tks__reference_windows says, and the entry they make (reference_entry.c; kept in ref_w too
 * when the run is recorded). A stretch whose windows migrated or went backwards gives no entry. */
static void reference(struct tks_state *st)
{
    tks__ensemble_fn fn = tks__ensemble_for(st->method);
    struct tks__ensemble_counts c = {0, 0};
    uint64_t w[TKS_REF_SAMPLES + 2 * TKS_GAP_SAMPLES];
    int lat = st->mode == TKS_MODE_LATENCY; /* only latency mode has a harness gap to take out */
    uint32_t ns = lat ? TKS_GAP_SAMPLES : TKS_REF_SAMPLES;
    size_t per = tks__reference_windows(st->mode);
    double diff, gap, floor;
    if (!fn || st->n_ref == st->ref_cap)
        return;
    if (fn(w, TKS_REF_SAMPLES, TKS_REF_LONG, st->check_aux, &c) != 0 ||
        fn(w + TKS_REF_SAMPLES, ns, TKS_REF_SHORT, st->check_aux, &c) != 0 ||
        (lat && fn(w + TKS_REF_SAMPLES + ns, ns, 0, st->check_aux, &c) != 0))
        return;
    st->ref_windows += TKS_REF_SAMPLES + ns + (lat ? ns : 0) +
                       (lat ? 3 : 2) * TKS_ENSEMBLE_EXTRA + c.migrated + c.negative;
    if (!lat) {
        tks__loop_floor_fn ff = tks__loop_floor_for(st->method);
        if (!ff || ff(w + 2 * TKS_REF_SAMPLES, TKS_REF_SAMPLES, TKS_FLOOR_LONG) != 0 ||
            ff(w + 3 * TKS_REF_SAMPLES, TKS_REF_SAMPLES, TKS_FLOOR_SHORT) != 0)
            return;
        st->ref_windows += 2 * TKS_REF_SAMPLES;
    }
    if (tks__reference_entry(w, st->mode, st->quantum, &diff, &gap, &floor) != 0)
        return;
    if (st->ref_w)
        memcpy(st->ref_w + st->n_ref * per, w, per * sizeof *w);
    st->ref_floor[st->n_ref] = floor;
    st->ref_end[st->n_ref] = st->n;
    st->ref_gap[st->n_ref] = gap;
    st->ref[st->n_ref++] = diff;
}

/* One take of the add check, into its half of st->chk; after the second, the verdict. Nothing
 * is taken when memory or the method is missing: the check's verdict is then NONE (one add a
 * cycle, as before it). */
static void add_check(struct tks_state *st)
{
    const uint32_t r = TKS_ADD_CHECK_ROUNDS;
    uint64_t *take;
    if (st->chk_taken >= 2)
        return;
    if (!st->chk && !(st->chk = malloc((size_t)TKS_CHECK_WINDOWS * 2 * r * sizeof *st->chk)))
        return;
    if (!(take = malloc((size_t)TKS_CHECK_WINDOWS * r * sizeof *take)))
        return;
    if (tks__add_check_sample(st->method, r, take) == 0) {
        for (uint32_t k = 0; k < TKS_CHECK_WINDOWS; k++)
            memcpy(st->chk + (size_t)k * 2 * r + (size_t)st->chk_taken * r, take + (size_t)k * r,
                   r * sizeof *take);
        if (++st->chk_taken == 2)
            tks__add_check_fit(st->chk, 2 * r, TKS_CHECK_LONG, TKS_CHECK_SHORT, &st->check);
    }
    free(take);
}

static int finished(const struct tks_state *st, double now)
{
    if (st->n >= st->cap || (st->twice && st->t_n >= st->t_cap))
        return 1;
    if (now < st->deadline || (st->twice && st->t_n < MIN_LATENCY_WINDOWS))
        return 0;
    for (size_t i = 0; i < st->nk; i++)
        if (st->per_point[i] < st->min_per_point)
            return 0;
    return 1;
}

static uint32_t pilot_pairs(const struct tks_state *st)
{
    double n = 0.02 * st->min_time / fmax(st->pilot_pair_s, 1e-9);
    return n < PILOT_FIRST ? PILOT_FIRST : n > TKS_BATCH_MAX ? TKS_BATCH_MAX : (uint32_t)n;
}

/* A batch of n pairs with k repetitions of the variant's kernel: 0 the block once (or k times in
 * throughput mode), 1 k times, TKS__TWICE once and twice. */
static void issue(struct tks_state *st, tks__batch *b, uint32_t n, uint32_t k, int variant)
{
    int thr = variant == 1;
    double estimate = st->pilot_pair_s * n;
    tks__pacing_before(&st->pacing, estimate, &st->rt_pauses);
    st->b_n = n;
    st->b_k = k;
    st->b_companion = thr && st->mode == TKS_MODE_LATENCY;
    st->b_twice = variant == TKS__TWICE;
    /* --explain: throughput batches with the perturbation after each repetition */
    b->kernel = (int)st->method * TKS__KERNELS +
                (thr && st->perturb && !st->b_companion ? TKS__PERTURBED : variant);
    b->perturb = st->perturb;
    b->perturb_n = st->perturb_n ? st->perturb_n : 1;
    /* tks_state_iterations: the block runs k times a window (once, then twice, in TKS__TWICE) */
    st->executed += (uint64_t)n * (variant == TKS__TWICE ? 3 : k);
    b->n = n;
    b->k = k;
    b->check_aux = st->check_aux;
    b->empty = st->b_empty;
    b->real = st->b_real;
    st->b_start = tks__now_s();
    tks__run_events_batch_begin(st); /* the last thing before the batch */
}

int tks__state_next(tks_state *st, tks__batch *b)
{
    double now;
    tks__run_events_batch_end(st); /* the first thing after the batch */
    now = tks__now_s();
    b->kernel = -1;
    b->n = 0;
    if (st->phase != TKS_PHASE_START && st->b_n)
        tks__pacing_after(&st->pacing, now - st->b_start);

    switch (st->phase) {
    case TKS_PHASE_START:
        if (st->entered++)
            return fail(st, TKS_EINVAL, "TKS_MEASURE was used more than once in one body");
        st->hooks = b->hooks;
        if (st->skipped) { /* the runner reports the reason */
            st->phase = TKS_PHASE_DONE;
            return 0;
        }
        if (st->touched) { /* after the body's set-up: only the block's pages count */
            st->touched->rc = tks__refs_clear(st->touched->why, sizeof st->touched->why);
            if (st->touched->rc) {
                st->phase = TKS_PHASE_DONE;
                return 0;
            }
            st->phase = TKS_PHASE_TOUCH;
            st->start = now;
            st->deadline = now + st->min_time;
            issue(st, b, TKS_BATCH_MAX, 1, 1);
            return 1;
        }
        if (st->warmup_time > 0 && !st->dry_run) {
            st->phase = TKS_PHASE_WARMUP;
            st->warmup_end = now + st->warmup_time;
        } else {
            st->phase = TKS_PHASE_PILOT;
        }
        issue(st, b, st->dry_run ? 1 : PILOT_FIRST, 1, st->mode == TKS_MODE_THROUGHPUT);
        return 1;
    case TKS_PHASE_WARMUP: /* batches, each twice the last, until the warm-up time is spent */
        st->warmup += st->b_n;
        if (now >= st->warmup_end)
            st->phase = TKS_PHASE_PILOT;
        issue(st, b, st->phase == TKS_PHASE_PILOT ? PILOT_FIRST
                     : st->b_n < TKS_BATCH_MAX / 2 ? 2 * st->b_n : TKS_BATCH_MAX,
              1, st->mode == TKS_MODE_THROUGHPUT);
        return 1;
    case TKS_PHASE_PILOT:
        if (st->dry_run) { /* the body ran once: that is all a dry run asks */
            st->phase = TKS_PHASE_DONE;
            return 0;
        }
        st->pilot_pair_s = (now - st->b_start) / st->b_n;
        if (++st->pilots == 1) {
            st->warmup += st->b_n;
            issue(st, b, pilot_pairs(st), 1, st->mode == TKS_MODE_THROUGHPUT);
            return 1;
        }
        pilot_costs(st);
        if (!plan(st))
            return 0;
        { /* the check's time is not the benchmark's: a 10 ms run would lose a fifth of it */
            double before = tks__now_s(), spent;
            add_check(st);
            spent = tks__now_s() - before;
            st->start += spent;
            st->deadline += spent;
        }
        st->b_n = 0;
        issue(st, b, TKS_BATCH_MAX, st->ks[0], st->mode == TKS_MODE_THROUGHPUT);
        return 1;
    case TKS_PHASE_MAIN:
        absorb(st);
        reference(st);
        tks__run_events_harness(st);
        if (st->migrated + st->negative > 10 * (uint64_t)st->n + 1000)
            return fail(st, TKS_EDISCARD, "too many windows were discarded (the thread kept "
                                          "changing CPU or the clock went backwards): try --pin");
        if (finished(st, now)) {
            add_check(st);
            st->phase = TKS_PHASE_DONE;
            return 0;
        }
        st->batches++;
        if (st->companion && st->batches % TKS_COMPANION_EVERY == 0) {
            st->c_point = (st->c_point + 1) % st->c_nk;
            issue(st, b, TKS_COMPANION_PAIRS, st->c_ks[st->c_point], 1);
            return 1;
        }
        if (st->twice && st->batches % 2 == 1) {
            issue(st, b, TKS_BATCH_MAX, 1, TKS__TWICE);
            return 1;
        }
        st->point = (st->point + 1) % st->nk;
        issue(st, b, TKS_BATCH_MAX, st->ks[st->point], st->mode == TKS_MODE_THROUGHPUT);
        return 1;
    case TKS_PHASE_TOUCH: /* the block, no windows kept, until its working set stops growing */
        if (now >= st->deadline) {
            uint64_t last = st->touched->bytes;
            st->touched->rc = tks__refs_bytes(&st->touched->bytes, st->touched->why,
                                              sizeof st->touched->why);
            /* a block that touches lines at random reaches its last pages slowly: run it twice
             * as long again until the count grows by under 1% (or TKS_TOUCH_MAX_S) */
            if (st->touched->rc || st->touched->bytes <= last + last / 100 ||
                now - st->start >= TKS_TOUCH_MAX_S) {
                st->phase = TKS_PHASE_DONE;
                return 0;
            }
            st->deadline = now + (now - st->start);
        }
        /* batches of about a millisecond, so the runner's own code between them stays small */
        issue(st, b, TKS_BATCH_MAX, now - st->b_start < 1e-3 && st->b_k < (1u << 20)
                                        ? 2 * st->b_k : st->b_k, 1);
        return 1;
    case TKS_PHASE_DONE:
    default:
        /* Reached again only by a second TKS_MEASURE after the first finished. */
        if (!st->error)
            fail(st, TKS_EINVAL, "TKS_MEASURE was used more than once in one body");
        return 0;
    }
}
