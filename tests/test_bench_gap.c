/* SPDX-License-Identifier: MIT */
/* test_bench_gap.c: latency mode's harness gap with hand-worked answers: the gap of one reference
 * from its chains' means (bench/state.c), and the figures of a run made of synthetic windows
 * (bench/figures.c): a block that reads over empty windows has the gap taken out, a block that
 * cannot be told from empty ones reads zero, never minus the gap, and references without a rate
 * give no gap; and on a shared core (the add check found the adds slow), an interval that reaches
 * down to the figure at the adds' slowdown. */
#include <math.h>
#include <string.h>

#include "runner/figures.h"
#include "runner/state.h"
#include "check.h"

/* The fences add h around a chain of adds, e around nothing; an add costs c ticks. The chains of
 * 200 and 50 adds read h + 200c and h + 50c, the empty window e: the gap is h - e. */
static void test_formula(void)
{
    /* h = 52, e = 44, c = 0.77: 206 and 90.5 ticks; 150 adds read 115.5, so 50 adds 38.5, and the
     * short chain's harness is 90.5 - 38.5 = 52, 8 over the empty window. */
    CHECK_NEAR(tks__state_harness_gap(206, 90.5, 44), 8, 1e-12);
    /* The gap either way round: fences that cost less around work (h = 40, e = 44, c = 1.3). */
    CHECK_NEAR(tks__state_harness_gap(40 + 260, 40 + 65, 44), -4, 1e-12);
    /* No harness at all: chains of exactly their adds, an empty window of 0. */
    CHECK_NEAR(tks__state_harness_gap(200, 50, 0), 0, 1e-12);
}

#define N 1000
#define REFS 10

static uint64_t real_w[N], empty_w[N], once_w[N], twice_w[N];
static uint32_t k_w[N];
static double ref[REFS], ref_gap[REFS];
static size_t ref_end[REFS], t_ref[N];
/* each reference's chains, long less short, and its gap: the run's own unless a test says */
static double ref_diff = 115, ref_gap_each = 3;
/* the add check the run took: none unless a test says */
static tks__add_check add_check;

/* A latency run of N windows: empty ones of 44 ticks, real ones of 44 + body +- 1 (alternating);
 * REFS references, each 115 ticks for the 150 adds (1.3 cycles a tick) and a gap of 3 ticks. */
static void run_twice(double body, double own, tks_result *r);
static void run(double body, tks_result *r)
{
    run_twice(body, NAN, r);
}

/* As run, and, when own is a number, windows of the block once and twice (N of them, alternating
 * +-1 like the real ones) in which one more execution costs own ticks. */
static void run_twice(double body, double own, tks_result *r)
{
    struct tks_state st;
    int modes;
    tks__state_init(&st);
    st.mode = TKS_MODE_LATENCY;
    st.quantum = 1;
    for (size_t i = 0; i < N; i++) {
        empty_w[i] = 44;
        real_w[i] = (uint64_t)(44 + body + (i % 2 ? 1 : -1));
        k_w[i] = 1;
    }
    for (size_t b = 0; b < REFS; b++) {
        ref[b] = ref_diff;
        ref_gap[b] = ref_gap_each;
        ref_end[b] = (b + 1) * N / REFS;
    }
    st.real = real_w;
    st.empty = empty_w;
    st.k = k_w;
    st.n = st.cap = N;
    st.ref = ref;
    st.ref_gap = ref_gap;
    st.ref_end = ref_end;
    st.n_ref = st.ref_cap = REFS;
    st.check = add_check;
    if (isfinite(own)) {
        for (size_t i = 0; i < N; i++) {
            once_w[i] = (uint64_t)(60 + (i % 2 ? 1 : -1));
            twice_w[i] = (uint64_t)(60 + own + (i % 2 ? -1 : 1));
            t_ref[i] = i * REFS / N;
        }
        st.t_once = once_w;
        st.t_twice = twice_w;
        st.t_ref = t_ref;
        st.t_n = st.t_cap = N;
    }
    memset(r, 0, sizeof *r);
    r->mode = TKS_MODE_LATENCY;
    CHECK_EQ_U64(tks__bench_figures(r, &st, 0, &modes), 0);
}

static void test_figures(void)
{
    static tks_result r;

    /* Ten ticks over the empty windows: the gap is 3 (its interval 2.5% of it, the carry-over
     * between processes), the block 7. */
    run(10, &r);
    CHECK_NEAR(r.mean.value, 10, 1e-9);
    CHECK(r.mean.lo > 0);
    CHECK_NEAR(r.harness_gap.value, 3, 1e-9);
    CHECK(r.harness_gap.lo < 3 && r.harness_gap.hi > 3);
    CHECK_NEAR(r.estimate.value, 7, 1e-9);
    CHECK(r.estimate.lo < 7 && r.estimate.hi > 7);
    CHECK_NEAR(r.core_cycles.value, 7 * 150.0 / 115, 1e-6);

    /* The empty windows' own cost (a block the compiler removed): the mean's interval holds 0,
     * and the figure stays 0, not -3. */
    run(0, &r);
    CHECK_NEAR(r.mean.value, 0, 1e-9);
    CHECK(r.mean.lo <= 0 && r.mean.hi >= 0);
    CHECK_NEAR(r.harness_gap.value, 3, 1e-9);
    CHECK_NEAR(r.estimate.value, 0, 1e-9);
    CHECK_NEAR(r.core_cycles.value, 0, 1e-9);
}

