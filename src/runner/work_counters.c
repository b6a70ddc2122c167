/* SPDX-License-Identifier: MIT */
/* work_counters.c: bytes, items and user counters (tickscope/work_counters.h): set by the body on
 * its state, then turned into the run's figures once, here, by Google Benchmark 1.7's rules
 * (src/counter.cc there, Finish): the value divided by the iterations' time for a rate, by the
 * threads for a thread average (one thread here), multiplied by the iterations when iteration
 * invariant, divided by them for an iteration average, and inverted last. SetBytesProcessed is
 * the counter "bytes_per_second" with the rate flag and 1024 as its k; SetItemsProcessed
 * "items_per_second" with the rate flag. The per-iteration setters are the same counters marked
 * iteration invariant: b bytes an iteration over N iterations of t seconds each read b / t. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runner/runner.h"
#include "runner/state.h"

#define BYTES "bytes_per_second"
#define ITEMS "items_per_second"

static void refuse(struct tks_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(struct tks_state *st, const char *fmt, ...)
{
    va_list ap;
    if (st->error)
        return;
    st->error = TKS_EINVAL;
    va_start(ap, fmt);
    vsnprintf(st->reason, sizeof st->reason, fmt, ap);
    va_end(ap);
}

void tks_state_set_user_counter(struct tks_state *st, const char *name, double value,
                                unsigned flags)
{
    size_t i, len;
    if (!st)
        return;
    len = name ? strlen(name) : 0;
    if (len == 0 || len >= TKS_WORK_COUNTER_NAME) {
        refuse(st, "a work counter's name must be 1 to 47 characters ('%s' is not)",
               name ? name : "(null)");
        return;
    }
    for (i = 0; i < st->n_work && strcmp(st->work[i].name, name); i++)
        ;
    if (i == TKS_WORK_COUNTERS_MAX) {
        refuse(st, "more than 16 work counters (the 17th is '%s')", name);
        return;
    }
    memset(&st->work[i], 0, sizeof st->work[i]);
    memcpy(st->work[i].name, name, len + 1);
    st->work[i].value = value;
    st->work[i].flags = flags;
    if (i == st->n_work)
        st->n_work++;
}

void tks_state_set_bytes_per_iteration(struct tks_state *st, double bytes)
{
    tks_state_set_user_counter(st, BYTES, bytes, TKS_COUNTER_ITERATION_INVARIANT_RATE | TKS_COUNTER_K1024);
}

void tks_state_set_items_per_iteration(struct tks_state *st, double items)
{
    tks_state_set_user_counter(st, ITEMS, items, TKS_COUNTER_ITERATION_INVARIANT_RATE);
}

void tks_state_set_bytes_processed(struct tks_state *st, double total)
{
    tks_state_set_user_counter(st, BYTES, total, TKS_COUNTER_RATE | TKS_COUNTER_K1024);
}

void tks_state_set_items_processed(struct tks_state *st, double total)
{
    tks_state_set_user_counter(st, ITEMS, total, TKS_COUNTER_RATE);
}

unsigned long long tks_state_iterations(const struct tks_state *st)
{
    return st ? (unsigned long long)st->executed : 0;
}

/* Google Benchmark's Finish over n iterations of `per` each (seconds or core cycles). */
static double finish(double v, unsigned flags, double n, double per)
{
    if (flags & TKS_COUNTER_RATE)
        v /= n * per;
    /* TKS_COUNTER_AVG_THREADS: divided by the threads, of which a run has one */
    if (flags & TKS_COUNTER_ITERATION_INVARIANT)
        v *= n;
    if (flags & TKS_COUNTER_AVG_ITERATIONS)
        v /= n;
    if (flags & TKS_COUNTER_INVERT)
        v = 1 / v;
    return v;
}

/* The rate as t comes down to zero: unbounded for a rate (its sign), zero for an inverted one
 * (or for nothing counted). */
static double at_zero(double v, unsigned flags)
{
    return (flags & TKS_COUNTER_INVERT) || v == 0 ? 0 : copysign(INFINITY, v);
}

/* The figure at the time (or cycles) per iteration t, its interval from t's: a rate moves
 * against t, so the ends swap. An overhead-subtracted time whose interval reaches zero or below
 * (a block of a few cycles, on a loaded machine) leaves the rate's end on that side open:
 * infinite, which JSON writes as null. */
static tks_interval finish_interval(double v, unsigned flags, double n, const tks_interval *t)
{
    tks_interval f = {NAN, NAN, NAN};
    double a, b;
    if (!(flags & TKS_COUNTER_RATE)) {
        f.value = f.lo = f.hi = finish(v, flags, n, 1);
        return f;
    }
    if (!(t->value > 0))
        return f;
    f.value = finish(v, flags, n, t->value);
    a = t->lo > 0 ? finish(v, flags, n, t->lo) : at_zero(v, flags);
    b = t->hi > 0 ? finish(v, flags, n, t->hi) : at_zero(v, flags);
    f.lo = isnan(a) || isnan(b) ? NAN : fmin(a, b);
    f.hi = isnan(a) || isnan(b) ? NAN : fmax(a, b);
    return f;
}

void tks__work_counters_figures(tks_result *r, const struct tks_state *st)
{
    double n = (double)st->executed;
    tks_interval s = {NAN, NAN, NAN}, nan = {NAN, NAN, NAN};
    r->n_work_counters = st->n_work;
    memcpy(r->work_counters, st->work, st->n_work * sizeof st->work[0]);
    if (isfinite(r->ns.value)) {
        s.value = r->ns.value * 1e-9;
        s.lo = r->ns.lo * 1e-9;
        s.hi = r->ns.hi * 1e-9;
    }
    for (size_t i = 0; i < r->n_work_counters; i++) {
        tks_work_counter *c = &r->work_counters[i];
        int ok = r->ok && n > 0;
        c->figure = ok ? finish_interval(c->value, c->flags, n, &s) : nan;
        c->per_cycle = ok && (c->flags & TKS_COUNTER_RATE)
                           ? finish_interval(c->value, c->flags, n, &r->core_cycles)
                           : nan;
    }
}
