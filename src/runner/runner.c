/* SPDX-License-Identifier: MIT */
/* runner.c: one run of one benchmark: place the thread, let the body drive the state through
 * TKS_MEASURE, then turn the kept windows into estimates and warnings a user can act on. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/events_run.h"
#include "runner/figures.h"
#include "runner/registry.h"
#include "runner/runner.h"
#include "runner/state.h"
#include "sample/add_check.h"
#include "base/diag.h"
#include "base/now.h"

/* A change of the core clock within one run worth saying: a few percent is what a guest sees
 * when its host changes turbo state (issue figures: 1.28 to 1.36 cycles per tick). */
#define CORE_DRIFT_WARN 0.03
/* A headline whose core cycles over its ticks depart this far from the run's rate: its windows
 * were brought to rates that moved more than a drift of the clock explains (issue 30: sys rows
 * of one loaded run implied 0.76 to 1.47 core cycles per tick where the machine ran at 1.42). */
#define RATE_MIXED_WARN 0.05

void tks_result_free(tks_result *r)
{
    if (!r)
        return;
    free(r->real);
    free(r->empty);
    free(r->k);
    tks_diags_free(&r->diags);
    r->real = r->empty = NULL;
    r->k = NULL;
    r->n_samples = 0;
}

tks_result *tks_result_new(void)
{
    return calloc(1, sizeof(tks_result));
}

void tks_result_delete(tks_result *r)
{
    tks_result_free(r);
    free(r);
}

int tks_result_layout(void)
{
    return TKS_RESULT_LAYOUT;
}

static int failed(tks_result *r, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->ok = 0;
    return rc;
}

/* Too small to see, said only when the data say so: zero when the interval holds zero (or lies
 * below it); in throughput mode, the repetition loop's own cost when the estimate is within its
 * uncertainty of the loop's cost measured in the same run (plus 2%: the loop's cost moves with
 * its alignment). A result whose interval excludes both is a result, however small: one
 * dependent add reads 1.0 cycle in either mode. Nonzero when it warned. */
/* What a fit over whole tick counts leaves where nothing grew with k: a removed loop's slope
 * and interval read -0.000 (clang: -1e-12 or so), which is zero, not negative. */
#define ZERO_RESIDUE 1e-6

static int warn_small(tks_result *r, double cycles_per_tick)
{
    const tks_interval *e = &r->estimate, *f = &r->loop_floor;
    int thr = r->mode == TKS_MODE_THROUGHPUT;
    if (e->hi < -ZERO_RESIDUE && !thr && isfinite(r->harness_gap.value) && r->mean.lo > 0) {
        tks__diag(&r->diags, TKS_DIAG_BENCH_BELOW_GAP, TKS__DN(r->mean.value),
                  TKS__DN(r->harness_gap.value));
        return 1;
    }
    if (e->hi < -ZERO_RESIDUE) {
        tks__diag(&r->diags, TKS_DIAG_BENCH_NEGATIVE, TKS__DS(thr ? "throughput" : "latency"),
                  TKS__DN(e->value), TKS__DN(e->lo), TKS__DN(e->hi));
        return 1;
    }
    if (e->lo <= ZERO_RESIDUE) {
        tks__diag(&r->diags, thr ? TKS_DIAG_BENCH_ZERO_THROUGHPUT : TKS_DIAG_BENCH_ZERO_LATENCY,
                  TKS__DN(e->value), TKS__DN(e->lo), TKS__DN(e->hi));
        return 1;
    }
    /* A latency under one core cycle is no dependent instruction's: the block's own correction
     * (twice less once) of an empty or removed block reads a fraction of a tick, the code around
     * its two windows differing, with an interval that may exclude zero. */
    if (!thr && cycles_per_tick > 0 && e->hi * cycles_per_tick < 1) {
        tks__diag(&r->diags, TKS_DIAG_BENCH_UNDER_CYCLE, TKS__DN(e->value * cycles_per_tick),
                  TKS__DN(e->lo * cycles_per_tick), TKS__DN(e->hi * cycles_per_tick));
        return 1;
    }
    if (thr && isfinite(f->value)) {
        double hf = (f->hi - f->lo) / 2, he = (e->hi - e->lo) / 2;
        if (e->value > f->value + sqrt(hf * hf + he * he) + 0.02 * f->value)
            return 0;
        tks__diag(&r->diags, TKS_DIAG_BENCH_LOOP_FLOOR, TKS__DN(f->value),
                  TKS__DN(cycles_per_tick > 0 ? f->value * cycles_per_tick : NAN));
        return 1;
    }
    return 0;
}

