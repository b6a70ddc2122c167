/* SPDX-License-Identifier: MIT */
/* analyse.c: a run's kept windows turned into its result (analyse.h): figures, then the
 * warnings a user can act on, the add check's verdict and the work counters. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/analyse.h"
#include "runner/figures.h"
#include "base/diag.h"
#include "sample/add_check.h"

/* A change of the core clock within one run worth saying: a few percent is what a guest sees
 * when its host changes turbo state (issue figures: 1.28 to 1.36 cycles per tick). */
#define CORE_DRIFT_WARN 0.03
/* A headline whose core cycles over its ticks depart this far from the run's rate: its windows
 * were brought to rates that moved more than a drift of the clock explains (issue 30: sys rows
 * of one loaded run implied 0.76 to 1.47 core cycles per tick where the machine ran at 1.42). */
#define RATE_MIXED_WARN 0.05

int tks__run_failed(tks_result *r, int rc, const char *fmt, ...)
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

int tks__run_analyse(tks_result *r, struct tks_state *st, const tks__analyse_in *in)
{
    const tks__touched *touched = in->touched;
    int rc, modes;
    r->discarded_migrated = st->migrated;
    r->discarded_negative = st->negative;
    r->warmup = st->warmup;
    r->windows = st->n;
    for (size_t i = 0; i < st->n; i++)
        r->executions += st->k[i];
    r->n_ks = st->nk;
    memcpy(r->ks, st->ks, sizeof r->ks);

    if (st->skipped) {
        r->skipped = 1;
        rc = tks__run_failed(r, TKS_EINVAL, "skipped: %s", st->reason);
    } else if (!st->entered) {
        rc = tks__run_failed(r, TKS_EINVAL, "the body never reached TKS_MEASURE");
    } else if (st->error) {
        rc = tks__run_failed(r, st->error, "%s", st->reason);
    } else if (touched && touched->rc) {
        rc = tks__run_failed(r, touched->rc, "its working set: %s", touched->why);
    } else if (in->dry_run || touched) { /* no figures to make: the body ran once, or a touch run */
        tks_interval none = {NAN, NAN, NAN};
        r->estimate = r->ns = r->core_cycles = r->mean = r->median = r->min = none;
        r->executions = 1;
        r->ok = 1;
        rc = 0;
    } else if ((rc = tks__bench_figures(r, st, in->calibrated, &modes)) != 0) {
        rc = tks__run_failed(r, rc, "too few windows to estimate from (%zu kept): %s", st->n,
                    tks_strerror(rc));
    } else {
        r->ok = 1;
        /* the figures fell back on the platform's rate already; NaN when there is none */
        warnings(r, st, in->optimized, r->cycles_per_tick, modes);
        rate_diags(r);
        tks__add_check_diags(&r->diags, &st->check);
        tks__add_check_public(&st->check, &r->add_check);
    }
    tks__work_counters_figures(r, st); /* issue 26: the counters with the run's figures */
    /* The windows go with the result, for --raw, --histogram and --plot. */
    r->real = st->real;
    r->empty = st->empty;
    r->k = st->k;
    r->n_samples = st->n;
    st->real = st->empty = NULL;
    st->k = NULL;
    tks__state_release(st);
    return rc;
}
