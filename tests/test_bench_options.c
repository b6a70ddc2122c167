/* SPDX-License-Identifier: MIT */
/* test_bench_options.c: the runner's options: defaults, every option in both spellings, Google
 * Benchmark's names, and one-line errors for what is wrong. */
#include "check.h"
#include "tickscope/bench.h"

static int parse(tks_options *o, char *err, size_t n, const char *a, const char *b, const char *c)
{
    char *argv[5] = {(char *)"prog", (char *)a, (char *)b, (char *)c, NULL};
    int argc = 1 + (a != NULL) + (b != NULL) + (c != NULL);
    tks_options_init(o);
    return tks_options_parse(o, argc, argv, err, n);
}

/* Each bad[i][0] alone: exit code 2 and a reason holding bad[i][1]. */
static void refused(const char *const (*bad)[2], size_t n)
{
    tks_options o;
    char err[300];
    for (size_t i = 0; i < n; i++) {
        int rc = parse(&o, err, sizeof err, bad[i][0], NULL, NULL);
        if (rc != 2 || !strstr(err, bad[i][1]))
            fprintf(stderr, "%s: rc %d, '%s'\n", bad[i][0], rc, err);
        CHECK(rc == 2 && strstr(err, bad[i][1]) != NULL);
    }
}

static void test_defaults(void)
{
    tks_options o;
    char err[200];
    CHECK(parse(&o, err, sizeof err, NULL, NULL, NULL) == 0);
    CHECK(o.method == -1);
    CHECK(o.mode == TKS_MODE_LATENCY);
    CHECK_NEAR(o.min_time, 0.2, 0);
    CHECK_EQ_U64(o.repetitions, 1);
    CHECK(o.pin_cpu == -1);
    CHECK(o.format == TKS_FORMAT_CONSOLE);
    CHECK(!o.isolate && !o.fifo && !o.histogram && !o.list && !o.filter && !o.out && !o.raw &&
          !o.plot_dir);
}

static void test_values(void)
{
    tks_options o;
    char err[200];
    CHECK(parse(&o, err, sizeof err, "--mode=throughput", "--min-time", "0.05") == 0);
    CHECK(o.mode == TKS_MODE_THROUGHPUT);
    CHECK_NEAR(o.min_time, 0.05, 0);
    CHECK(parse(&o, err, sizeof err, "--filter", "^add", "--format=json") == 0);
    CHECK_STR(o.filter, "^add");
    CHECK(o.format == TKS_FORMAT_JSON);
    CHECK(parse(&o, err, sizeof err, "--repetitions=3", "--pin=0", "--isolate") == 0);
    CHECK_EQ_U64(o.repetitions, 3);
    CHECK(o.pin_cpu == 0 && o.isolate);
    CHECK(parse(&o, err, sizeof err, "--out=a.json", "--raw=b.csv", "--plot=dir") == 0);
    CHECK_STR(o.out, "a.json");
    CHECK_STR(o.raw, "b.csv");
    CHECK_STR(o.plot_dir, "dir");
    CHECK(parse(&o, err, sizeof err, "--histogram", "--list", "--fifo") == 0);
    CHECK(o.histogram && o.list && o.fifo);
    CHECK(parse(&o, err, sizeof err, "--tsc-hz=2.3GHz", "--recalibrate", "--quiet") == 0);
    CHECK_NEAR(o.tsc_hz, 2.3e9, 1);
    CHECK(o.recalibrate && o.quiet);
    CHECK(parse(&o, err, sizeof err, "--format", "markdown", NULL) == 0);
    CHECK(o.format == TKS_FORMAT_MARKDOWN);
    CHECK(parse(&o, err, sizeof err, "--format", "csv", NULL) == 0);
    CHECK(o.format == TKS_FORMAT_CSV);
#if defined(TKS_ARCH_X86)
    if (tks_method_available(TKS_METHOD_RDTSC, tks_cpu_features_get())) {
        CHECK(parse(&o, err, sizeof err, "--method", "rdtsc", NULL) == 0);
        CHECK(o.method == TKS_METHOD_RDTSC);
    }
#endif
}

