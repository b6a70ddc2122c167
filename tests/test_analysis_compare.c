/* SPDX-License-Identifier: MIT */
/* test_analysis_compare.c: `tickscope compare`'s library part on synthetic result files: the
 * unit and test chosen for the figures at hand (the U test from 4 and 4 or 3 and 5 figures, the
 * bootstrap over between-run intervals, no test with too few runs), the change and verdict,
 * per-process figures, Google Benchmark's files, context warnings, the gate, the figures
 * refused before any statistic, and the other refusals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "check.h"
#include "tickscope/common.h"

static char g_err[400];

static int read_doc(const char *s, tks__cmp_file *f)
{
    return tks__cmp_file_read(s, strlen(s), f, g_err, sizeof g_err);
}

/* One of our files: n iteration rows of name, core cycles v[i] with +-half, ticks = v / 1.4. */
static char *ours(const char *host, const char *method, double tsc, const char *name,
                  const double *v, size_t n, double half)
{
    static char buf[8][8192];
    static int which;
    char *b = buf[which++ % 8];
    size_t o = 0;
    o += (size_t)snprintf(b + o, 8192 - o,
                          "{\"context\": {\"host_name\": \"%s\", \"tickscope_version\": \"0.1.0\","
                          " \"method\": \"%s\", \"mode\": \"latency\", \"cpu\": {\"brand\": \"X\","
                          " \"vendor\": \"V\", \"family\": 26, \"model\": 2}, \"tsc\": {\"hz\": %g}},"
                          " \"benchmarks\": [",
                          host, method, tsc);
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(b + o, 8192 - o,
                              "%s{\"name\": \"%s\", \"run_name\": \"%s\", \"run_type\": \"iteration\","
                              " \"real_time\": %g, \"time_unit\": \"ns\", \"ticks\": %g,"
                              " \"ticks_ci\": [%g, %g], \"core_cycles\": %g, \"core_cycles_ci\": [%g, %g]}",
                              i ? ", " : "", name, name, v[i] / 1.4 / 2.6, v[i] / 1.4,
                              (v[i] - half) / 1.4, (v[i] + half) / 1.4, v[i], v[i] - half, v[i] + half);
    snprintf(b + o, 8192 - o, "]}");
    return b;
}

static void utest_rows(void)
{
    /* five repetitions a side, new 5% slower: U test, all 25 pairs favour new, exact p = 2/252 */
    const double a[] = {100, 100.2, 99.9, 100.1, 99.8}, b[] = {105, 105.2, 104.9, 105.1, 104.8};
    tks__cmp_file fa, fb;
    tks__cmp_result r;
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", a, 5, 0.1), &fa) == 0);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", b, 5, 0.1), &fb) == 0);
    CHECK_EQ_U64(fa.n, 1);
    CHECK_EQ_U64(fa.b[0].n, 5);
    CHECK(fa.ours && fa.b[0].has[TKS__UNIT_CORE]);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, 0.02, &r, g_err, sizeof g_err) == 0);
    CHECK_EQ_U64(r.n, 1);
    /* the repetitions of one process a side: tested, and said to be within a process */
    CHECK_EQ_U64(r.diags.n, 1);
    CHECK_EQ_U64(r.diags.items[0].code, TKS_DIAG_CMP_ONE_PROCESS);
    CHECK(r.rows[0].unit == TKS__UNIT_CORE);
    CHECK(r.rows[0].test == TKS__TEST_UTEST);
    CHECK_NEAR(r.rows[0].old_value, 100, 1e-9);
    CHECK_NEAR(r.rows[0].new_value, 105, 1e-9);
    CHECK_NEAR(r.rows[0].change, 0.05, 1e-9);      /* every difference is 5 +- 0.4 */
    CHECK_NEAR(r.rows[0].p, 2.0 / 252, 1e-12);
    CHECK(r.rows[0].lo > 0.04 && r.rows[0].hi < 0.06);
    CHECK(r.rows[0].verdict == TKS__SLOWER);
    CHECK(r.rows[0].regression && r.regressions == 1);
    tks__cmp_result_free(&r);
    /* a gate above the change passes; swapped, it is faster */
    CHECK(tks__cmp_files(&fa, &fb, 0.01, 0.10, &r, g_err, sizeof g_err) == 0);
    CHECK(!r.rows[0].regression && r.regressions == 0);
    tks__cmp_result_free(&r);
    CHECK(tks__cmp_files(&fb, &fa, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].verdict == TKS__FASTER && !r.rows[0].regression);
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
}