/* A small block whose one fenced execution and whose cost in a stream disagree: the latency
 * figure is then not the block's cost. */
static void warn_modes(tks_result *r, int agree, double cpt)
{
    const tks_interval *l = &r->latency_window, *t = &r->throughput_alongside;
    double u = cpt > 0 ? cpt : 1;
    if (agree != 0)
        return;
    tks__diag(&r->diags,
              l->value > t->value ? TKS_DIAG_BENCH_MODES_OVERLAP : TKS_DIAG_BENCH_MODES_REPEATED,
              TKS__DS(cpt > 0 ? "core cycles" : "ticks"), TKS__DN(l->value * u),
              TKS__DN(t->value * u));
}

static void warnings(tks_result *r, const struct tks_state *st, int optimized,
                     double cycles_per_tick, int modes)
{
    const tks_interval *e = &r->estimate;
    double half = (e->hi - e->lo) / 2;
    uint64_t discarded = r->discarded_migrated + r->discarded_negative;

    if (optimized == 0)
        tks__diag0(&r->diags, TKS_DIAG_BENCH_UNOPTIMISED);
    if (r->mode == TKS_MODE_LATENCY)
        warn_modes(r, modes, cycles_per_tick);
    if (r->mode == TKS_MODE_LATENCY && r->gap_source == TKS_GAP_NONE && isfinite(e->value))
        tks__diag0(&r->diags, TKS_DIAG_BENCH_HARNESS_KEPT);
    if (!warn_small(r, cycles_per_tick) && half > 0.05 * fabs(e->value))
        tks__diag(&r->diags, TKS_DIAG_BENCH_INTERVAL_WIDE, TKS__DN(100 * half / fabs(e->value)));
    if (discarded * 100 > r->windows + discarded)
        tks__diag(&r->diags, TKS_DIAG_BENCH_DISCARDED,
                  TKS__DN(100.0 * (double)discarded / (double)(r->windows + discarded)),
                  TKS__DN(r->discarded_migrated), TKS__DN(r->discarded_negative));
    if (st->mode == TKS_MODE_LATENCY && r->windows < 100)
        tks__diag(&r->diags, TKS_DIAG_BENCH_FEW_WINDOWS, TKS__DN(r->windows));
    /* The drift monitor: the core clock's rate at the start and at the end of the run. */
    if (r->core_source == TKS_CORE_INTERLEAVED && r->cycles_per_tick_start > 0 &&
        fabs(r->cycles_per_tick_end / r->cycles_per_tick_start - 1) > CORE_DRIFT_WARN)
        tks__diag(&r->diags, TKS_DIAG_BENCH_CORE_DRIFT,
                  TKS__DN(100 * (r->cycles_per_tick_end / r->cycles_per_tick_start - 1)),
                  TKS__DN(r->cycles_per_tick_start), TKS__DN(r->cycles_per_tick_end));
}

/* Which rate the core cycles were converted at, when it is not one rate of this run: the
 * boot's calibrated figure (no reference could be fitted), or rates that moved so much that
 * the figure implies another rate than the run's (each window is converted at the rate measured
 * around it). Nothing when the figure is too close to zero for a ratio to mean anything. */