/* Google Benchmark's flags, each mapped onto ours (src/program/gbflags.c). */
static void test_google_benchmark_names(void)
{
    tks_options o;
    char err[200];
    CHECK(parse(&o, err, sizeof err, "--benchmark_filter=x", "--benchmark_format=json",
                "--benchmark_min_time=0.5s") == 0);
    CHECK_STR(o.filter, "x");
    CHECK(o.format == TKS_FORMAT_JSON);
    CHECK_NEAR(o.min_time, 0.5, 0);
    CHECK_EQ_U64(o.windows, 0);
    CHECK(parse(&o, err, sizeof err, "--benchmark_repetitions=4", "--benchmark_out=o.json",
                "--benchmark_list_tests") == 0);
    CHECK_EQ_U64(o.repetitions, 4);
    /* --benchmark_out is a second report, JSON by default, as Google writes it; stdout keeps
     * the console table. */
    CHECK_STR(o.report_file, "o.json");
    CHECK(o.out == NULL);
    CHECK(o.report_file_format == TKS_FORMAT_JSON && o.format == TKS_FORMAT_CONSOLE);
    CHECK(o.list);
    CHECK(parse(&o, err, sizeof err, "--benchmark_out", "o.csv", "--benchmark_out_format=csv") == 0);
    CHECK_STR(o.report_file, "o.csv");
    CHECK(o.report_file_format == TKS_FORMAT_CSV);
    CHECK(parse(&o, err, sizeof err, "--benchmark_out_format", "console", NULL) == 0);
    CHECK(o.report_file_format == TKS_FORMAT_CONSOLE);
    /* Nx: N windows instead of a time; a plain number is seconds (Google's older spelling). */
    CHECK(parse(&o, err, sizeof err, "--benchmark_min_time=100x", NULL, NULL) == 0);
    CHECK_EQ_U64(o.windows, 100);
    CHECK(parse(&o, err, sizeof err, "--benchmark_min_time=100x", "--benchmark_min_time=0.25", NULL) == 0);
    CHECK_EQ_U64(o.windows, 0); /* the last one given wins */
    CHECK_NEAR(o.min_time, 0.25, 0);
    CHECK(parse(&o, err, sizeof err, "--benchmark_list_tests=false", NULL, NULL) == 0);
    CHECK(!o.list);
    CHECK(parse(&o, err, sizeof err, "--benchmark_list_tests=true", NULL, NULL) == 0);
    CHECK(o.list);
    CHECK(parse(&o, err, sizeof err, "--benchmark_list_tests=1", NULL, NULL) == 0);
    CHECK(o.list);
    CHECK(parse(&o, err, sizeof err, "--benchmark_filter=all", NULL, NULL) == 0);
    CHECK(o.filter == NULL); /* Google's word for everything */
    CHECK(parse(&o, err, sizeof err, "--benchmark_filter=", NULL, NULL) == 0);
    CHECK(o.filter == NULL);
    /* Wrong values: exit code 2 and a reason naming the flag. */
    static const char *const bad[][2] = {
        {"--benchmark_min_time=0x", "--benchmark_min_time"},
        {"--benchmark_min_time=x", "--benchmark_min_time"},
        {"--benchmark_min_time=-1s", "--benchmark_min_time"},
        {"--benchmark_min_time=1e99x", "--benchmark_min_time"},
        {"--benchmark_min_time=", "--benchmark_min_time"},
        {"--benchmark_out_format=xml", "--benchmark_out_format"},
        {"--benchmark_format=yaml", "--benchmark_format"},
        {"--benchmark_out=", "--benchmark_out"},
        {"--benchmark_repetitions=0", "--benchmark_repetitions"},
        {"--benchmark_repetitions=many", "--benchmark_repetitions"},
        {"--benchmark_list_tests=maybe", "--benchmark_list_tests"},
        {"--benchmark_out", "--benchmark_out needs a value"},
        {"--benchmark_colour=yes", "unknown option"},
    };
    refused(bad, sizeof bad / sizeof bad[0]);
}

/* The rest of Google Benchmark 1.7's flags (and 1.9's dry run): each sets its member; a boolean
 * alone is true; a wrong value is exit code 2 naming the flag and what it accepts. */