/* n old figures against m new ones: the row's test, its smallest possible p, and the verdict. */
static tks__cmp_row judged(const double *a, size_t n, const double *b, size_t m, double gate,
                           size_t *regressions)
{
    tks__cmp_file fa, fb;
    tks__cmp_result r;
    tks__cmp_row row;
    memset(&row, 0, sizeof row);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", a, n, 0.05), &fa) == 0);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", b, m, 0.05), &fb) == 0);
    if (tks__cmp_files(&fa, &fb, 0.01, gate, &r, g_err, sizeof g_err) == 0) {
        row = r.rows[0];
        *regressions = r.regressions;
        tks__cmp_result_free(&r);
    } else {
        CHECK(!"compared");
    }
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
    return row;
}

static void too_few_runs(void)
{
    /* issue 30's case: 100 and 101 against 102 and 103, each with a tight within-run interval.
     * Resampled, two figures a side gave "slower, p 5e-05"; a rank test can give no less than
     * 2 / C(4, 2) = 1/3: inconclusive; the gate does not fail on 2%, nor pass it: not tested
     * (issue 46, test_analysis_compare_gate). */
    const double o2[] = {100, 101}, n2[] = {102, 103};
    const double o3[] = {100, 100.5, 101}, n3[] = {110, 110.5, 111};
    const double n4[] = {110, 110.5, 111, 110.2}, n5[] = {110, 110.5, 111, 110.2, 110.7};
    const double o1[] = {100}, n1[] = {110};
    char text[160];
    size_t reg = 99;
    tks__cmp_row w = judged(o2, 2, n2, 2, 0.005, &reg);
    CHECK(w.too_few && w.test == TKS__TEST_NONE && w.verdict == TKS__INCONCLUSIVE);
    CHECK_NEAR(w.min_p, 1.0 / 3, 1e-12);
    CHECK(!w.regression && reg == 0 && w.not_tested);
    CHECK(isnan(w.lo) && isnan(w.p));
    CHECK_NEAR(w.change, 102.5 / 100.5 - 1, 1e-12); /* the means, shown, not judged */
    tks__cmp_verdict_text(&w, text, sizeof text);
    CHECK_STR(text, "inconclusive: too few runs (the smallest p this test can give is 0.333)");
    /* 3 and 3, 10% apart with no overlap: still too few (2/20 = 0.1); against a 1% gate the
     * change lies beyond what the assumed spread between processes can give: it fails */
    w = judged(o3, 3, n3, 3, 0.01, &reg);
    CHECK(w.too_few && w.verdict == TKS__INCONCLUSIVE && w.regression && reg == 1);
    CHECK_NEAR(w.min_p, 0.1, 1e-12);
    /* 3 and 4: 2/35 = 0.057, too few; 3 and 5: 2/56 = 0.036, the U test, which gives it */
    w = judged(o3, 3, n4, 4, 0.01, &reg);
    CHECK(w.too_few && w.verdict == TKS__INCONCLUSIVE);
    CHECK_NEAR(w.min_p, 2.0 / 35, 1e-12);
    w = judged(o3, 3, n5, 5, 0.01, &reg);
    CHECK(!w.too_few && w.test == TKS__TEST_UTEST && w.verdict == TKS__SLOWER);
    CHECK_NEAR(w.p, 2.0 / 56, 1e-12);
    CHECK_NEAR(w.min_p, 2.0 / 56, 1e-12);
    CHECK(w.regression && reg == 1);
    tks__cmp_verdict_text(&w, text, sizeof text);
    CHECK_STR(text, "slower");
    /* one figure a side with a within-run interval: nothing across runs to test with (10%
     * fails a 1% gate on the assumed spread, as above) */
    w = judged(o1, 1, n1, 1, 0.01, &reg);
    CHECK(w.too_few && w.verdict == TKS__INCONCLUSIVE && w.regression);
    CHECK_NEAR(w.min_p, 1, 1e-12);
    /* four and one: the four resample, the one cannot; a rank test over 4 and 1 gives 0.4 */
    w = judged(n4, 4, o1, 1, 0.01, &reg);
    CHECK(w.too_few && w.test == TKS__TEST_NONE);
    CHECK_NEAR(w.min_p, 0.4, 1e-12);
}