static void rate_diags(tks_result *r)
{
    const tks_interval *e = &r->estimate, *c = &r->core_cycles;
    double implied;
    if (r->core_source == TKS_CORE_CALIBRATED && r->cycles_per_tick > 0) {
        tks__diag(&r->diags, TKS_DIAG_BENCH_RATE_CALIBRATED, TKS__DN(r->cycles_per_tick));
        return;
    }
    if (r->core_source != TKS_CORE_INTERLEAVED || !(r->cycles_per_tick > 0) || !(e->lo > 0) ||
        !isfinite(c->value))
        return;
    implied = c->value / e->value;
    if (fabs(implied / r->cycles_per_tick - 1) > RATE_MIXED_WARN)
        tks__diag(&r->diags, TKS_DIAG_BENCH_RATE_MIXED, TKS__DN(implied),
                  TKS__DN(r->cycles_per_tick));
}

void tks__result_name(tks_result *r, const tks_benchmark_spec *spec, const tks_args *args)
{
    size_t n = args && args->n <= TKS_ARITY_MAX ? args->n : 0;
    r->family = spec->name;
    r->n_args = n;
    for (size_t i = 0; i < n; i++)
        r->args[i] = args->v[i];
    r->has_arg = n > 0;
    r->arg = n ? args->v[0] : 0;
    tks__args_name(r->name, sizeof r->name, spec->name, n ? args : NULL);
}

static void init_state(struct tks_state *st, const tks_options *o, const tks_platform *p,
                       const tks_result *r, const tks_args *args)
{
    tks__state_init(st);
    st->name = r->name;
    st->arg = r->arg;
    if (r->n_args)
        st->args = *args;
    st->method = r->method;
    st->mode = r->mode;
    st->min_time = o->min_time > 0 ? o->min_time : 0.2;
    st->fixed_windows = o->windows;
    st->quantum = p && p->quantum.quantum ? p->quantum.quantum : 1;
    st->tsc_hz = p ? p->tsc_hz : 0;
    st->check_aux = tks_cpu_features_get()->rdtscp;
    st->warmup_time = o->min_warmup_time;
    st->dry_run = o->dry_run;
}

/* Pin and raise the thread as asked; a refusal is a warning, not a failure. */
static void place(struct tks_state *st, struct tks__placement *pl, const tks_options *o,
                  tks_result *r)
{
    int e;
    memset(pl, 0, sizeof *pl);
    if (o->pin_cpu >= 0 && (e = tks__placement_pin(pl, o->pin_cpu)) != 0)
        tks__diag(&r->diags, TKS_DIAG_BENCH_PIN_REFUSED, TKS__DN(o->pin_cpu), TKS__DN(e));
    if (o->fifo) {
        if ((e = tks__placement_fifo(pl)) != 0)
            tks__diag(&r->diags, TKS_DIAG_BENCH_FIFO_REFUSED, TKS__DN(e));
        tks__pacing_init(&st->pacing, NULL, pl->fifo);
    }
}

int tks_run_benchmark(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *spec,
                      long long arg, tks_result *r)
{
    tks_args a;
    memset(&a, 0, sizeof a);
    a.n = spec && spec->args ? 1 : 0;
    a.v[0] = arg;
    return tks_run_benchmark_args(o, p, spec, &a, r);
}

int tks_run_benchmark_args(const tks_options *o, const tks_platform *p,
                           const tks_benchmark_spec *spec, const tks_args *args, tks_result *r)
{
    return tks__run_benchmark_perturbed(o, p, spec, args, 0, 0, NULL, r);
}

