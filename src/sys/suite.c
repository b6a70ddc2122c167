/* SPDX-License-Identifier: MIT */
/* suite.c: `tickscope sys` as a library call: one suite's operations, each run through the
 * benchmark runner (tks_run_benchmark: empty window subtracted, interval, core cycles from the
 * reference chain it interleaves), turned into rows a report can print. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/now.h"
#include "sys/sys_internal.h"

/* Seconds of sampling per operation: the default keeps all three suites under two minutes here,
 * --quick under twenty seconds (about 100 operations, each with its pilot and reference). */
#define SYS_MIN_TIME 0.35
#define SYS_MIN_TIME_QUICK 0.06
/* A row whose interval comes out wider than this (half-width over the estimate) is measured
 * once more for SYS_AGAIN times as long: a figure under the timer's quantum (a call, a branch
 * miss) needs more windows than the time the others get. Rows already given that much longer
 * (fork, spawn, bandwidth: time_factor) are not: on a busy machine that doubled the run. */
#define SYS_WIDE 0.04
#define SYS_AGAIN 4

static const char *const suite_names[TKS_SYS_SUITE_COUNT] = {"cpu", "os", "mem"};

const char *tks_sys_suite_name(enum tks_sys_suite s)
{
    return (unsigned)s < TKS_SYS_SUITE_COUNT ? suite_names[s] : NULL;
}

int tks_sys_suite_from_name(const char *name)
{
    for (int s = 0; name && s < TKS_SYS_SUITE_COUNT; s++)
        if (!strcmp(name, suite_names[s]))
            return s;
    return -1;
}

static const char *const *suite_ids(enum tks_sys_suite s)
{
    switch (s) {
    case TKS_SYS_CPU: return tks__sys_cpu_ids;
    case TKS_SYS_OS: return tks__sys_os_ids;
    case TKS_SYS_MEM: return tks__sys_mem_ids;
    default: return NULL;
    }
}

size_t tks_sys_operations(enum tks_sys_suite s, const char *const **ids)
{
    const char *const *v = suite_ids(s);
    size_t n = 0;
    if (ids)
        *ids = v;
    while (v && v[n])
        n++;
    return n;
}

void tks_sys_options_init(tks_sys_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = -1;
    o->huge_pages = 1;
}

void tks__sys_bench_options(const struct tks__sys_run *run, enum tks_mode mode, tks_options *bo)
{
    tks_options_init(bo);
    bo->method = run->o->method;
    bo->mode = mode;
    bo->min_time = run->o->min_time > 0 ? run->o->min_time
                   : run->o->quick      ? SYS_MIN_TIME_QUICK
                                        : SYS_MIN_TIME;
    if (run->time_factor > 0)
        bo->min_time *= run->time_factor;
    bo->quiet = 1;
    bo->tsc_hz = run->p ? run->p->tsc_hz : 0;
}

int tks__sys_wanted(const struct tks__sys_run *run, const char *id)
{
    const char *const *w = run->o->only;
    if (!w)
        return 1;
    for (; *w; w++)
        if (!strcmp(*w, id))
            return 1;
    return 0;
}

static void nan_interval(tks_interval *v) { v->value = v->lo = v->hi = NAN; }

static void emit_rows(struct tks__sys_run *run);
static int id_known(const char *id);

tks_sys_op *tks__sys_row(struct tks__sys_run *run, const char *id, const char *what)
{
    tks_sys_result *r = run->r;
    tks_sys_op *op;
    emit_rows(run); /* the rows before this one are final */
    if (r->n_ops == run->cap) {
        size_t cap = run->cap ? run->cap * 2 : 32;
        tks_sys_op *v = realloc(r->ops, cap * sizeof *v);
        if (!v)
            return NULL;
        r->ops = v;
        run->cap = cap;
    }
    op = &r->ops[r->n_ops++];
    memset(op, 0, sizeof *op);
    snprintf(op->id, sizeof op->id, "%s", id);
    snprintf(op->what, sizeof op->what, "%s", what);
    nan_interval(&op->ticks);
    nan_interval(&op->cycles);
    nan_interval(&op->ns);
    op->per_op_divisor = 1;
    op->all_windows_ns = op->same_cpu_share = NAN;
    return op;
}

