/* test_analysis_compare.c: `tickscope compare`'s library part on synthetic result files: the
 * unit and test chosen for the figures at hand, the change and verdict, per-process figures,
 * Google Benchmark's files, context warnings, the gate, and the refusals. */
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
    CHECK_EQ_U64(r.n_warnings, 0);
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

static void bootstrap_rows(void)
{
    /* one figure a side with its interval: the bootstrap; 100 +- 0.2 against 100.3 +- 0.2 is
     * inside +-1%: same; against 110 +- 0.2 it is slower by 10% */
    const double a[] = {100}, b[] = {100.3}, c[] = {110};
    tks__cmp_file fa, fb, fc;
    tks__cmp_result r;
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", a, 1, 0.2), &fa) == 0);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", b, 1, 0.2), &fb) == 0);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", c, 1, 0.2), &fc) == 0);
    CHECK(tks__cmp_files(&fa, &fb, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].test == TKS__TEST_BOOTSTRAP);
    /* one figure with a within-run interval: said to cover no run-to-run drift */
    CHECK_EQ_U64(r.n_warnings, 1);
    CHECK(strstr(r.warnings[0], "within-run only") != NULL);
    CHECK_NEAR(r.rows[0].change, 0.003, 1e-9);
    CHECK(r.rows[0].lo < 0.003 && r.rows[0].hi > 0.003 && r.rows[0].hi < 0.01);
    CHECK(r.rows[0].verdict == TKS__SAME);
    tks__cmp_result_free(&r);
    CHECK(tks__cmp_files(&fa, &fc, 0.01, 0.05, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].verdict == TKS__SLOWER && r.rows[0].regression);
    /* 10% +- 1.96 * sqrt(2) * 0.2 / 1.96 / 100 * 1.1, roughly */
    CHECK(r.rows[0].lo > 0.094 && r.rows[0].hi < 0.106);
    tks__cmp_result_free(&r);
    /* with a huge threshold, even 10% is "same" */
    CHECK(tks__cmp_files(&fa, &fc, 0.5, -1, &r, g_err, sizeof g_err) == 0);
    CHECK(r.rows[0].verdict == TKS__SAME);
    tks__cmp_result_free(&r);
    tks__cmp_file_free(&fa);
    tks__cmp_file_free(&fb);
    tks__cmp_file_free(&fc);
}

static void processes_and_context(void)
{
    /* one row with per-process figures and a between-run interval (issue 13's --processes) */
    const char *p = "{\"context\": {\"host_name\": \"other\", \"tickscope_version\": \"0.2.0\","
                    " \"method\": \"rdtscp\", \"mode\": \"throughput\", \"tsc\": {\"hz\": 2.3e9},"
                    " \"cpu\": {\"brand\": \"Y\", \"vendor\": \"V\", \"family\": 6, \"model\": 207}},"
                    " \"benchmarks\": [{\"name\": \"bm\", \"run_type\": \"iteration\", \"real_time\": 1,"
                    " \"ticks\": 80, \"ticks_ci\": [79, 81], \"core_cycles\": 100,"
                    " \"core_cycles_ci\": [99.9, 100.1], \"between_run\": {\"core_cycles_ci\": [99, 101],"
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
    CHECK(fp.b[0].between);
    CHECK_NEAR(fp.b[0].fig[TKS__UNIT_CORE][1], 100.5, 0);
    CHECK_NEAR(fp.b[0].se[TKS__UNIT_CORE][0], 0.2 / 3.92, 1e-12);
    CHECK(read_doc(ours("h", "lfence", 2.6e9, "bm", a, 5, 0.1), &fa) == 0);
    CHECK(tks__cmp_files(&fa, &fp, 0.01, -1, &r, g_err, sizeof g_err) == 0);
    /* 5 and 4 figures: the U test, in core cycles although the TSC rates differ */
    CHECK(r.rows[0].test == TKS__TEST_UTEST && r.rows[0].unit == TKS__UNIT_CORE);
    CHECK_EQ_U64(r.rows[0].n_new, 4);
    CHECK(r.rows[0].verdict == TKS__SAME);
    /* host, CPU, TSC rate, method, mode, version */
    CHECK_EQ_U64(r.n_warnings, 6);
    CHECK(strstr(r.warnings[0], "different machines") != NULL);
    CHECK(strstr(r.warnings[1], "different CPUs") != NULL);
    CHECK(strstr(r.warnings[2], "TSC rates") != NULL);
    CHECK(strstr(r.warnings[3], "clock methods") != NULL);
    CHECK(strstr(r.warnings[4], "modes") != NULL);
    CHECK(strstr(r.warnings[5], "versions") != NULL);
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
    CHECK_EQ_U64(r.n_warnings, 1);
    CHECK(strstr(r.warnings[0], "debugging") != NULL);
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
}

int main(void)
{
    utest_rows();
    bootstrap_rows();
    processes_and_context();
    google_benchmark();
    refusals();
    verdicts();
    CHECK_DONE();
}