int tks__run_benchmark_perturbed(const tks_options *o, const tks_platform *p,
                                 const tks_benchmark_spec *spec, const tks_args *args,
                                 int perturb, uint32_t units, tks__touched *touched,
                                 tks_result *r)
{
    struct tks_state st;
    struct tks__placement pl;
    double t0;
    int rc, modes;

    if (!r)
        return TKS_EINVAL;
    memset(r, 0, sizeof *r);
    r->add_check = (tks_add_check){TKS_ADD_CHECK_NONE, NAN, NAN, 1, 0};
    if (!o || !spec || !spec->fn || !spec->name)
        return failed(r, TKS_EINVAL, "no options or no benchmark");
    tks__result_name(r, spec, args);
    r->mode = o->mode;
    r->optimized = spec->optimized;
    r->method = o->method >= 0 ? (enum tks_method)o->method : tks_method_default(tks_cpu_features_get());
    if ((unsigned)r->method >= TKS_METHOD_COUNT ||
        !tks_method_available(r->method, tks_cpu_features_get()) || !tks_method_user(r->method))
        return failed(r, TKS_EUNAVAIL, "method %s is not available on this CPU in user space",
                      (unsigned)r->method < TKS_METHOD_COUNT ? tks_method_info(r->method)->name
                                                             : "?");
    if (o->mode != TKS_MODE_LATENCY && o->mode != TKS_MODE_THROUGHPUT)
        return failed(r, TKS_EINVAL, "unknown mode");

    init_state(&st, o, p, r, args);
    st.perturb = o->mode == TKS_MODE_THROUGHPUT ? perturb : 0;
    st.perturb_n = units;
    st.touched = touched;
    r->quantum = st.quantum;
    { /* event counters (--counters) */
        char why[160] = "out of memory";
        if ((rc = tks__run_events_open(&st, o, why, sizeof why)) != 0)
            return failed(r, rc, "event counters: %s", why);
    }
    place(&st, &pl, o, r);
    t0 = tks__now_s();
    spec->fn(&st);
    r->seconds = tks__now_s() - t0;
    tks__placement_restore(&pl);
    tks__run_events_finish(&st, r); /* event counters: figures and refusals */

    r->discarded_migrated = st.migrated;
    r->discarded_negative = st.negative;
    r->warmup = st.warmup;
    r->windows = st.n;
    for (size_t i = 0; i < st.n; i++)
        r->executions += st.k[i];
    r->n_ks = st.nk;
    memcpy(r->ks, st.ks, sizeof r->ks);

    if (st.skipped) {
        r->skipped = 1;
        rc = failed(r, TKS_EINVAL, "skipped: %s", st.reason);
    } else if (!st.entered) {
        rc = failed(r, TKS_EINVAL, "the body never reached TKS_MEASURE");
    } else if (st.error) {
        rc = failed(r, st.error, "%s", st.reason);
    } else if (touched && touched->rc) {
        rc = failed(r, touched->rc, "its working set: %s", touched->why);
    } else if (o->dry_run || touched) { /* no figures to make: the body ran once, or a touch run */
        tks_interval none = {NAN, NAN, NAN};
        r->estimate = r->ns = r->core_cycles = r->mean = r->median = r->min = none;
        r->executions = 1;
        r->ok = 1;
        rc = 0;
    } else if ((rc = tks__bench_figures(r, &st, p ? tks_core_cycles_per_tick(p) : 0, &modes)) != 0) {
        rc = failed(r, rc, "too few windows to estimate from (%zu kept): %s", st.n,
                    tks_strerror(rc));
    } else {
        r->ok = 1;
        /* the figures fell back on the platform's rate already; NaN when there is none */
        warnings(r, &st, spec->optimized, r->cycles_per_tick, modes);
        rate_diags(r);
        tks__add_check_diags(&r->diags, &st.check);
        tks__add_check_public(&st.check, &r->add_check);
    }
    tks__work_counters_figures(r, &st); /* issue 26: the counters with the run's figures */
    /* The windows go with the result, for --raw, --histogram and --plot. */
    r->real = st.real;
    r->empty = st.empty;
    r->k = st.k;
    r->n_samples = st.n;
    st.real = st.empty = NULL;
    st.k = NULL;
    tks__state_release(&st);
    return rc;
}
