/* SPDX-License-Identifier: MIT */
/* arg_steps.c: a benchmark's argument steps (tickscope/bench_args.h) expanded into its runs, by
 * Google Benchmark 1.7's rules (src/benchmark_register.cc and benchmark_register.h there):
 * - Range(lo, hi) with multiplier m (RangeMultiplier, 8 by default; at least 2): lo; then the
 *   powers of m strictly between lo and hi (the negative ones as the negated powers between -hi
 *   and -lo, in increasing order; 0 when the range crosses it; the positive ones from 1); then
 *   hi when it differs from the last value. Range(8, 8 << 10) is 8, 64, 512, 4096, 8192;
 *   Range(0, 1024) is 0, 1, 8, 64, 512, 1024. CreateRange(lo, hi, m) is the same list.
 * - DenseRange(start, limit, step = 1): start, start + step, ... while <= limit.
 * - Ranges and ArgsProduct: every combination of the lists, the FIRST list's index varying
 *   fastest: ArgsProduct({{1, 2}, {10, 20}}) is 1/10, 2/10, 1/20, 2/20.
 * - Every run of a benchmark has the same number of arguments, and the names (ArgNames) are as
 *   many as the arguments; names are "name:value", an empty name leaves the value bare.
 * Google Benchmark stops the program on a bad step; so does tickscope, with the reason. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/registry.h"

/* A growable list of values. */
struct list {
    long long *v;
    size_t n, cap;
};