tks_sys_op *tks__sys_find(const struct tks__sys_run *run, const char *id)
{
    for (size_t i = 0; i < run->r->n_ops; i++)
        if (!strcmp(run->r->ops[i].id, id))
            return &run->r->ops[i];
    return NULL;
}

static void scale(tks_interval *v, double k)
{
    v->value *= k;
    v->lo *= k;
    v->hi *= k;
    if (v->lo > v->hi) {
        double t = v->lo;
        v->lo = v->hi;
        v->hi = t;
    }
}

void tks__sys_units(const struct tks__sys_run *run, tks_sys_op *op, double cycles_per_tick)
{
    double ns_per_tick = run->p && run->p->tsc_hz > 0 ? 1e9 / run->p->tsc_hz : NAN;
    op->ns = op->ticks;
    scale(&op->ns, ns_per_tick);
    if (cycles_per_tick > 0 && isnan(op->cycles.value)) {
        op->cycles = op->ticks;
        scale(&op->cycles, cycles_per_tick);
    }
    if (op->bytes > 0 && op->ns.value > 0)
        op->gb_per_s = op->bytes / op->ns.value;
}

/* The runner's diagnostics name tks_main's options and advise a mode; a sys row has sys's own
 * options (--time, no --pin: the suites place themselves, no --mode: each row's mode is its
 * note's), so those become sys's own codes, with the same values. The rest stand as they are. */
static void sys_diags(tks_diags *to, const tks_diags *from)
{
    static const struct {
        enum tks_diag_code bench, sys;
    } map[] = {
        {TKS_DIAG_BENCH_INTERVAL_WIDE, TKS_DIAG_SYS_INTERVAL_WIDE},
        {TKS_DIAG_BENCH_DISCARDED, TKS_DIAG_SYS_DISCARDED},
        {TKS_DIAG_BENCH_FEW_WINDOWS, TKS_DIAG_SYS_FEW_WINDOWS},
        {TKS_DIAG_BENCH_MODES_OVERLAP, TKS_DIAG_SYS_MODES_DISAGREE},
        {TKS_DIAG_BENCH_MODES_REPEATED, TKS_DIAG_SYS_MODES_DISAGREE},
        {TKS_DIAG_BENCH_BELOW_GAP, TKS_DIAG_SYS_BELOW_GAP},
        {TKS_DIAG_BENCH_ZERO_LATENCY, TKS_DIAG_SYS_ZERO},
        {TKS_DIAG_BENCH_ZERO_THROUGHPUT, TKS_DIAG_SYS_ZERO},
    };
    for (size_t i = 0; i < from->n; i++) {
        const tks_diag *d = &from->items[i];
        enum tks_diag_code code = d->code;
        for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
            if (map[k].bench == code)
                code = map[k].sys;
        tks__diag_add(to, code, d->values, d->n_values);
    }
}

static int wide(const tks_interval *v)
{
    return (v->hi - v->lo) / 2 > SYS_WIDE * fabs(v->value);
}

tks_sys_op *tks__sys_measure(struct tks__sys_run *run, const char *id, const char *what,
                             tks_bench_fn fn, enum tks_mode mode, double divisor)
{
    return tks__sys_measure_figure(run, id, what, fn, mode, divisor, 0);
}

