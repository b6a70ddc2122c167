/* SPDX-License-Identifier: MIT */
/* test_bench_counters.c: work counters (tickscope/work_counters.h) on synthetic runs: each of
 * Google Benchmark's flags applied as its Finish applies them (rate over the iterations' time,
 * thread and iteration averages, iteration invariance, inversion last), per core cycle for the
 * rates, intervals from the time's, the bad names and the 17th counter refused; and on a real
 * run, the arguments read back and the GB-style total divided by the same iteration count the
 * body was given. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner.h"
#include "runner/state.h"

#include "check.h"

static const tks_work_counter *named(const tks_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_work_counters; i++)
        if (!strcmp(r->work_counters[i].name, name))
            return &r->work_counters[i];
    return NULL;
}

static void synthetic(void)
{
    static struct tks_state st;
    tks_result r;
    const tks_work_counter *c;
    tks__state_init(&st);
    st.executed = 1000;                 /* N iterations */
    memset(&r, 0, sizeof r);
    r.ok = 1;
    r.ns = (tks_interval){10, 8, 12.5}; /* t: ns an iteration */
    r.core_cycles = (tks_interval){20, 16, 25};
    tks_state_set_bytes_per_iteration(&st, 64);
    tks_state_set_items_processed(&st, 3000);
    tks_state_set_user_counter(&st, "plain", 3, TKS_COUNTER_DEFAULT);
    tks_state_set_user_counter(&st, "plain", 4, TKS_COUNTER_DEFAULT); /* replaced, not added */
    tks_state_set_user_counter(&st, "avg", 5000, TKS_COUNTER_AVG_ITERATIONS);
    tks_state_set_user_counter(&st, "threads", 7, TKS_COUNTER_AVG_THREADS);
    tks_state_set_user_counter(&st, "invariant", 2, TKS_COUNTER_ITERATION_INVARIANT);
    tks_state_set_user_counter(&st, "avg_rate", 1e6, TKS_COUNTER_AVG_ITERATIONS_RATE);
    tks_state_set_user_counter(&st, "inverse", 64, TKS_COUNTER_ITERATION_INVARIANT_RATE | TKS_COUNTER_INVERT);
    tks_state_set_user_counter(&st, "k", 1, TKS_COUNTER_K1024);
    CHECK(st.error == 0);
    tks__work_counters_figures(&r, &st);
    CHECK_EQ_U64(r.n_work_counters, 9);

    c = named(&r, "bytes_per_second"); /* 64 bytes in 10 ns: 6.4e9 a second, 3.2 a cycle */
    CHECK(c && c->flags == (TKS_COUNTER_ITERATION_INVARIANT_RATE | TKS_COUNTER_K1024));
    CHECK(c && fabs(c->figure.value / 6.4e9 - 1) < 1e-12);
    CHECK(c && fabs(c->figure.lo / (64 / 12.5e-9) - 1) < 1e-12 && fabs(c->figure.hi / 8e9 - 1) < 1e-12);
    CHECK(c && fabs(c->per_cycle.value - 3.2) < 1e-12);
    CHECK(c && fabs(c->per_cycle.lo - 64 / 25.0) < 1e-12 && fabs(c->per_cycle.hi - 4) < 1e-12);
    c = named(&r, "items_per_second"); /* 3000 over 1000 iterations of 10 ns: 3e8 a second */
    CHECK(c && c->flags == TKS_COUNTER_RATE && fabs(c->figure.value / 3e8 - 1) < 1e-12);
    CHECK(c && fabs(c->per_cycle.value - 0.15) < 1e-12);
    c = named(&r, "plain");
    CHECK(c && c->figure.value == 4 && c->figure.lo == 4 && isnan(c->per_cycle.value));
    c = named(&r, "avg");
    CHECK(c && fabs(c->figure.value - 5) < 1e-12);
    c = named(&r, "threads"); /* one thread */
    CHECK(c && c->figure.value == 7);
    c = named(&r, "invariant");
    CHECK(c && c->figure.value == 2000);
    c = named(&r, "avg_rate"); /* 1e6 / (1000 x 10 ns) / 1000 */
    CHECK(c && fabs(c->figure.value / 1e8 - 1) < 1e-12);
    c = named(&r, "inverse"); /* 1 / (64 / 10 ns): seconds a byte; inverted last */
    CHECK(c && fabs(c->figure.value / (10e-9 / 64) - 1) < 1e-12);
    CHECK(c && fabs(c->figure.lo / (8e-9 / 64) - 1) < 1e-12 && fabs(c->figure.hi / (12.5e-9 / 64) - 1) < 1e-12);
    CHECK(c && fabs(c->per_cycle.value - 20.0 / 64) < 1e-12);

    /* a time whose interval reaches zero (a block of a few cycles, overhead subtracted): the
     * rate's upper end is open, the lower one stands; the inverse's lower end is zero */
    r.ns = (tks_interval){10, -1, 21};
    tks__work_counters_figures(&r, &st);
    c = named(&r, "bytes_per_second");
    CHECK(c && fabs(c->figure.lo / (64 / 21e-9) - 1) < 1e-12 && c->figure.hi == INFINITY);
    c = named(&r, "inverse");
    CHECK(c && c->figure.lo == 0 && fabs(c->figure.hi / (21e-9 / 64) - 1) < 1e-12);
    r.ns = (tks_interval){10, 8, 12.5};

    /* a failed run has no figures; a run without a time has no rates, its plain counters stay */
    r.ok = 0;
    tks__work_counters_figures(&r, &st);
    CHECK(isnan(named(&r, "plain")->figure.value) && isnan(named(&r, "bytes_per_second")->figure.value));
    r.ok = 1;
    r.ns = (tks_interval){NAN, NAN, NAN};
    tks__work_counters_figures(&r, &st);
    CHECK(named(&r, "plain")->figure.value == 4 && isnan(named(&r, "bytes_per_second")->figure.value));
    CHECK(fabs(named(&r, "bytes_per_second")->per_cycle.value - 3.2) < 1e-12);

    /* refusals fail the run with the reason */
    tks_state_set_user_counter(&st, "", 1, 0);
    CHECK(st.error == TKS_EINVAL && strstr(st.reason, "1 to 47 characters"));
    tks__state_init(&st);
    for (int i = 0; i < TKS_WORK_COUNTERS_MAX + 1; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        tks_state_set_user_counter(&st, name, i, 0);
    }
    CHECK(st.error == TKS_EINVAL && strstr(st.reason, "more than 16 work counters (the 17th is 'c16')"));
    CHECK_EQ_U64(st.n_work, TKS_WORK_COUNTERS_MAX);
}

