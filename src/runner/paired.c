/* SPDX-License-Identifier: MIT */
/* paired.c: two benchmarks measured in turns (tks_paired_run). Each block is A B B A or B A A B
 * at random: a drift that is linear over a block cancels, and neither benchmark always runs
 * first. The blocks' log ratios are the paired differences whose t interval becomes the
 * interval of B/A; the estimate each run gives is the runner's headline (the phase-averaged mean
 * in latency mode), never the minimum. */
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "base/diag.h"
#include "base/now.h"
#include "runner/runner.h"
#include "stats/rank_tests.h"
#include "tickscope/paired.h"

#define UNITS 3 /* ticks, core cycles, ns */
#define RUN_TIME_MIN 0.002

void tks_paired_options_init(tks_paired_options *po)
{
    if (!po)
        return;
    memset(po, 0, sizeof *po);
    po->blocks = 16;
    po->threshold = 0.01;
}

const char *tks_verdict_name(enum tks_verdict v)
{
    static const char *const names[] = {"indistinguishable", "slower", "faster", "inconclusive"};
    return (unsigned)v < 4 ? names[v] : "?";
}

void tks_paired_result_free(tks_paired_result *r)
{
    if (r)
        tks_diags_free(&r->diags);
}

/* A figure of a run (value, and per core cycle) added to its side's sums in c[0..*n) (side 0:
 * A, 1: B). */
static void add_one(tks_paired_counter *c, size_t *n, size_t max, const char *name, double value,
                    double per_cycle, int side)
{
    tks_paired_counter *w;
    size_t k;
    for (k = 0; k < *n && strcmp(c[k].name, name); k++)
        ;
    if (k == max || !isfinite(value))
        return;
    w = &c[k];
    if (k == *n) {
        (*n)++;
        memset(w, 0, sizeof *w);
        snprintf(w->name, sizeof w->name, "%s", name);
    }
    *(side ? &w->b : &w->a) += value;
    (*(side ? &w->b_runs : &w->a_runs))++;
    if (isfinite(per_cycle)) {
        *(side ? &w->b_per_cycle : &w->a_per_cycle) += per_cycle;
        (*(side ? &w->b_cycle_runs : &w->a_cycle_runs))++;
    }
}

/* issue 26: a run's work counters and counted events added to its side's sums. */
static void add_counters(tks_paired_result *r, const tks_result *res, int side)
{
    for (size_t i = 0; i < res->n_work_counters && i < TKS_WORK_COUNTERS_MAX; i++)
        add_one(r->counters, &r->n_counters, TKS_WORK_COUNTERS_MAX, res->work_counters[i].name,
                res->work_counters[i].figure.value, res->work_counters[i].per_cycle.value, side);
    for (size_t i = 0; i < res->n_events && i < TKS_EVENTS_MAX; i++)
        if (res->events[i].counted)
            add_one(r->events, &r->n_events, TKS_EVENTS_MAX, res->events[i].name,
                    res->events[i].per_iteration.value, NAN, side);
}

/* The sums into means; the counters only one side set are dropped. */
static void mean_of(tks_paired_counter *c, size_t *n)
{
    size_t m = 0;
    for (size_t k = 0; k < *n; k++) {
        tks_paired_counter w = c[k];
        if (!w.a_runs || !w.b_runs)
            continue;
        w.a /= (double)w.a_runs;
        w.b /= (double)w.b_runs;
        w.a_per_cycle = w.a_cycle_runs ? w.a_per_cycle / (double)w.a_cycle_runs : NAN;
        w.b_per_cycle = w.b_cycle_runs ? w.b_per_cycle / (double)w.b_cycle_runs : NAN;
        c[m++] = w;
    }
    *n = m;
}

static void mean_counters(tks_paired_result *r)
{
    mean_of(r->counters, &r->n_counters);
    mean_of(r->events, &r->n_events);
}