/* The bootstrap where it holds: Google Benchmark's aggregates carry the spread of their
 * repetitions, so one figure a side is a mean with a between-run error. */
static const char *gb_aggregate(double mean, double sd, int reps)
{
    static char buf[4][600];
    static int which;
    char *b = buf[which++ % 4];
    snprintf(b, 600, "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": ["
             "{\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\","
             " \"aggregate_name\": \"mean\", \"repetitions\": %d, \"real_time\": %g, \"time_unit\": \"ns\"},"
             "{\"name\": \"BM_a_stddev\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\","
             " \"aggregate_name\": \"stddev\", \"repetitions\": %d, \"real_time\": %g, \"time_unit\": \"ns\"}]}",
             reps, mean, reps, sd);
    return b;
}

static void bootstrap_rows(void)
{
    tks__cmp_file fa, fb, fc, f2a, f2b;
    tks__cmp_result r;
    /* 5 repetitions each: standard errors 0.2 / sqrt 5; 100 against 100.3 is within +-1%:
     * same; against 110 slower by 10% */
    CHECK(read_doc(gb_aggregate(100, 0.2, 5), &fa) == 0);
    CHECK(read_doc(gb_aggregate(100.3, 0.2, 5), &fb) == 0);
    CHECK(read_doc(gb_aggregate(110, 0.2, 5), &fc) == 0);
    CHECK(fa.b[0].se_between && fa.b[0].runs == 5 && fa.b[0].n == 1);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].test == TKS__TEST_BOOTSTRAP && !r.rows[0].too_few);
    CHECK_NEAR(r.rows[0].min_p, 2.0 / 252, 1e-12); /* over the 5 and 5 runs behind the means */
    CHECK_EQ_U64(r.diags.n, 0);
    CHECK_NEAR(r.rows[0].change, 0.003, 1e-9);
    CHECK(r.rows[0].lo < 0.003 && r.rows[0].hi > 0.003 && r.rows[0].hi < 0.01);
    CHECK(r.rows[0].verdict == TKS__SAME);
    tks__cmp_result_free(&r);
    CHECK(tks__cmp_files(&fa, &fc, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].verdict == TKS__SLOWER && r.rows[0].regression);
    /* 10% +- 1.96 * sqrt(2) * 0.2 / sqrt(5) / 100, roughly */
    CHECK(r.rows[0].lo > 0.097 && r.rows[0].hi < 0.103);
    CHECK(r.rows[0].p < 0.001);
    tks__cmp_result_free(&r);
    /* with a huge threshold, even 10% is "same" */
    CHECK(tks__cmp_files(&fa, &fc, 0.5, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].verdict == TKS__SAME);
    tks__cmp_result_free(&r);
    /* the same means over 2 repetitions each: a rank test over 2 and 2 runs gives no less than
     * 1/3, so no bootstrap either, and a warning says how to get a test; 10% is within what
     * the assumed spread can give, so the 5% gate cannot test it (issue 46) */
    CHECK(read_doc(gb_aggregate(100, 0.2, 2), &f2a) == 0);
    CHECK(read_doc(gb_aggregate(110, 0.2, 2), &f2b) == 0);
    CHECK(tks__cmp_files(&f2a, &f2b, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].too_few && r.rows[0].verdict == TKS__INCONCLUSIVE && !r.rows[0].regression);
    CHECK(r.rows[0].not_tested && r.not_tested == 1);
    CHECK_NEAR(r.rows[0].min_p, 1.0 / 3, 1e-12);
    CHECK_EQ_U64(r.diags.n, 3);
    CHECK_EQ_U64(r.diags.items[0].code, TKS_DIAG_CMP_TOO_FEW_RUNS);
    CHECK_EQ_U64(r.diags.items[1].code, TKS_DIAG_CMP_GATE_ASSUMED);
    CHECK_EQ_U64(r.diags.items[2].code, TKS_DIAG_CMP_NOT_TESTED);
    tks__cmp_result_free(&r);
    /* Google Benchmark's aggregates beside our repetitions of one process (5 at 110 ns): tested,
     * and the warning names our side's one process all the same */
    {
        const double v[] = {400.4, 400.8, 400.0, 400.6, 400.2}; /* core cycles: ns x 1.4 x 2.6 */
        tks__cmp_file fo;
        CHECK(read_doc(ours("h", "lfence", 2.6e9, "BM_a", v, 5, 0.1), &fo) == 0);
        CHECK(fo.b[0].one_process);
        CHECK(tks__cmp_files(&fa, &fo, 0.01, -1, &r, g_err, sizeof g_err) == 0);
        CHECK(r.rows[0].unit == TKS__UNIT_NS && r.rows[0].test != TKS__TEST_NONE);
        CHECK(r.rows[0].verdict == TKS__SLOWER);
        CHECK_EQ_U64(r.diags.n, 2); /* the tools differ, and this */
        CHECK_EQ_U64(r.diags.items[0].code, TKS_DIAG_CMP_TOOLS_DIFFER);
        CHECK_EQ_U64(r.diags.items[1].code, TKS_DIAG_CMP_ONE_PROCESS);
        tks__cmp_result_free(&r);
        tks__cmp_file_free(&fo);
    }
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
    tks__cmp_file_free(&fc);
    tks__cmp_file_free(&f2a);
    tks__cmp_file_free(&f2b);
}