/* A real run: three arguments read back, and SetBytesProcessed's total over the count the body
 * read after TKS_MEASURE. */
static unsigned long long g_iterations;
static long long g_args[4];
static size_t g_count;

static void body(tks_state *st)
{
    unsigned long long before = tks_state_iterations(st);
    volatile int x = 0;
    g_count = tks_state_arg_count(st);
    for (size_t i = 0; i < 4; i++)
        g_args[i] = tks_state_arg_at(st, i);
    TKS_MEASURE(st, { x = x + 1; });
    g_iterations = tks_state_iterations(st);
    tks_state_set_bytes_processed(st, (double)g_iterations * 100);
    CHECK(before == 0 && g_iterations >= (unsigned long long)x);
}

static void real_run(void)
{
    tks_options o;
    tks_benchmark_spec spec = {"bm_three", body, NULL, 0, 1};
    tks_args a;
    tks_result r;
    const tks_work_counter *c;
    tks_options_init(&o);
    o.min_time = 0.01;
    memset(&a, 0, sizeof a);
    a.n = 3;
    a.v[0] = 64, a.v[1] = -8, a.v[2] = 3;
    a.names[1] = "stride";
    CHECK(tks_run_benchmark_args(&o, NULL, &spec, &a, &r) == 0);
    CHECK_STR(r.name, "bm_three/64/stride:-8/3");
    CHECK(g_count == 3 && g_args[0] == 64 && g_args[1] == -8 && g_args[2] == 3 && g_args[3] == 0);
    CHECK(r.n_args == 3 && r.args[1] == -8 && r.arg == 64 && r.has_arg);
    /* the windows kept are some of the iterations the body saw (warm-up and pilots too) */
    CHECK(g_iterations >= r.executions && r.executions > 0);
    c = named(&r, "bytes_per_second");
    /* without a platform there is no TSC rate: no time, so no rate a second, but a rate a cycle
     * when the run measured its core clock */
    CHECK(c && c->value == (double)g_iterations * 100 && isnan(c->figure.value));
    if (c && isfinite(r.core_cycles.value) && r.core_cycles.value > 0)
        CHECK(fabs(c->per_cycle.value * r.core_cycles.value / 100 - 1) < 1e-9);
    tks_result_free(&r);
}

int main(void)
{
    synthetic();
    real_run();
    CHECK_DONE();
}