static int push(struct list *l, long long x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        long long *v;
        if (cap > (size_t)TKS_RUNS_MAX * TKS_ARITY_MAX * 2 + 16)
            return TKS_ERANGE;
        if (!(v = realloc(l->v, cap * sizeof *v)))
            return TKS_ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

/* The powers of m in [lo, hi], 0 <= lo <= hi. */
static int add_powers(struct list *l, long long lo, long long hi, long long m)
{
    for (long long i = 1; i <= hi; i *= m) {
        int rc;
        if (i >= lo && (rc = push(l, i)) != 0)
            return rc;
        if (i > LLONG_MAX / m) /* the next power would not fit */
            break;
    }
    return 0;
}

/* The negated powers of m in [lo, hi], lo <= hi <= 0, in increasing order. */
static int add_negated_powers(struct list *l, long long lo, long long hi, long long m)
{
    size_t start = l->n;
    int rc = add_powers(l, -hi, -lo, m);
    for (size_t a = start, b = l->n; rc == 0 && a < b; a++, b--) {
        long long t = l->v[a];
        l->v[a] = -l->v[b - 1];
        l->v[b - 1] = -t;
    }
    return rc;
}

/* Google Benchmark's AddRange (see the top of the file). */
static int range(struct list *l, long long lo, long long hi, long long m)
{
    int rc;
    if (hi < lo || m < 2 || m > INT_MAX || lo == LLONG_MIN)
        return TKS_EINVAL;
    if ((rc = push(l, lo)) != 0 || lo == hi)
        return rc;
    if (lo + 1 == hi)
        return push(l, hi);
    if (lo + 1 < 0 && (rc = add_negated_powers(l, lo + 1, hi - 1 < -1 ? hi - 1 : -1, m)) != 0)
        return rc;
    if (lo < 0 && hi >= 0 && (rc = push(l, 0)) != 0)
        return rc;
    if (hi - 1 > 0 && (rc = add_powers(l, lo + 1 > 1 ? lo + 1 : 1, hi - 1, m)) != 0)
        return rc;
    return l->v[l->n - 1] != hi ? push(l, hi) : 0;
}

static int dense(struct list *l, const long long *v, int n)
{
    long long step = n > 2 ? v[2] : 1;
    int rc = 0;
    if (n < 2 || n > 3 || v[0] > v[1] || step < 1)
        return TKS_EINVAL;
    for (long long x = v[0]; rc == 0; x += step) {
        rc = push(l, x);
        if (x > v[1] - step) /* the next one would pass the limit (or overflow) */
            break;
    }
    return rc;
}

/* What the steps have made so far. */
struct build {
    tks__family *f;
    struct list runs;              /* arity values a run */
    struct list dims[TKS_ARITY_MAX]; /* the lists waiting for a product */
    size_t n_dims;
    long long mult;
    char *why;
    size_t whylen;
};

static int refuse(struct build *b, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(struct build *b, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->why, b->whylen, fmt, ap);
    va_end(ap);
    return rc;
}

/* Runs must all have the same arity, and the names must be as many. */
static int arity(struct build *b, size_t n, const char *step)
{
    if (n == 0 || n > TKS_ARITY_MAX)
        return refuse(b, TKS_ERANGE, "%s: %zu arguments a run (1 to %d)", step, n, TKS_ARITY_MAX);
    if (b->f->arity && b->f->arity != n)
        return refuse(b, TKS_EINVAL, "%s gives runs of %zu argument(s) where the others have %zu",
                      step, n, b->f->arity);
    if (!b->f->arity && b->f->n_names && b->f->n_names != n)
        return refuse(b, TKS_EINVAL, "%s gives runs of %zu argument(s) where TKS_ARG_NAMES names %zu",
                      step, n, b->f->n_names);
    b->f->arity = n;
    return 0;
}

static int add_run(struct build *b, const long long *v, size_t n, const char *step)
{
    int rc = arity(b, n, step);
    if (rc == 0 && b->runs.n / n >= TKS_RUNS_MAX)
        rc = refuse(b, TKS_ERANGE, "more than %d runs", TKS_RUNS_MAX);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = push(&b->runs, v[i]);
    return rc;
}

/* Every combination of b->dims, the first varying fastest, as Google Benchmark's ArgsProduct. */
static int product(struct build *b, const char *step)
{
    size_t idx[TKS_ARITY_MAX] = {0}, total = 1;
    int rc = 0;
    if (b->n_dims == 0)
        return refuse(b, TKS_EINVAL, "%s without a list before it", step);
    for (size_t d = 0; d < b->n_dims; d++) {
        if (b->dims[d].n == 0)
            return refuse(b, TKS_EINVAL, "%s: list %zu is empty", step, d + 1);
        if (total > TKS_RUNS_MAX / b->dims[d].n + 1)
            return refuse(b, TKS_ERANGE, "%s makes more than %d runs", step, TKS_RUNS_MAX);
        total *= b->dims[d].n;
    }
    for (size_t i = 0; i < total && rc == 0; i++) {
        long long v[TKS_ARITY_MAX];
        size_t d = 0;
        for (size_t k = 0; k < b->n_dims; k++)
            v[k] = b->dims[k].v[idx[k]];
        rc = add_run(b, v, b->n_dims, step);
        do
            idx[d] = (idx[d] + 1) % b->dims[d].n;
        while (idx[d++] == 0 && d < b->n_dims);
    }
    for (size_t d = 0; d < b->n_dims; d++)
        b->dims[d].n = 0;
    b->n_dims = 0;
    return rc;
}

static struct list *new_dim(struct build *b, const char *step)
{
    if (b->n_dims == TKS_ARITY_MAX) {
        refuse(b, TKS_ERANGE, "%s: more than %d lists for one product", step, TKS_ARITY_MAX);
        return NULL;
    }
    return &b->dims[b->n_dims++];
}

static int names(struct build *b, const tks_args_step *s)
{
    if (s->n < 1 || s->n > TKS_ARITY_MAX)
        return refuse(b, TKS_ERANGE, "TKS_ARG_NAMES: %d names (1 to %d)", s->n, TKS_ARITY_MAX);
    if (b->f->arity && b->f->arity != (size_t)s->n)
        return refuse(b, TKS_EINVAL, "TKS_ARG_NAMES gives %d name(s) to runs of %zu argument(s)",
                      s->n, b->f->arity);
    memset(b->f->names, 0, sizeof b->f->names);
    for (int i = 0; i < s->n; i++)
        b->f->names[i] = s->names[i];
    b->f->n_names = (size_t)s->n;
    return 0;
}

static const char *const step_names[] = {
    "end", "TKS_ARGS", "TKS_RANGE", "TKS_RANGE_MULTIPLIER", "TKS_DENSE_RANGE", "TKS_RANGES",
    "TKS_LIST", "TKS_CREATE_RANGE", "TKS_CREATE_DENSE_RANGE", "TKS_ARGS_PRODUCT", "TKS_ARG_NAMES"};

static int one_step(struct build *b, const tks_args_step *s)
{
    const char *name = step_names[s->kind];
    struct list *l, one = {NULL, 0, 0};
    int rc = 0;
    if (s->n < 0 || s->n > TKS_STEP_VALUES)
        return refuse(b, TKS_ERANGE, "%s: %d values (at most %d)", name, s->n, TKS_STEP_VALUES);
    switch (s->kind) {
    case TKS_STEP_ARGS:
        return add_run(b, s->v, (size_t)s->n, name);
    case TKS_STEP_MULTIPLIER:
        if (s->n != 1 || s->v[0] < 2 || s->v[0] > INT_MAX)
            return refuse(b, TKS_EINVAL, "%s: the multiplier must be a whole number from 2 "
                          "(as Google Benchmark's)", name);
        b->mult = s->v[0];
        return 0;
    case TKS_STEP_RANGE:
    case TKS_STEP_DENSE:
        rc = s->kind == TKS_STEP_RANGE ? (s->n == 2 ? range(&one, s->v[0], s->v[1], b->mult)
                                                    : TKS_EINVAL)
                                       : dense(&one, s->v, s->n);
        for (size_t i = 0; i < one.n && rc == 0; i++)
            rc = add_run(b, &one.v[i], 1, name);
        free(one.v);
        if (rc == TKS_EINVAL && !b->why[0])
            return refuse(b, rc, "%s: the high end is below the low end, or a step below 1", name);
        return rc;
    case TKS_STEP_RANGES:
        if (s->n < 2 || s->n % 2)
            return refuse(b, TKS_EINVAL, "%s takes pairs (low, high), not %d values", name, s->n);
        for (int i = 0; i < s->n && rc == 0; i += 2)
            rc = (l = new_dim(b, name)) ? range(l, s->v[i], s->v[i + 1], b->mult) : TKS_ERANGE;
        if (rc == TKS_EINVAL)
            return refuse(b, rc, "%s: a range's high end is below its low end", name);
        return rc ? rc : product(b, name);
    case TKS_STEP_LIST:
    case TKS_STEP_LIST_RANGE:
    case TKS_STEP_LIST_DENSE:
        if (!(l = new_dim(b, name)))
            return TKS_ERANGE;
        if (s->kind == TKS_STEP_LIST)
            for (int i = 0; i < s->n && rc == 0; i++)
                rc = push(l, s->v[i]);
        else if (s->kind == TKS_STEP_LIST_RANGE)
            rc = s->n == 3 ? range(l, s->v[0], s->v[1], s->v[2]) : TKS_EINVAL;
        else
            rc = dense(l, s->v, s->n);
        if (rc == TKS_EINVAL)
            return refuse(b, rc, "%s: the high end is below the low end, a step below 1 or a "
                          "multiplier below 2", name);
        return rc;
    case TKS_STEP_PRODUCT:
        return product(b, name);
    case TKS_STEP_NAMES:
        return names(b, s);
    default:
        return refuse(b, TKS_EINVAL, "an unknown step (kind %d)", s->kind);
    }
}

int tks__args_expand(const tks_args_step *steps, size_t n, tks__family *f, char *why,
                     size_t whylen)
{
    struct build b;
    int rc = 0;
    memset(&b, 0, sizeof b);
    b.f = f;
    b.mult = 8; /* Google Benchmark's kRangeMultiplier */
    b.why = why;
    b.whylen = whylen;
    why[0] = 0;
    for (size_t i = 0; i < n && rc == 0 && steps[i].kind != TKS_STEP_END; i++) {
        if (steps[i].kind < 0 || steps[i].kind > TKS_STEP_NAMES)
            rc = refuse(&b, TKS_EINVAL, "an unknown step (kind %d)", steps[i].kind);
        else
            rc = one_step(&b, &steps[i]);
    }
    if (rc == 0 && b.n_dims)
        rc = refuse(&b, TKS_EINVAL, "%s outside TKS_ARGS_PRODUCT", "a TKS_LIST or TKS_CREATE_*");
    if (rc == 0 && f->n_names && f->arity != f->n_names)
        rc = refuse(&b, TKS_EINVAL, "TKS_ARG_NAMES gives %zu name(s) to runs of %zu argument(s)",
                    f->n_names, f->arity);
    if (rc == TKS_ENOMEM && !why[0])
        refuse(&b, rc, "out of memory");
    if (rc == TKS_ERANGE && !why[0])
        refuse(&b, rc, "more than %d runs", TKS_RUNS_MAX);
    for (size_t d = 0; d < TKS_ARITY_MAX; d++)
        free(b.dims[d].v);
    if (rc) {
        free(b.runs.v);
        return rc;
    }
    f->values = b.runs.v;
    f->runs = f->arity ? b.runs.n / f->arity : 1;
    return 0;
}
