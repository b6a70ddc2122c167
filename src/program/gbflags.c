/* SPDX-License-Identifier: MIT */
/* gbflags.c: every flag of Google Benchmark 1.7 (its src/benchmark.cc's BM_DEFINE_* list), and
 * 1.9's --benchmark_dry_run, so that a benchmark moved to tickscope keeps its command lines. Each
 * maps onto one of our options or a tks_options member of its own:
 *   --benchmark_list_tests[=BOOL]            --list
 *   --benchmark_filter=REGEX                 --filter ("all" selects everything, "-RE" excludes)
 *   --benchmark_min_time=T|Ts|Nx             --min-time, or N windows per run
 *   --benchmark_min_warmup_time=T            the body runs T seconds, its windows dropped, first
 *   --benchmark_repetitions=N                --repetitions
 *   --benchmark_enable_random_interleaving   every run of every benchmark in a random order
 *   --benchmark_report_aggregates_only       only the aggregate rows, in every report
 *   --benchmark_display_aggregates_only      only the aggregate rows, on stdout
 *   --benchmark_format=F                     --format (console, json, csv; markdown is ours)
 *   --benchmark_out=FILE                     a second report, as Google writes one besides
 *   --benchmark_out_format=F                 its format (json by default, as Google's)
 *   --benchmark_color=auto|BOOL              accepted; the console has no colours (a note)
 *   --benchmark_counters_tabular[=BOOL]      user counters as columns
 *   --benchmark_perf_counters=LIST           the event counters to read (as --counters)
 *   --benchmark_context=K=V,...              pairs added to the JSON's context
 *   --benchmark_time_unit=ns|us|ms|s         real_time's and the console's unit
 *   --benchmark_dry_run[=BOOL]               each body once, no figures
 *   --v=N                                    verbosity: >= 1, a line per run as it starts
 * Booleans may stand alone (true), as Google's do. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/parse.h"
#include "program/gbflags.h"
#include "report/bench/bench_report.h"

#define BOOLEANS "true, false, yes, no, on, off, 1, 0, t, f, y or n"

/* Google's booleans, without its leniency (it takes any other word as true): these, in any case. */
static int boolean(const char *v, int *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1", "t", "y"};
    static const char *const no[] = {"false", "no", "off", "0", "f", "n"};
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++) {
        if (!strcasecmp(v, yes[k]))
            return *out = 1, 0;
        if (!strcasecmp(v, no[k]))
            return *out = 0, 0;
    }
    return -1;
}

/* "0.5", "0.5s" (seconds) or "100x" (windows, Google Benchmark 1.8's form). */
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

/* "0", "0.5" or "0.5s": seconds, zero allowed (no warm-up). */
static int warmup_time(tks_options *o, const char *opt, const char *v, char *err, size_t errlen)
{
    char buf[64];
    size_t n = strlen(v);
    if (n == 0 || n >= sizeof buf)
        return tks__option_error(err, errlen, "%s needs seconds from 0 to 86400 (0.5 or 0.5s), not '%s'", opt, v);
    memcpy(buf, v, n + 1);
    if (n > 1 && buf[n - 1] == 's')
        buf[n - 1] = 0;
    if (tks__parse_seconds(buf, &o->min_warmup_time))
        return tks__option_error(err, errlen, "%s needs seconds from 0 to 86400 (0.5 or 0.5s), not '%s'", opt, v);
    return 0;
}

/* "k=v,k2=v2": each pair one '=' with a key before it, as Google's parser wants. */
static int context(tks_options *o, const char *opt, const char *v, char *err, size_t errlen)
{
    const char *p = v;
    if (!*v)
        return tks__option_error(err, errlen, "%s needs key=value pairs separated by commas (a=1,b=2), not ''", opt);
    while (*p) {
        size_t len = strcspn(p, ","), eq = strcspn(p, "=");
        if (eq == 0 || eq >= len || memchr(p + eq + 1, '=', len - eq - 1))
            return tks__option_error(err, errlen, "%s needs key=value pairs separated by commas (a=1,b=2), not '%s'",
                                     opt, v);
        p += len + (p[len] == ',');
        if (p[-1] == ',' && !*p)
            return tks__option_error(err, errlen, "%s needs key=value pairs separated by commas (a=1,b=2), not '%s'",
                                     opt, v);
    }
    o->context = v;
    return 0;
}

static int verbosity(tks_options *o, const char *opt, const char *v, char *err, size_t errlen)
{
    char *end;
    long n;
    errno = 0;
    n = strtol(v, &end, 10);
    if (!*v || *end || errno || n < -1000000 || n > 1000000)
        return tks__option_error(err, errlen, "%s needs a whole number (the verbosity, 0 by default), not '%s'", opt, v);
    o->verbosity = (int)n;
    return 0;
}

static int time_unit(tks_options *o, const char *opt, const char *v, char *err, size_t errlen)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    for (int u = 0; u < 4; u++)
        if (!strcmp(v, units[u]))
            return o->time_unit = (enum tks_time_unit)u, 0;
    return tks__option_error(err, errlen, "%s: '%s' is not ns, us, ms or s", opt, v);
}

