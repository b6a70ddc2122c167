/* SPDX-License-Identifier: MIT */
/* runner.c: one run of one benchmark: place the thread, let the body drive the state through
 * TKS_MEASURE, then turn the kept windows into estimates and warnings a user can act on. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/analyse.h"
#include "runner/events_run.h"
#include "runner/record.h"
#include "runner/registry.h"
#include "runner/runner.h"
#include "runner/state.h"
#include "sample/add_check.h"
#include "base/diag.h"
#include "base/now.h"

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
    st->keep_ref_w = tks__record_active(); /* a recording holds the reference's windows */
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
    int rc;

    if (!r)
        return TKS_EINVAL;
    memset(r, 0, sizeof *r);
    r->add_check = (tks_add_check){TKS_ADD_CHECK_NONE, NAN, NAN, 1, 0};
    if (!o || !spec || !spec->fn || !spec->name)
        return tks__run_failed(r, TKS_EINVAL, "no options or no benchmark");
    tks__result_name(r, spec, args);
    r->mode = o->mode;
    r->optimized = spec->optimized;
    r->method = o->method >= 0 ? (enum tks_method)o->method : tks_method_default(tks_cpu_features_get());
    if ((unsigned)r->method >= TKS_METHOD_COUNT ||
        !tks_method_available(r->method, tks_cpu_features_get()) || !tks_method_user(r->method))
        return tks__run_failed(r, TKS_EUNAVAIL, "method %s is not available on this CPU in user space",
                      (unsigned)r->method < TKS_METHOD_COUNT ? tks_method_info(r->method)->name
                                                             : "?");
    if (o->mode != TKS_MODE_LATENCY && o->mode != TKS_MODE_THROUGHPUT)
        return tks__run_failed(r, TKS_EINVAL, "unknown mode");

    init_state(&st, o, p, r, args);
    st.perturb = o->mode == TKS_MODE_THROUGHPUT ? perturb : 0;
    st.perturb_n = units;
    st.touched = touched;
    r->quantum = st.quantum;
    { /* event counters (--counters) */
        char why[160] = "out of memory";
        if ((rc = tks__run_events_open(&st, o, why, sizeof why)) != 0)
            return tks__run_failed(r, rc, "event counters: %s", why);
    }
    place(&st, &pl, o, r);
    t0 = tks__now_s();
    spec->fn(&st);
    r->seconds = tks__now_s() - t0;
    tks__placement_restore(&pl);
    tks__run_events_finish(&st, r); /* event counters: figures and refusals */

    {
        tks__analyse_in in = {p ? tks_core_cycles_per_tick(p) : 0, spec->optimized, o->dry_run,
                              touched};
        tks__record_run(&st, r, in.calibrated);
        rc = tks__run_analyse(r, &st, &in);
    }
    return rc;
}
