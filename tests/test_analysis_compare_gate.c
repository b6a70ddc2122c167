/* SPDX-License-Identifier: MIT */
/* test_analysis_compare_gate.c (issue 46): --fail-on-regression on benchmarks with too few runs
 * for a test, on synthetic files whose answer is known by construction. 1 and 1, 2 and 2 runs a
 * side (tickscope's and Google Benchmark's): never a pass; 30% slower fails the gate on the
 * interval widened by the assumed spread between processes (its width checked against the
 * formula), identical is not tested; 5 and 5 are tested as before. What each side needs, the
 * diagnostics, --processes figures, aggregates, a mean at or below zero, and no gate. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "check.h"
#include "tickscope/common.h"

#define Z95 1.959963984540054
#define HALF 0.1 /* each figure's own interval: +-0.1 core cycles (tickscope's files) */

static char g_err[400];

enum tool { OURS, GBENCH };

static const double g_jitter[] = {0, 0.1, -0.1, 0.05, -0.05};

/* A file of benchmark "bm": n runs (at most 5) at base + a small jitter each (core cycles for
 * tickscope, ns for Google Benchmark), one row a repetition. */
static int file_of(enum tool t, size_t n, double base, tks__cmp_file *f)
{
    char doc[6000];
    size_t o = (size_t)snprintf(doc, sizeof doc, "{\"context\": {\"host_name\": \"h\"%s}, "
                                "\"benchmarks\": [",
                                t == OURS ? ", \"tickscope_version\": \"0.1.0\"" : "");
    for (size_t i = 0; i < n; i++) {
        double v = base + g_jitter[i];
        if (t == OURS)
            o += (size_t)snprintf(doc + o, sizeof doc - o,
                                  "%s{\"name\": \"bm\", \"repetition_index\": %zu, "
                                  "\"real_time\": %.17g, \"ticks\": %.17g, \"core_cycles\": "
                                  "%.17g, \"core_cycles_ci\": [%.17g, %.17g]}", i ? ", " : "", i,
                                  v / 3, v / 1.5, v, v - HALF, v + HALF);
        else
            o += (size_t)snprintf(doc + o, sizeof doc - o,
                                  "%s{\"name\": \"bm\", \"run_type\": \"iteration\", "
                                  "\"repetition_index\": %zu, \"real_time\": %.17g}",
                                  i ? ", " : "", i, v);
    }
    snprintf(doc + o, sizeof doc - o, "]}");
    return tks__cmp_file_read(doc, strlen(doc), f, g_err, sizeof g_err);
}

/* The relative variance the gate gives a side of n figures at base (+ jitter), one process. */
static double side_var(enum tool t, size_t n, double base)
{
    double m = 0, ss = 0, se = t == OURS ? HALF / 1.96 : 0;
    for (size_t i = 0; i < n; i++)
        m += (base + g_jitter[i]) / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (base + g_jitter[i] - m) * (base + g_jitter[i] - m);
    ss = n > 1 ? ss / (double)(n - 1) / (double)n : 0;
    return fmax(se * se / (double)n, ss) / (m * m) + TKS__CMP_ASSUMED_CV * TKS__CMP_ASSUMED_CV;
}

static tks__cmp_result compared(enum tool t, size_t n, double scale, double gate)
{
    tks__cmp_file fa, fb;
    tks__cmp_result r;
    memset(&r, 0, sizeof r);
    CHECK(file_of(t, n, 100, &fa) == 0);
    CHECK(file_of(t, n, 100 * scale, &fb) == 0);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, gate, &r, g_err, sizeof g_err) == 0);
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
    return r;
}

static int has_diag(const tks__cmp_result *r, enum tks_diag_code code)
{
    for (size_t i = 0; i < r->diags.n; i++)
        if (r->diags.items[i].code == code)
            return 1;
    return 0;
}