static void processes_and_context(void)
{
    /* one row with per-process figures and a between-run interval (issue 13's --processes) */
    const char *p = "{\"context\": {\"host_name\": \"other\", \"tickscope_version\": \"0.2.0\","
                    " \"method\": \"rdtscp\", \"mode\": \"throughput\", \"tsc\": {\"hz\": 2.3e9},"
                    " \"cpu\": {\"brand\": \"Y\", \"vendor\": \"V\", \"family\": 6, \"model\": 207}},"
                    " \"benchmarks\": [{\"name\": \"bm\", \"run_type\": \"iteration\", \"real_time\": 1,"
                    " \"ticks\": 80, \"ticks_ci\": [79, 81], \"core_cycles\": 100,"
                    " \"core_cycles_ci\": [99.9, 100.1], \"between_run\": {\"processes\": 4,"
                    " \"core_cycles_ci\": [99, 101],"
                    " \"ticks_ci\": [78, 82]}, \"process_figures\": ["
                    "{\"ticks\": 80, \"core_cycles\": 99.5, \"ns\": 34.7},"
                    "{\"ticks\": 80, \"core_cycles\": 100.5, \"ns\": 34.7},"
                    "{\"ticks\": 80, \"core_cycles\": 100, \"ns\": 34.7},"
                    "{\"ticks\": 80, \"core_cycles\": 99.8, \"ns\": 34.7}]}]}";
    const double a[] = {100, 100.2, 99.9, 100.1, 99.8};
    tks__cmp_file fa, fp;
    tks__cmp_result r;
    CHECK(read_doc(p, &fp) == 0);
    CHECK_EQ_U64(fp.b[0].n, 4);
    CHECK_NEAR(fp.b[0].fig[TKS__UNIT_CORE][1], 100.5, 0);
    CHECK_NEAR(fp.b[0].se[TKS__UNIT_CORE][0], 0.2 / 3.92, 1e-12);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", a, 5, 0.1), &fa) == 0);
    CHECK(tks__cmp_files(&fa, &fp, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    /* 5 and 4 figures: the U test, in core cycles although the TSC rates differ */
    CHECK(r.rows[0].test == TKS__TEST_UTEST && r.rows[0].unit == TKS__UNIT_CORE);
    CHECK_EQ_U64(r.rows[0].n_new, 4);
    CHECK(r.rows[0].verdict == TKS__SAME);
    /* host, CPU, TSC rate, method, mode, version; the old side's figures are one process's */
    CHECK_EQ_U64(r.diags.n, 7);
    CHECK_EQ_U64(r.diags.items[0].code, TKS_DIAG_CMP_HOSTS_DIFFER);
    CHECK_EQ_U64(r.diags.items[1].code, TKS_DIAG_CMP_CPUS_DIFFER);
    CHECK_EQ_U64(r.diags.items[2].code, TKS_DIAG_CMP_TSC_DIFFER);
    CHECK_EQ_U64(r.diags.items[3].code, TKS_DIAG_CMP_METHODS_DIFFER);
    CHECK_EQ_U64(r.diags.items[4].code, TKS_DIAG_CMP_MODES_DIFFER);
    CHECK_EQ_U64(r.diags.items[5].code, TKS_DIAG_CMP_VERSIONS_DIFFER);
    CHECK_EQ_U64(r.diags.items[6].code, TKS_DIAG_CMP_ONE_PROCESS);
    tks__cmp_result_free(&r);
    /* processes on both sides: tested across processes, nothing to say */
    CHECK(tks__cmp_files(&fp, &fp, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].test == TKS__TEST_UTEST);
    CHECK_EQ_U64(r.diags.n, 0);
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fp);
}

static void google_benchmark(void)
{
    /* Google Benchmark: per-repetition rows in us, aggregates skipped, an errored row ignored */
    const char *g1 = "{\"context\": {\"host_name\": \"h\", \"num_cpus\": 2, \"mhz_per_cpu\": 2600,"
                     " \"library_build_type\": \"release\"}, \"benchmarks\": ["
                     "{\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\", \"real_time\": 1.0, \"time_unit\": \"us\"},"
                     "{\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\", \"real_time\": 1.1, \"time_unit\": \"us\"},"
                     "{\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\", \"real_time\": 0.9, \"time_unit\": \"us\"},"
                     "{\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\", \"real_time\": 1.0, \"time_unit\": \"us\"},"
                     "{\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 1.0, \"time_unit\": \"us\"},"
                     "{\"name\": \"BM_bad\", \"run_name\": \"BM_bad\", \"error_occurred\": true, \"error_message\": \"x\"}]}";
    /* --benchmark_report_aggregates_only: the mean, its error from the stddev */
    const char *g2 = "{\"context\": {\"host_name\": \"h\", \"library_build_type\": \"debug\"}, \"benchmarks\": ["
                     "{\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\","
                     " \"repetitions\": 4, \"real_time\": 2000, \"time_unit\": \"ns\"},"
                     "{\"name\": \"BM_a_stddev\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\", \"aggregate_name\": \"stddev\","
                     " \"repetitions\": 4, \"real_time\": 20, \"time_unit\": \"ns\"}]}";
    tks__cmp_file f1, f2;
    tks__cmp_result r;
    CHECK(read_doc(g1, &f1) == 0);
    CHECK(!f1.ours);
    CHECK_EQ_U64(f1.n, 1);
    CHECK_EQ_U64(f1.b[0].n, 4);
    CHECK(!f1.b[0].has[TKS__UNIT_CORE] && f1.b[0].has[TKS__UNIT_NS]);
    CHECK_NEAR(f1.b[0].fig[TKS__UNIT_NS][1], 1100, 1e-9);
    CHECK(read_doc(g2, &f2) == 0);
    CHECK_EQ_U64(f2.b[0].n, 1);
    CHECK_NEAR(f2.b[0].se[TKS__UNIT_NS][0], 10, 1e-9);
    CHECK(tks__cmp_files(&f1, &f2, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].unit == TKS__UNIT_NS && r.rows[0].test == TKS__TEST_BOOTSTRAP);
    CHECK_NEAR(r.rows[0].change, 1.0, 1e-9);
    CHECK(r.rows[0].verdict == TKS__SLOWER);
    CHECK_EQ_U64(r.diags.n, 1);
    CHECK_EQ_U64(r.diags.items[0].code, TKS_DIAG_CMP_DEBUG_BUILD);
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&f1);
    tks__cmp_file_free(&f2);
}

