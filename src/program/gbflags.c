/* SPDX-License-Identifier: MIT */
/* gbflags.c: Google Benchmark's flags that scripts use, so that a benchmark moved to tickscope
 * keeps its command lines. Each maps onto one of our options:
 *   --benchmark_filter=REGEX         --filter (Google's "all" selects everything)
 *   --benchmark_format=F             --format (console, json, csv; markdown is ours)
 *   --benchmark_out=FILE             a second report, as Google writes one besides the console's
 *   --benchmark_out_format=F         its format (json by default, as Google's)
 *   --benchmark_min_time=T|Ts|Nx     --min-time, or N windows per run
 *   --benchmark_repetitions=N        --repetitions
 *   --benchmark_list_tests[=BOOL]    --list */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "program/gbflags.h"
#include "report/bench/bench_report.h"

/* Google's booleans: true/false, yes/no, 1/0 (its own parser takes these and their capitals). */
static int boolean(const char *v, int *out)
{
    static const char *const yes[] = {"true", "yes", "1", "TRUE", "True", "YES", "Yes"};
    static const char *const no[] = {"false", "no", "0", "FALSE", "False", "NO", "No"};
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++) {
        if (!strcmp(v, yes[k]))
            return *out = 1, 0;
        if (!strcmp(v, no[k]))
            return *out = 0, 0;
    }
    return -1;
}

static int format(const char *opt, const char *v, enum tks_format *out, char *err, size_t errlen)
{
    return tks__bench_format_parse(opt, v, out, err, errlen);
}

/* "0.5", "0.5s" (seconds) or "100x" (windows). */
static int min_time(tks_options *o, const char *opt, const char *v, char *err, size_t errlen)
{
    size_t n = strlen(v);
    char buf[64];
    uint32_t windows;
    if (n == 0 || n >= sizeof buf)
        return tks__option_error(err, errlen, "%s needs seconds (0.5 or 0.5s) or windows (100x), not '%s'", opt, v);
    memcpy(buf, v, n + 1);
    if (buf[n - 1] == 'x') {
        buf[n - 1] = 0;
        if (tks__parse_u32(buf, 1, 1u << 19, &windows))
            return tks__option_error(err, errlen, "%s: '%s' needs a whole number of windows from 1 to %u before the x",
                         opt, v, 1u << 19);
        o->windows = windows;
        return 0;
    }
    if (buf[n - 1] == 's')
        buf[n - 1] = 0;
    if (tks__parse_seconds(buf, &o->min_time) || !(o->min_time > 0))
        return tks__option_error(err, errlen, "%s needs seconds (0.5 or 0.5s) or windows (100x), not '%s'", opt, v);
    o->windows = 0;
    return 0;
}

int tks__bench_gb_flag(tks_options *o, int argc, char **argv, int *i, char *err, size_t errlen)
{
    static const char *const names[] = {"--benchmark_filter", "--benchmark_format",
                                        "--benchmark_out", "--benchmark_out_format",
                                        "--benchmark_min_time", "--benchmark_repetitions"};
    const char *a = argv[*i], *v = NULL;
    size_t w;
    int missing = 0, b;
    uint32_t u;

    if (!strcmp(a, "--benchmark_list_tests"))
        return o->list = 1, 0;
    if (!strncmp(a, "--benchmark_list_tests=", 23)) {
        if (boolean(a + 23, &b))
            return tks__option_error(err, errlen, "--benchmark_list_tests: '%s' is not true or false", a + 23);
        return o->list = b, 0;
    }
    for (w = 0; w < sizeof names / sizeof names[0]; w++)
        if ((v = tks__option_value(argc, argv, i, names[w], &missing)) != NULL || missing)
            break;
    if (missing)
        return tks__option_error(err, errlen, "%s needs a value", names[w]);
    if (!v)
        return -1;
    switch (w) {
    case 0: o->filter = *v && strcmp(v, "all") != 0 ? v : NULL; return 0;
    case 1: return format(names[w], v, &o->format, err, errlen);
    case 2:
        if (!*v)
            return tks__option_error(err, errlen, "%s needs a file name", names[w]);
        o->report_file = v;
        return 0;
    case 3: return format(names[w], v, &o->report_file_format, err, errlen);
    case 4: return min_time(o, names[w], v, err, errlen);
    default:
        if (tks__parse_u32(v, 1, 10000, &u))
            return tks__option_error(err, errlen, "%s needs a whole number from 1 to 10000, not '%s'", names[w], v);
        o->repetitions = u;
        return 0;
    }
}