tks_sys_op *tks__sys_measure_figure(struct tks__sys_run *run, const char *id, const char *what,
                                    tks_bench_fn fn, enum tks_mode mode, double divisor,
                                    int overhead)
{
    tks_options bo;
    tks_result res;
    tks_benchmark_spec spec = {id, fn, NULL, 0, 1};
    tks_sys_op *op;
    double want, asked, t0 = tks__now_s();
    int rc, again = 0;
    tks__sys_bench_options(run, mode, &bo);
    want = bo.min_time;
    if (!((bo.min_time = asked = tks__sys_budget_time(run, want)) > 0)) {
        if (id_known(id)) /* the time budget is spent (a curve point says so as the curve) */
            tks__sys_left_out(run, id);
        tks__sys_progress(run);
        return NULL;
    }
    if (!(op = tks__sys_row(run, id, what)))
        return NULL;
    op->per_op_divisor = divisor > 0 ? divisor : 1;
    rc = tks_run_benchmark(&bo, run->p, &spec, 0, &res);
    if (rc == 0 && res.ok && !overhead && run->time_factor < SYS_AGAIN && wide(&res.estimate)) {
        /* measured again only when the budget gives it the whole of that time */
        double more = bo.min_time * SYS_AGAIN;
        again = tks__sys_budget_time(run, more) >= more;
        if (!again && more > want)
            want = more;
    }
    if (again) {
        tks_result_free(&res);
        bo.min_time *= SYS_AGAIN;
        asked += bo.min_time;
        rc = tks_run_benchmark(&bo, run->p, &spec, 0, &res);
    }
    tks__sys_budget_spent(run, asked, tks__now_s() - t0);
    if (rc != 0 || !res.ok) {
        snprintf(op->error, sizeof op->error, "%s", res.error[0] ? res.error : "not measured");
        op->unavailable = res.skipped;
    } else {
        op->ok = 1;
        op->ticks = overhead ? res.overhead : res.estimate;
        scale(&op->ticks, 1 / op->per_op_divisor);
        op->core_source = res.core_source;
        if (overhead && res.cycles_per_tick > 0) {
            op->cycles = op->ticks;
            scale(&op->cycles, res.cycles_per_tick);
        } else if (res.core_source != TKS_CORE_NONE) {
            op->cycles = res.core_cycles;
            scale(&op->cycles, 1 / op->per_op_divisor);
        }
        op->windows = res.windows;
        if (res.n_samples && run->p && run->p->tsc_hz > 0) {
            /* per execution over every window: a throughput window holds k[i] of them */
            double sum = 0, execs = 0;
            for (size_t i = 0; i < res.n_samples; i++) {
                sum += (double)res.real[i] - (double)res.empty[i];
                execs += res.k ? (double)res.k[i] : 1;
            }
            op->all_windows_ns = sum / execs / op->per_op_divisor * 1e9 / run->p->tsc_hz;
        }
        sys_diags(&op->diags, &res.diags);
        if (bo.min_time < want) /* cut short for the time budget */
            tks__diag(&op->diags, TKS_DIAG_SYS_TIME_CUT, TKS__DN(bo.min_time), TKS__DN(want));
        tks__sys_units(run, op, 0);
    }
    tks_result_free(&res);
    tks__sys_progress(run);
    return op;
}

tks_sys_op *tks__sys_derive(struct tks__sys_run *run, const char *id, const char *what,
                            const char *a, const char *b, double bk, double k,
                            enum tks_diag_code note)
{
    tks_sys_op *x = tks__sys_find(run, a), *y = b ? tks__sys_find(run, b) : NULL, *op;
    tks_sys_op xa, ya;
    double cpt;
    if (!tks__sys_wanted(run, id))
        return NULL;
    tks__sys_progress(run);
    if (!x || !x->ok || (b && (!y || !y->ok))) {
        if (tks__sys_was_left_out(run, a) || (b && tks__sys_was_left_out(run, b)))
            tks__sys_left_out(run, id);
        return NULL;
    }
    memset(&ya, 0, sizeof ya);
    xa = *x; /* the array may move when the row is added */
    if (y)
        ya = *y;
    op = tks__sys_row(run, id, what);
    if (!op)
        return NULL;
    op->ok = 1;
    op->derived = 1;
    op->ticks = xa.ticks;
    if (y) {
        /* the widest difference the two intervals allow: conservative, never too narrow */
        op->ticks.value = xa.ticks.value - bk * ya.ticks.value;
        op->ticks.lo = xa.ticks.lo - bk * ya.ticks.hi;
        op->ticks.hi = xa.ticks.hi - bk * ya.ticks.lo;
    }
    scale(&op->ticks, k);
    op->core_source = xa.core_source;
    cpt = xa.core_source != TKS_CORE_NONE && xa.ticks.value != 0 ? xa.cycles.value / xa.ticks.value : 0;
    tks__sys_units(run, op, cpt);
    tks__sys_note0(op, note);
    return op;
}