static void refusals(void)
{
    static const struct { const char *doc, *why; } bad[] = {
        {"not json", "not JSON"},
        {"{\"benchmarks\": [1,", "not JSON"},
        {"[1, 2]", "no \"benchmarks\" array"},
        {"{\"cpu\": {}, \"tsc\": {}}", "tickscope info --json"},
        {"{\"benchmarks\": [{\"foo\": 1}]}", "another tool"},
        {"{\"benchmarks\": []}", "no benchmarks"},
        {"{\"benchmarks\": [{\"name\": \"a\", \"error_occurred\": true}]}", "all 1 failed"},
    };
    const double a[] = {1}, b[] = {1};
    tks__cmp_file fa, fb;
    tks__cmp_result r;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tks__cmp_file f;
        g_err[0] = 0;
        CHECK(read_doc(bad[i].doc, &f) == TKS_EINVAL);
        CHECK(strstr(g_err, bad[i].why) != NULL);
        if (!strstr(g_err, bad[i].why))
            fprintf(stderr, "'%s': %s\n", bad[i].doc, g_err);
        CHECK(!strchr(g_err, '\n'));
    }
    /* no name in common */
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "one", a, 1, 0.1), &fa) == 0);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "two", b, 1, 0.1), &fb) == 0);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, -1, &r, g_err, sizeof g_err) == TKS_EINVAL);
    CHECK(strstr(g_err, "share no benchmark") && strstr(g_err, "one") && strstr(g_err, "two"));
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
}

