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

static void test_google_benchmark_names(void)
{
    tks_options o;
    char err[200];
    CHECK(parse(&o, err, sizeof err, "--benchmark_filter=x", "--benchmark_format=json",
                "--benchmark_min_time=0.5s") == 0);
    CHECK_STR(o.filter, "x");
    CHECK(o.format == TKS_FORMAT_JSON);
    CHECK_NEAR(o.min_time, 0.5, 0);
    CHECK(parse(&o, err, sizeof err, "--benchmark_repetitions=4", "--benchmark_out=o.json",
                "--benchmark_list_tests") == 0);
    CHECK_EQ_U64(o.repetitions, 4);
    CHECK_STR(o.out, "o.json");
    CHECK(o.list);
}

static void test_errors(void)
{
    tks_options o;
    char err[200];
    CHECK(parse(&o, err, sizeof err, "--bogus", NULL, NULL) == 2);
    CHECK(strstr(err, "unknown option '--bogus'") != NULL);
    CHECK(parse(&o, err, sizeof err, "--mode", "fast", NULL) == 2);
    CHECK(strstr(err, "latency, throughput") != NULL);
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
    test_errors();
    CHECK_DONE();
}