/* One run of one benchmark: its headline per execution in each unit (NaN where missing); its
 * work counters added to side's (side < 0: a run not kept). */
static int one_run(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *spec,
                   const tks_args *arg, double fig[UNITS], tks_paired_result *r, int side)
{
    tks_result res;
    int rc = tks_run_benchmark_args(o, p, spec, arg, &res);
    if (rc == 0 && !res.ok)
        rc = TKS_EINVAL;
    if (rc) {
        snprintf(r->error, sizeof r->error, "%s: %s", res.name[0] ? res.name : spec->name,
                 res.error[0] ? res.error : tks_strerror(rc));
    } else {
        fig[0] = res.estimate.value;
        fig[1] = res.core_source != TKS_CORE_NONE ? res.core_cycles.value : NAN;
        fig[2] = p && p->tsc_hz > 0 ? tks_ticks_to_ns(p, res.estimate.value) : NAN;
        if (side >= 0)
            add_counters(r, &res, side);
    }
    tks_result_free(&res);
    return rc;
}

/* exp of the mean log ratio and its t interval; NaN when a block had no positive figures. */
static tks_interval ratio_of(const double *d, size_t n)
{
    tks_interval v = {NAN, NAN, NAN};
    double m, h;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(d[i]))
            return v;
    tks__paired_t(d, n, &m, &h);
    v.value = exp(m);
    v.lo = exp(m - h);
    v.hi = exp(m + h);
    return v;
}

static enum tks_verdict verdict_of(const tks_interval *ratio, double threshold)
{
    switch (tks__verdict_of(ratio->value - 1, ratio->lo - 1, ratio->hi - 1, threshold)) {
    case TKS__SAME: return TKS_VERDICT_INDISTINGUISHABLE;
    case TKS__SLOWER: return TKS_VERDICT_SLOWER;
    case TKS__FASTER: return TKS_VERDICT_FASTER;
    default: return TKS_VERDICT_INCONCLUSIVE;
    }
}

/* The blocks themselves: d[u * blocks + k] the log ratio of block k in unit u; sums of each
 * benchmark's figures in sum_a, sum_b. */
static int measure(const tks_options *oo, const tks_platform *p, unsigned blocks, uint64_t seed,
                   const tks_benchmark_spec *a, const tks_args *arg_a, const tks_benchmark_spec *b,
                   const tks_args *arg_b, double *d, double *sum_a, double *sum_b, tks_paired_result *r)
{
    double warm[UNITS];
    int rc;
    /* one run of each, not kept: the first run of a body pays for its page faults and cold
     * caches, and would weigh on whichever block came first */
    if ((rc = one_run(oo, p, a, arg_a, warm, r, -1)) != 0 ||
        (rc = one_run(oo, p, b, arg_b, warm, r, -1)) != 0)
        return rc;
    for (unsigned k = 0; k < blocks; k++) {
        int b_first = (int)(tks__rand_next(&seed) & 1);
        double fa[UNITS] = {0, 0, 0}, fb[UNITS] = {0, 0, 0};
        for (int slot = 0; slot < 4; slot++) {
            /* A B B A, or B A A B */
            int is_b = (slot == 0 || slot == 3) ? b_first : !b_first;
            double f[UNITS];
            if ((rc = is_b ? one_run(oo, p, b, arg_b, f, r, 1) : one_run(oo, p, a, arg_a, f, r, 0)) != 0)
                return rc;
            for (int u = 0; u < UNITS; u++)
                (is_b ? fb : fa)[u] += f[u] / 2;
        }
        for (int u = 0; u < UNITS; u++) {
            d[u * blocks + k] = fa[u] > 0 && fb[u] > 0 ? log(fb[u] / fa[u]) : NAN;
            sum_a[u] += fa[u];
            sum_b[u] += fb[u];
        }
    }
    return 0;
}