/* 1 and 1, 2 and 2 a side, identical and 30% slower; 5 and 5 tested. */
static void too_few_never_pass(enum tool t)
{
    const char *flag = t == OURS ? "--processes " : "--benchmark_repetitions=";
    char text[300], want[300];
    for (size_t n = 1; n <= 2; n++) {
        tks__cmp_result r = compared(t, n, 1.0, 0.05);
        const tks__cmp_row *w = &r.rows[0];
        double m = 0, s = sqrt(2 * side_var(t, n, 100)), ratio;
        CHECK(w->too_few && w->test == TKS__TEST_NONE && w->verdict == TKS__INCONCLUSIVE);
        CHECK(w->not_tested && !w->regression);
        CHECK_EQ_U64(r.not_tested, 1);
        CHECK_EQ_U64(r.regressions, 0);
        CHECK_EQ_U64(w->runs_old, n);
        CHECK_EQ_U64(w->need_old, 4);
        CHECK_EQ_U64(w->need_new, 4);
        /* identical sides: exp(+-1.96 s) - 1, about +-7.4% with 2.66% a side */
        CHECK_NEAR(w->assumed_lo, exp(-Z95 * s) - 1, 1e-9);
        CHECK_NEAR(w->assumed_hi, exp(Z95 * s) - 1, 1e-9);
        CHECK(w->assumed_lo < -0.07 && w->assumed_hi > 0.07);
        CHECK(has_diag(&r, TKS_DIAG_CMP_GATE_ASSUMED) && has_diag(&r, TKS_DIAG_CMP_NOT_TESTED));
        tks__cmp_needs_text(&r, w, text, sizeof text);
        snprintf(want, sizeof want, "old has %zu run%s, needs 4 (%s4); new has %zu run%s, needs 4 "
                 "(%s4)", n, n == 1 ? "" : "s", flag, n, n == 1 ? "" : "s", flag);
        CHECK_STR(text, want);
        tks__cmp_result_free(&r);

        r = compared(t, n, 1.3, 0.05);
        w = &r.rows[0];
        for (size_t i = 0; i < n; i++)
            m += g_jitter[i] / (double)n; /* the jitter's mean, both sides alike */
        ratio = (130 + m) / (100 + m);
        s = sqrt(side_var(t, n, 100) + side_var(t, n, 130));
        CHECK(w->too_few && w->verdict == TKS__INCONCLUSIVE);
        CHECK(w->regression && !w->not_tested);
        CHECK_EQ_U64(r.regressions, 1);
        CHECK_EQ_U64(r.not_tested, 0);
        CHECK_NEAR(w->assumed_lo, ratio * exp(-Z95 * s) - 1, 1e-9);
        CHECK(w->assumed_lo > 0.2 && w->assumed_hi < 0.4);
        CHECK(has_diag(&r, TKS_DIAG_CMP_GATE_ASSUMED) && !has_diag(&r, TKS_DIAG_CMP_NOT_TESTED));
        tks__cmp_result_free(&r);
    }
    for (int slower = 0; slower < 2; slower++) {
        tks__cmp_result r = compared(t, 5, slower ? 1.3 : 1.0, 0.05);
        CHECK(r.rows[0].test == TKS__TEST_UTEST && !r.rows[0].too_few && !r.rows[0].not_tested);
        CHECK(isnan(r.rows[0].assumed_lo));
        CHECK_EQ_U64(r.rows[0].need_old, 0);
        CHECK_EQ_U64(r.regressions, (size_t)slower);
        CHECK_EQ_U64(r.not_tested, 0);
        CHECK(!has_diag(&r, TKS_DIAG_CMP_GATE_ASSUMED) && !has_diag(&r, TKS_DIAG_CMP_NOT_TESTED));
        tks__cmp_result_free(&r);
    }
}