static int color(tks_options *o, const char *opt, const char *v, char *err, size_t errlen)
{
    int b;
    if (!strcasecmp(v, "auto"))
        return o->color = -1, 0;
    if (boolean(v, &b))
        return tks__option_error(err, errlen, "%s: '%s' is not auto, " BOOLEANS, opt, v);
    o->color = b;
    return 0;
}

/* The flags that take a value (--flag=VALUE or --flag VALUE). */
enum { G_FILTER, G_FORMAT, G_OUT, G_OUT_FORMAT, G_MIN_TIME, G_WARMUP, G_REPS, G_COLOR,
       G_PERF, G_CONTEXT, G_UNIT, G_V, G_VALUED };
static const char *const valued[G_VALUED] = {
    "--benchmark_filter", "--benchmark_format", "--benchmark_out", "--benchmark_out_format",
    "--benchmark_min_time", "--benchmark_min_warmup_time", "--benchmark_repetitions",
    "--benchmark_color", "--benchmark_perf_counters", "--benchmark_context",
    "--benchmark_time_unit", "--v"};

static int set_valued(tks_options *o, int w, const char *v, char *err, size_t errlen)
{
    const char *opt = valued[w];
    uint32_t u;
    switch (w) {
    case G_FILTER: o->filter = *v && strcmp(v, "all") != 0 ? v : NULL; return 0;
    case G_FORMAT: return tks__bench_format_parse(opt, v, &o->format, err, errlen);
    case G_OUT:
        if (!*v)
            return tks__option_error(err, errlen, "%s needs a file name", opt);
        o->report_file = v;
        return 0;
    case G_OUT_FORMAT: return tks__bench_format_parse(opt, v, &o->report_file_format, err, errlen);
    case G_MIN_TIME: return min_time(o, opt, v, err, errlen);
    case G_WARMUP: return warmup_time(o, opt, v, err, errlen);
    case G_REPS:
        if (tks__parse_u32(v, 1, 10000, &u))
            return tks__option_error(err, errlen, "%s needs a whole number from 1 to 10000, not '%s'", opt, v);
        o->repetitions = u;
        return 0;
    case G_COLOR: return color(o, opt, v, err, errlen);
    case G_PERF: o->counters = *v ? v : NULL; return 0; /* Google's default "" is none */
    case G_CONTEXT: return context(o, opt, v, err, errlen);
    case G_UNIT: return time_unit(o, opt, v, err, errlen);
    default: return verbosity(o, opt, v, err, errlen);
    }
}

/* The boolean flags: --flag alone is true, --flag=BOOL says which. */
static int *boolean_member(tks_options *o, const char *name)
{
    static const struct { const char *name; size_t offset; } flags[] = {
        {"--benchmark_list_tests", offsetof(tks_options, list)},
        {"--benchmark_enable_random_interleaving", offsetof(tks_options, random_interleaving)},
        {"--benchmark_report_aggregates_only", offsetof(tks_options, report_aggregates_only)},
        {"--benchmark_display_aggregates_only", offsetof(tks_options, display_aggregates_only)},
        {"--benchmark_counters_tabular", offsetof(tks_options, counters_tabular)},
        {"--benchmark_dry_run", offsetof(tks_options, dry_run)}};
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (!strcmp(name, flags[k].name))
            return (int *)(void *)((char *)o + flags[k].offset);
    return NULL;
}

int tks__bench_gb_flag(tks_options *o, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i], *eq = strchr(a, '='), *v = NULL;
    char name[64];
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    int missing = 0, w, *member;

    if (len < sizeof name) {
        memcpy(name, a, len);
        name[len] = 0;
        if ((member = boolean_member(o, name)) != NULL) {
            if (eq && boolean(eq + 1, member))
                return tks__option_error(err, errlen, "%s: '%s' is not " BOOLEANS, name, eq + 1);
            if (!eq)
                *member = 1;
            return 0;
        }
    }
    for (w = 0; w < G_VALUED; w++)
        if ((v = tks__option_value(argc, argv, i, valued[w], &missing)) != NULL || missing)
            break;
    if (missing)
        return tks__option_error(err, errlen, "%s needs a value", valued[w]);
    if (!v)
        return -1;
    return set_valued(o, w, v, err, errlen);
}

void tks__bench_gb_seed(tks_options *o)
{
    unsigned long long seed = 0;
    if (!o->random_interleaving || o->random_seed)
        return;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed || !seed)
        seed = (unsigned long long)time(NULL) * 0x9e3779b97f4a7c15ull ^ (unsigned long long)getpid();
    o->random_seed = seed ? seed : 1;
}

static unsigned long long splitmix64(unsigned long long *x)
{
    unsigned long long z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t *tks__bench_run_order(const tks_options *o, size_t n)
{
    size_t total = n * o->repetitions, *order = malloc((total ? total : 1) * sizeof *order);
    unsigned long long x = o->random_seed;
    if (!order)
        return NULL;
    for (size_t j = 0; j < total; j++)
        order[j] = j / o->repetitions;
    for (size_t j = total; o->random_interleaving && j > 1; j--) { /* Fisher-Yates */
        size_t k = (size_t)(splitmix64(&x) % j), t = order[j - 1];
        order[j - 1] = order[k];
        order[k] = t;
    }
    return order;
}