/* A Google Benchmark file of BM_a's five repetitions, the fourth (repetition_index 3) with its
 * real_time, cpu_time and time_unit written as given. */
static const char *gb_corrupt(const char *real_time, const char *cpu_time, const char *unit)
{
    static char b[2048];
    size_t o = (size_t)snprintf(b, sizeof b, "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [");
    for (int i = 0; i < 5; i++)
        o += (size_t)snprintf(b + o, sizeof b - o,
                              "%s{\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\","
                              " \"repetition_index\": %d, \"real_time\": %s, \"cpu_time\": %s,"
                              " \"time_unit\": %s}", i ? ", " : "", i, i == 3 ? real_time : "110",
                              i == 3 ? cpu_time : "110", i == 3 ? unit : "\"ns\"");
    snprintf(b + o, sizeof b - o, "]}");
    return b;
}

static void corrupt_figures(void)
{
    static const struct { const char *rt, *cpu, *unit, *why; } bad[] = {
        {"-1e9", "110", "\"ns\"", "benchmark 'BM_a' repetition_index 3: real_time is -1e+09: "
                                "Google Benchmark times whole iterations, so a time of zero or "
                                "below cannot be"},
        {"0", "110", "\"ns\"", "repetition_index 3: real_time is 0: Google Benchmark"},
        {"110", "-5", "\"ns\"", "repetition_index 3: cpu_time is -5: Google Benchmark"},
        {"1e999", "110", "\"ns\"", "benchmark 'BM_a' repetition_index 3: real_time is inf, not a "
                                   "finite number"},
        {"NaN", "110", "\"ns\"", "repetition_index 3: real_time is nan, not a finite number"},
        {"-Infinity", "110", "\"ns\"", "real_time is -inf, not a finite number"},
        {"\"110\"", "110", "\"ns\"", "repetition_index 3: real_time is not a number"},
        {"null", "110", "\"ns\"", "repetition_index 3: real_time is null"},
        {"110", "110", "\"fortnights\"", "benchmark 'BM_a' repetition_index 3: time_unit "
                                        "'fortnights' is not one of ns, us, ms, s"},
        {"110", "110", "3", "repetition_index 3: time_unit is not a string"},
    };
    tks__cmp_file f;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g_err[0] = 0;
        CHECK(read_doc(gb_corrupt(bad[i].rt, bad[i].cpu, bad[i].unit), &f) == TKS_EINVAL);
        CHECK(strstr(g_err, bad[i].why) != NULL);
        if (!strstr(g_err, bad[i].why))
            fprintf(stderr, "real_time %s: '%s'\n", bad[i].rt, g_err);
    }
    /* the same file with a sound fourth repetition reads */
    CHECK(read_doc(gb_corrupt("110", "110", "\"us\""), &f) == 0);
    CHECK_NEAR(f.b[0].fig[TKS__UNIT_NS][3], 110000, 1e-9);
    tks__cmp_file_free(&f);

    /* ours: ticks are required, core cycles and ns may be null (no core clock, no TSC rate),
     * and a figure may be zero or below (the empty window is subtracted); a broken interval or
     * a per-process figure that is not a number is refused */
    static const struct { const char *row, *why; } ours_bad[] = {
        {"\"real_time\": 1, \"core_cycles\": 2", "benchmark 'bm' row 0: ticks is missing"},
        {"\"real_time\": 1, \"ticks\": \"x\"", "benchmark 'bm' row 0: ticks is not a number"},
        {"\"real_time\": 1, \"ticks\": 5, \"ticks_ci\": [6, 4]", "ticks_ci is not an interval"},
        {"\"real_time\": 1, \"ticks\": 5, \"core_cycles\": NaN", "core_cycles is nan"},
        {"\"real_time\": 1, \"ticks\": 5, \"process_figures\": [{\"ticks\": 5}, {\"ticks\": null}]",
         "benchmark 'bm' process_figures 1: ticks is null"},
    };
    for (size_t i = 0; i < sizeof ours_bad / sizeof ours_bad[0]; i++) {
        char doc[600];
        snprintf(doc, sizeof doc, "{\"context\": {\"tickscope_version\": \"0.1.0\"}, \"benchmarks\": "
                 "[{\"name\": \"bm\", \"run_type\": \"iteration\", %s}]}", ours_bad[i].row);
        g_err[0] = 0;
        CHECK(read_doc(doc, &f) == TKS_EINVAL);
        CHECK(strstr(g_err, ours_bad[i].why) != NULL);
        if (!strstr(g_err, ours_bad[i].why))
            fprintf(stderr, "%s: '%s'\n", ours_bad[i].row, g_err);
    }
    CHECK(read_doc("{\"context\": {\"tickscope_version\": \"0.1.0\"}, \"benchmarks\": [{\"name\": "
                   "\"bm\", \"real_time\": null, \"ticks\": -0.4, \"ticks_ci\": [-1, 0.2], "
                   "\"core_cycles\": null, \"core_cycles_ci\": [null, null]}]}", &f) == 0);
    CHECK(!f.b[0].has[TKS__UNIT_CORE] && !f.b[0].has[TKS__UNIT_NS] && f.b[0].has[TKS__UNIT_TICKS]);
    CHECK_NEAR(f.b[0].fig[TKS__UNIT_TICKS][0], -0.4, 0);
    tks__cmp_file_free(&f);
    /* aggregates: a negative standard deviation, a repetition count that is not one */
    g_err[0] = 0;
    CHECK(read_doc(gb_aggregate(100, -1, 5), &f) == TKS_EINVAL);
    CHECK(strstr(g_err, "benchmark 'BM_a' row 1: a standard deviation of -1") != NULL);
    g_err[0] = 0;
    CHECK(read_doc(gb_aggregate(-100, 1, 5), &f) == TKS_EINVAL);
    CHECK(strstr(g_err, "benchmark 'BM_a' row 0: real_time is -100") != NULL);
}