/* Latency mode's own correction (issue 30): the block's windows twice less once. */
static void test_twice(void)
{
    static tks_result r;
    double h;

    /* Ten ticks over the empty windows less the adds' gap of 3 is 7; the block's own windows say
     * one more execution costs 8 (the fences overlap its instructions a tick less than adds):
     * within the overlap term (TKS__OVERLAP_CYCLES, 6 core cycles when written: 4.6 ticks at 1.3
     * cycles a tick), so the headline is
     * 8 and the harness gap the block's own, 10 - 8. */
    run_twice(10, 8, &r);
    CHECK(r.gap_source == TKS_GAP_BLOCK);
    CHECK_NEAR(r.latency_twice.value, 8, 1e-9);
    CHECK_EQ_U64(r.twice_windows, N);
    CHECK_NEAR(r.estimate.value, 8, 1e-9);
    CHECK_NEAR(r.harness_gap.value, 2, 1e-9);
    CHECK_NEAR(r.core_cycles.value, 8 * 150.0 / 115, 1e-6);
    CHECK(r.core_cycles.lo < r.core_cycles.value && r.core_cycles.hi > r.core_cycles.value);
    /* The add chain's figure kept beside it, in core cycles: 7 ticks. */
    CHECK_NEAR(r.latency_adds_cycles.value, 7 * 150.0 / 115, 1e-6);

    /* Two copies that overlap (one more execution costs 1 tick, the block alone 7): the adds'
     * figure, its interval holding the overlap term (TKS__OVERLAP_CYCLES either side). */
    run_twice(10, 1, &r);
    CHECK(r.gap_source == TKS_GAP_ADDS);
    CHECK_NEAR(r.estimate.value, 7, 1e-9);
    CHECK_NEAR(r.harness_gap.value, 3, 1e-9);
    /* the overlap term is the code's own constant (figures.h), in ticks at this run's rate */
    h = TKS__OVERLAP_CYCLES * 115 / 150;
    CHECK(r.estimate.hi - r.estimate.value >= h && r.estimate.value - r.estimate.lo >= h);
    CHECK(r.core_cycles.hi - r.core_cycles.value >= TKS__OVERLAP_CYCLES - 1e-9);
    CHECK_NEAR(r.core_cycles.value, 7 * 150.0 / 115, 1e-6);

    /* Without the block's windows (a body with hooks): the adds' figure, widened the same way. */
    run(10, &r);
    CHECK(r.gap_source == TKS_GAP_ADDS);
    CHECK(!isfinite(r.latency_twice.value));
    CHECK(r.estimate.hi - r.estimate.value >= h);
}

/* References that give no rate (the long chain read shorter than the short one: an interrupt
 * in a burst's short chain, before burst means left such windows out) give no gap either: the
 * figure is the windows' own (10 ticks, which the runner warns still hold the harness:
 * bench.harness_kept), not 10 less a gap of 446 made of that interrupt. */
static void test_no_rate(void)
{
    static tks_result r;
    ref_diff = -1300;
    ref_gap_each = 446;
    run(10, &r);
    ref_diff = 115;
    ref_gap_each = 3;
    CHECK(!isfinite(r.harness_gap.value));
    CHECK(r.gap_source == TKS_GAP_NONE);
    CHECK_NEAR(r.estimate.value, 10, 1e-9);
    CHECK(r.estimate.lo > 0);

    /* The block's own windows beside them: where they agree with the windows within the
     * overlap term (8 against 10), they are the figure; where not (1 against 10), the windows
     * stand, still holding the harness: no correction (the runner's bench.harness_kept), not
     * "the adds' gap", which there is none of. */
    ref_diff = -1300;
    ref_gap_each = 446;
    run_twice(10, 8, &r);
    CHECK(r.gap_source == TKS_GAP_BLOCK);
    CHECK_NEAR(r.estimate.value, 8, 1e-9);
    run_twice(10, 1, &r);
    ref_diff = 115;
    ref_gap_each = 3;
    CHECK(r.gap_source == TKS_GAP_NONE);
    CHECK_NEAR(r.estimate.value, 10, 1e-9);
}

/* The add check found the reference's adds slow, 1.02 cycles each: the rate is 2% faster than
 * the adds say, so the core-cycle figure reads 2% more; the block may have lost to the other
 * thread as much as the adds did, so its interval reaches down to the figure at their slowdown
 * (the low end as on a core of its own), in ticks and in core cycles; the high end stays where
 * the interval, symmetric before, put it. A check that only disagrees widens nothing. */
static void test_shared_core(void)
{
    static tks_result alone, shared;
    const tks_interval *c = &shared.core_cycles, *t = &shared.estimate;
    run(10, &alone);
    add_check = (tks__add_check){.verdict = TKS_ADD_CHECK_SLOW, .add_cycles = 1.02};
    run(10, &shared);
    CHECK_NEAR(c->value, 1.02 * alone.core_cycles.value, 1e-6);
    CHECK_NEAR(c->lo, (2 * c->value - c->hi) / 1.02, 1e-9);
    CHECK_NEAR(t->value, alone.estimate.value, 1e-9);
    CHECK_NEAR(t->lo, (2 * t->value - t->hi) / 1.02, 1e-9);
    add_check = (tks__add_check){.verdict = TKS_ADD_CHECK_DISAGREE, .add_cycles = 1.02};
    run(10, &shared);
    add_check = (tks__add_check){0};
    CHECK_NEAR(c->lo, 2 * c->value - c->hi, 1e-9);
    CHECK_NEAR(t->lo, 2 * t->value - t->hi, 1e-9);
}

int main(void)
{
    test_formula();
    test_figures();
    test_twice();
    test_no_rate();
    test_shared_core();
    CHECK_DONE();
}