void tks__sys_note_add(tks_sys_op *op, enum tks_diag_code code, const tks_diag_value *v, size_t n)
{
    tks_diags *ds = &op->diags;
    if (tks__diag_add(ds, code, v, n) != 0 || ds->n < 2)
        return;
    /* the note says what the row is: it goes first, the runner's warnings after it */
    tks_diag d = ds->items[ds->n - 1];
    memmove(ds->items + 1, ds->items, (ds->n - 1) * sizeof *ds->items);
    ds->items[0] = d;
}

void tks__sys_fail(tks_sys_op *op, const char *fmt, ...)
{
    va_list ap;
    op->ok = 0;
    va_start(ap, fmt);
    vsnprintf(op->error, sizeof op->error, fmt, ap);
    va_end(ap);
}


/* Streamed rows (tks_sys_options.row): a row is handed out once the next one starts or the suite
 * ends, when no suite changes it any more (a failure found after its measurement, its note). */
static void emit_rows(struct tks__sys_run *run)
{
    for (; run->o->row && run->emitted < run->r->n_ops; run->emitted++)
        run->o->row(run->o->row_ctx, &run->r->ops[run->emitted]);
}

void tks__sys_progress(struct tks__sys_run *run)
{
    run->done++;
    if (run->o->progress)
        run->o->progress(run->o->progress_ctx, run->done, run->total > run->done ? run->total : run->done);
}

int tks__sys_pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) ? errno : 0;
}

int tks__sys_cpus(int *out, int max)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set))
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            out[n++] = c;
    return n;
}

static int id_known(const char *id)
{
    for (int s = 0; s < TKS_SYS_SUITE_COUNT; s++)
        for (const char *const *v = suite_ids((enum tks_sys_suite)s); *v; v++)
            if (!strcmp(*v, id))
                return 1;
    return 0;
}

int tks_sys_run(enum tks_sys_suite s, const tks_sys_options *o, const tks_platform *p,
                tks_sys_result **out)
{
    struct tks__sys_run run;
    tks_sys_options def;
    cpu_set_t saved;
    int rc, have_saved;
    double t0 = tks__now_s();
    if (!out)
        return TKS_EINVAL;
    *out = NULL;
    if ((unsigned)s >= TKS_SYS_SUITE_COUNT || !p)
        return TKS_EINVAL;
    if (!o) {
        tks_sys_options_init(&def);
        o = &def;
    }
    for (const char *const *w = o->only; w && *w; w++)
        if (!id_known(*w))
            return TKS_EINVAL;
    memset(&run, 0, sizeof run);
    run.o = o;
    run.p = p;
    run.r = calloc(1, sizeof *run.r);
    if (!run.r)
        return TKS_ENOMEM;
    run.r->suite = s;
    run.total = tks_sys_operations(s, NULL);
    tks__sys_budget_start(&run);
    /* The suites pin themselves to one CPU and then to another; the caller's affinity is restored. */
    have_saved = sched_getaffinity(0, sizeof saved, &saved) == 0;
    if (o->stage)
        o->stage(o->progress_ctx, suite_names[s]);
    switch (s) {
    case TKS_SYS_CPU: rc = tks__sys_cpu(&run); break;
    case TKS_SYS_OS: rc = tks__sys_os(&run); break;
    default: rc = tks__sys_mem(&run); break;
    }
    emit_rows(&run);
    tks__sys_budget_end(&run);
    if (o->stage)
        o->stage(o->progress_ctx, NULL);
    if (have_saved)
        sched_setaffinity(0, sizeof saved, &saved);
    for (size_t i = 0; i < run.r->n_ops; i++)
        if (run.r->ops[i].ok) { /* the intervals printed are this run's: said once a suite */
            tks__diag0(&run.r->diags, TKS_DIAG_SYS_WITHIN_RUN);
            break;
        }
    run.r->seconds = tks__now_s() - t0;
    *out = run.r;
    return rc;
}

void tks_sys_result_free(tks_sys_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_ops; i++)
        tks_diags_free(&r->ops[i].diags);
    tks_diags_free(&r->diags);
    free(r->ops);
    free(r);
}