static void verdicts(void)
{
    CHECK(tks__verdict_of(0.001, -0.005, 0.008, 0.01) == TKS__SAME);
    CHECK(tks__verdict_of(0.004, 0.002, 0.006, 0.01) == TKS__SAME); /* real, under half the threshold */
    CHECK(tks__verdict_of(0.006, 0.004, 0.008, 0.01) == TKS__SLOWER); /* over half of it */
    CHECK(tks__verdict_of(0.005, 0.001, 0.009, 0.01) == TKS__SLOWER); /* exactly half */
    CHECK(tks__verdict_of(0.01, 0.004, 0.016, 0.01) == TKS__SLOWER);
    CHECK(tks__verdict_of(-0.025, -0.03, -0.02, 0.01) == TKS__FASTER);
    CHECK(tks__verdict_of(-0.004, -0.006, -0.002, 0.01) == TKS__SAME);
    CHECK(tks__verdict_of(0, -0.02, 0.02, 0.01) == TKS__INCONCLUSIVE);
    CHECK(tks__verdict_of(0.004, 0.002, 0.014, 0.01) == TKS__INCONCLUSIVE); /* small but wide */
    CHECK(tks__verdict_of(NAN, NAN, NAN, 0.01) == TKS__INCONCLUSIVE);
    /* a called change stands only with the test's p below 0.05: at 0.05, or with no test, it
     * is inconclusive; same and inconclusive stay what they are */
    CHECK(tks__verdict_tested(0.02, 0.01, 0.03, 0.049, 0.01) == TKS__SLOWER);
    CHECK(tks__verdict_tested(0.02, 0.01, 0.03, 0.05, 0.01) == TKS__INCONCLUSIVE);
    CHECK(tks__verdict_tested(-0.02, -0.03, -0.01, 0.2, 0.01) == TKS__INCONCLUSIVE);
    CHECK(tks__verdict_tested(-0.02, -0.03, -0.01, 0.01, 0.01) == TKS__FASTER);
    CHECK(tks__verdict_tested(0.02, 0.01, 0.03, NAN, 0.01) == TKS__INCONCLUSIVE);
    CHECK(tks__verdict_tested(0.001, -0.005, 0.008, 0.9, 0.01) == TKS__SAME);
}

int main(void)
{
    utest_rows();
    too_few_runs();
    bootstrap_rows();
    processes_and_context();
    google_benchmark();
    refusals();
    corrupt_figures();
    verdicts();
    CHECK_DONE();
}