static void edges(void)
{
    tks__cmp_result r;
    tks__cmp_file fa, fb;
    char text[300];
    /* a change the assumed spread can explain is not tested, however far above the gate it
     * reads: 8% against a 5% gate, one run a side */
    r = compared(OURS, 1, 1.08, 0.05);
    CHECK(r.rows[0].not_tested && !r.rows[0].regression);
    CHECK(r.rows[0].assumed_lo < 0.05 && r.rows[0].assumed_hi > 0.08);
    tks__cmp_result_free(&r);
    /* no gate: nothing is gated, nothing widened; what a test needs is said all the same */
    r = compared(OURS, 1, 1.3, -1);
    CHECK(!r.rows[0].regression && !r.rows[0].not_tested && isnan(r.rows[0].assumed_lo));
    CHECK_EQ_U64(r.rows[0].need_new, 4);
    CHECK(!has_diag(&r, TKS_DIAG_CMP_GATE_ASSUMED) && !has_diag(&r, TKS_DIAG_CMP_NOT_TESTED));
    tks__cmp_result_free(&r);
    /* what each side needs, by the tool that wrote it: our one run against Google Benchmark's
     * five repetitions (a rank test over 1 and 5 gives no less than 1/3), both ways */
    CHECK(file_of(OURS, 1, 100, &fa) == 0);
    CHECK(file_of(GBENCH, 5, 100 / 3.0, &fb) == 0);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].too_few && r.rows[0].not_tested && r.rows[0].unit == TKS__UNIT_NS);
    tks__cmp_needs_text(&r, &r.rows[0], text, sizeof text);
    CHECK_STR(text, "old has 1 run, needs 4 (--processes 4); new has 5 runs, enough");
    tks__cmp_result_free(&r);
    CHECK(tks__cmp_files(&fb, &fa, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    tks__cmp_needs_text(&r, &r.rows[0], text, sizeof text);
    CHECK_STR(text, "old has 5 runs, enough; new has 1 run, needs 4 (--processes 4)");
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fb);
    /* a mean at or below zero has no ratio to gate: not tested */
    CHECK(file_of(OURS, 1, -5, &fb) == 0);
    CHECK(tks__cmp_files(&fb, &fa, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].not_tested && isnan(r.rows[0].assumed_lo));
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
}

/* Two processes a side (--processes 2): the assumed spread over the mean of two processes is
 * the process's over sqrt 2; Google Benchmark's aggregates of 2 repetitions count 2 runs. */
static void processes_and_aggregates(void)
{
    static const char procs[] = "{\"context\": {\"tickscope_version\": \"0.1.0\"}, \"benchmarks\": "
        "[{\"name\": \"bm\", \"real_time\": 1, \"ticks\": 80, \"core_cycles\": %g, "
        "\"core_cycles_ci\": [%g, %g], \"between_run\": {\"processes\": 2}, \"process_figures\": "
        "[{\"ticks\": 80, \"core_cycles\": %g}, {\"ticks\": 80, \"core_cycles\": %g}]}]}";
    static const char agg[] = "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_mean\", "
        "\"run_name\": \"bm\", \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\", "
        "\"repetitions\": 2, \"real_time\": %g}, {\"name\": \"BM_stddev\", \"run_name\": \"bm\", "
        "\"run_type\": \"aggregate\", \"aggregate_name\": \"stddev\", \"repetitions\": 2, "
        "\"real_time\": 0.2}]}";
    char doc[900];
    tks__cmp_file fa, fb;
    tks__cmp_result r;
    double own = 0.1 / 1.96, v;
    snprintf(doc, sizeof doc, procs, 100.0, 99.9, 100.1, 100.0, 100.0);
    CHECK(tks__cmp_file_read(doc, strlen(doc), &fa, g_err, sizeof g_err) == 0);
    CHECK(fa.b[0].from_processes && fa.b[0].n == 2);
    CHECK(tks__cmp_files(&fa, &fa, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].too_few && r.rows[0].not_tested);
    v = own * own / 2 / 1e4 + TKS__CMP_ASSUMED_CV * TKS__CMP_ASSUMED_CV / 2;
    CHECK_NEAR(r.rows[0].assumed_hi, exp(Z95 * sqrt(2 * v)) - 1, 1e-9);
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fa);
    snprintf(doc, sizeof doc, agg, 100.0);
    CHECK(tks__cmp_file_read(doc, strlen(doc), &fa, g_err, sizeof g_err) == 0);
    snprintf(doc, sizeof doc, agg, 130.0);
    CHECK(tks__cmp_file_read(doc, strlen(doc), &fb, g_err, sizeof g_err) == 0);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].too_few && r.rows[0].regression);
    CHECK_EQ_U64(r.rows[0].runs_old, 2);
    CHECK_EQ_U64(r.rows[0].n_old, 1);
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
}

int main(void)
{
    too_few_never_pass(OURS);
    too_few_never_pass(GBENCH);
    edges();
    processes_and_aggregates();
    CHECK_DONE();
}