int tks_paired_run(const tks_options *o, const tks_platform *p, const tks_paired_options *po,
                   const tks_benchmark_spec *a, long long arg_a, const tks_benchmark_spec *b,
                   long long arg_b, tks_paired_result *r)
{
    tks_args x, y;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.n = a && a->args ? 1 : 0;
    x.v[0] = arg_a;
    y.n = b && b->args ? 1 : 0;
    y.v[0] = arg_b;
    return tks__paired_run_args(o, p, po, a, &x, b, &y, r);
}

int tks__paired_run_args(const tks_options *o, const tks_platform *p,
                         const tks_paired_options *po, const tks_benchmark_spec *a,
                         const tks_args *arg_a, const tks_benchmark_spec *b,
                         const tks_args *arg_b, tks_paired_result *r)
{
    tks_result named;
    tks_paired_options def;
    tks_options oo;
    double *d, sum_a[UNITS] = {0, 0, 0}, sum_b[UNITS] = {0, 0, 0}, t0 = tks__now_s();
    unsigned blocks;
    uint64_t seed;
    int rc;
    if (!r)
        return TKS_EINVAL;
    memset(r, 0, sizeof *r);
    r->cpu = -1;
    if (!po) {
        tks_paired_options_init(&def);
        po = &def;
    }
    if (!o || !a || !b || !a->name || !b->name || !a->fn || !b->fn || po->blocks < 2 ||
        po->blocks > 1000 || !(po->threshold >= 0) || po->run_time < 0) {
        snprintf(r->error, sizeof r->error, "no options or benchmarks, or blocks not in 2..1000");
        return TKS_EINVAL;
    }
    blocks = po->blocks;
    tks__result_name(&named, a, arg_a);
    snprintf(r->a, sizeof r->a, "%s", named.name);
    tks__result_name(&named, b, arg_b);
    snprintf(r->b, sizeof r->b, "%s", named.name);
    r->threshold = po->threshold;
    if (!strcmp(r->a, r->b))
        tks__diag(&r->diags, TKS_DIAG_PAIRED_SELF, TKS__DS(r->a));
    oo = *o;
    oo.isolate = 0;
    oo.min_time = po->run_time > 0 ? po->run_time : fmax(RUN_TIME_MIN, o->min_time / (2.0 * blocks));
    /* the same CPU for every run: the caller's, unless told */
    if (oo.pin_cpu < 0)
        oo.pin_cpu = sched_getcpu();
    r->cpu = oo.pin_cpu;
    seed = po->seed ? po->seed : (uint64_t)(tks__now_s() * 1e9);
    if (!(d = malloc(UNITS * blocks * sizeof *d)))
        return TKS_ENOMEM;
    rc = measure(&oo, p, blocks, seed, a, arg_a, b, arg_b, d, sum_a, sum_b, r);
    if (rc == 0) {
        mean_counters(r);
        r->blocks = blocks;
        r->ratio_ticks = ratio_of(d, blocks);
        r->ratio_core = ratio_of(d + blocks, blocks);
        r->ratio_ns = ratio_of(d + 2 * blocks, blocks);
        r->a_ticks = sum_a[0] / blocks, r->b_ticks = sum_b[0] / blocks;
        r->a_core = sum_a[1] / blocks, r->b_core = sum_b[1] / blocks;
        r->a_ns = sum_a[2] / blocks, r->b_ns = sum_b[2] / blocks;
        r->verdict_core = isfinite(r->ratio_core.lo);
        r->verdict = verdict_of(r->verdict_core ? &r->ratio_core : &r->ratio_ticks, po->threshold);
        if (!isfinite(r->ratio_ticks.value)) {
            snprintf(r->error, sizeof r->error, "%s or %s measured at or below zero ticks in a "
                     "block (%.3g and %.3g on average): a ratio needs two positive costs", r->a,
                     r->b, r->a_ticks, r->b_ticks);
            rc = TKS_EINVAL;
        }
    }
    free(d);
    r->seconds = tks__now_s() - t0;
    return rc;
}