static void test_google_benchmark_17(void)
{
    tks_options o;
    char err[300];
    CHECK(parse(&o, err, sizeof err, "--benchmark_report_aggregates_only",
                "--benchmark_display_aggregates_only=true", "--benchmark_enable_random_interleaving=yes") == 0);
    CHECK(o.report_aggregates_only && o.display_aggregates_only && o.random_interleaving);
    CHECK(parse(&o, err, sizeof err, "--benchmark_report_aggregates_only=false",
                "--benchmark_counters_tabular=ON", "--benchmark_dry_run") == 0);
    CHECK(!o.report_aggregates_only && o.counters_tabular && o.dry_run);
    CHECK(parse(&o, err, sizeof err, "--benchmark_dry_run=0", "--benchmark_counters_tabular=n", NULL) == 0);
    CHECK(!o.dry_run && !o.counters_tabular);
    CHECK(o.time_unit == TKS_TIME_NS && o.color == -1 && o.verbosity == 0 && !o.context &&
          !o.counters && o.min_warmup_time == 0);
    static const char *const units[] = {"ns", "us", "ms", "s"};
    for (int u = 0; u < 4; u++) {
        char a[64];
        snprintf(a, sizeof a, "--benchmark_time_unit=%s", units[u]);
        CHECK(parse(&o, err, sizeof err, a, NULL, NULL) == 0);
        CHECK(o.time_unit == (enum tks_time_unit)u);
    }
    CHECK(parse(&o, err, sizeof err, "--benchmark_context=cpu=zen5,run=7", "--v=2",
                "--benchmark_min_warmup_time=0.25") == 0);
    CHECK_STR(o.context, "cpu=zen5,run=7");
    CHECK(o.verbosity == 2);
    CHECK_NEAR(o.min_warmup_time, 0.25, 0);
    CHECK(parse(&o, err, sizeof err, "--benchmark_color=auto", "--benchmark_min_warmup_time=0", NULL) == 0);
    CHECK(o.color == -1 && o.min_warmup_time == 0);
    CHECK(parse(&o, err, sizeof err, "--benchmark_color=false", NULL, NULL) == 0);
    CHECK(o.color == 0);
    CHECK(parse(&o, err, sizeof err, "--benchmark_color=Yes", NULL, NULL) == 0);
    CHECK(o.color == 1);
    CHECK(parse(&o, err, sizeof err, "--benchmark_perf_counters=CYCLES,INSTRUCTIONS", NULL, NULL) == 0);
    CHECK_STR(o.counters, "CYCLES,INSTRUCTIONS");
    CHECK(parse(&o, err, sizeof err, "--benchmark_perf_counters=", NULL, NULL) == 0);
    CHECK(o.counters == NULL); /* Google's default, "": none */
    CHECK(parse(&o, err, sizeof err, "--random-seed", "42", NULL) == 0);
    CHECK(o.random_seed == 42);
    CHECK(parse(&o, err, sizeof err, "--benchmark_filter=-^add", NULL, NULL) == 0);
    CHECK_STR(o.filter, "-^add");
    static const char *const bad[][2] = {
        {"--benchmark_report_aggregates_only=maybe", "--benchmark_report_aggregates_only: 'maybe' is not true, false"},
        {"--benchmark_display_aggregates_only=2", "--benchmark_display_aggregates_only"},
        {"--benchmark_enable_random_interleaving=", "--benchmark_enable_random_interleaving"},
        {"--benchmark_counters_tabular=x", "--benchmark_counters_tabular"},
        {"--benchmark_dry_run=perhaps", "--benchmark_dry_run"},
        {"--benchmark_time_unit=min", "--benchmark_time_unit: 'min' is not ns, us, ms or s"},
        {"--benchmark_time_unit=", "--benchmark_time_unit"},
        {"--benchmark_color=blue", "--benchmark_color: 'blue' is not auto, true, false"},
        {"--benchmark_context=a", "--benchmark_context needs key=value pairs"},
        {"--benchmark_context==1", "--benchmark_context"},
        {"--benchmark_context=a=1,", "--benchmark_context"},
        {"--benchmark_context=a=1=2", "--benchmark_context"},
        {"--benchmark_context=", "--benchmark_context"},
        {"--benchmark_min_warmup_time=-1", "--benchmark_min_warmup_time needs seconds"},
        {"--benchmark_min_warmup_time=soon", "--benchmark_min_warmup_time"},
        {"--v=loud", "--v needs a whole number"},
        {"--v=", "--v"},
        {"--random-seed=0", "--random-seed needs a whole number"},
        {"--benchmark_perf_counters", "--benchmark_perf_counters needs a list"},
    };
    refused(bad, sizeof bad / sizeof bad[0]);
}

static void test_errors(void)
{
    tks_options o;
    char err[200];
    CHECK(parse(&o, err, sizeof err, "--bogus", NULL, NULL) == 2);
    CHECK(strstr(err, "unknown option '--bogus'") != NULL);
    CHECK(parse(&o, err, sizeof err, "--mode", "fast", NULL) == 2);
    CHECK(strstr(err, "latency or throughput") != NULL);
    CHECK(parse(&o, err, sizeof err, "--format", "xml", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--min-time", "0", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--min-time", "-1", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--repetitions", "0", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--pin", "x", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--method", "warp", NULL) == 2);
    CHECK(strstr(err, "unknown method 'warp'") != NULL);
    CHECK(parse(&o, err, sizeof err, "--method", "cr0", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--tsc-hz", "-5", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--out", "", NULL) == 2);
    CHECK(parse(&o, err, sizeof err, "--filter", NULL, NULL) == 2);
    CHECK(strstr(err, "--filter needs a value") != NULL);
    CHECK(parse(&o, err, sizeof err, "--help", NULL, NULL) == 1);
    CHECK(parse(&o, err, sizeof err, "-h", NULL, NULL) == 1);
    CHECK(strstr(tks_options_help(), "--isolate") != NULL);
}

int main(void)
{
    test_defaults();
    test_values();
    test_google_benchmark_names();
    test_google_benchmark_17();
    test_errors();
    CHECK_DONE();
}
