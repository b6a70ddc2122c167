/* SPDX-License-Identifier: MIT */
/* options.c: the runner's options, parsed the same way for tks_main and for a user's own main.
 * Google Benchmark's spellings of the common ones are accepted too, so scripts written for it
 * keep working. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "program/gbflags.h"
#include "sample/events.h"
#include "report/bench/bench_report.h"
#include "tickscope/bench.h"

static const char help[] =
    "options:\n"
    "  --filter REGEX      run the benchmarks whose names match (POSIX extended regex)\n"
    "  --list              list the benchmarks (after --filter) and exit\n"
    "  --disasm            print the instructions inside each benchmark's windows and exit\n"
    "  --explain           what limits each benchmark (x86-64): work of each kind (integer adds,\n"
    "                      imul, mulpd, addpd, L1 loads, 64 bytes of NOPs) added after every\n"
    "                      repetition, against its cost alone: ports (naming the kind), the front\n"
    "                      end, memory (the pages the block touched are beyond the caches and a\n"
    "                      repetition costs a load from there) or latency by elimination, with\n"
    "                      the evidence (console or json)\n"
    "  --method NAME       clock method: lfence, serialize, mfence, rdtscp, cpuid, rdtsc (x86),\n"
    "                      isb, cntvct (arm64); default: the best fenced one this CPU has\n"
    "  --mode MODE         latency (one execution per window; default) or throughput\n"
    "                      (k executions per window for several k; cost = the slope)\n"
    "  --min-time SECONDS  sampling time per benchmark run (default 0.2)\n"
    "  --repetitions N     runs of each benchmark; with N > 1, mean, median, stddev and cv rows\n"
    "  --processes N       run each benchmark N times, each in a fresh process (the program run\n"
    "                      again: address layout, heap and CPU drawn anew); the report adds the\n"
    "                      between-run interval of the mean and the range the next run will fall in;\n"
    "                      without it, a second process runs each benchmark for a quarter of the\n"
    "                      time and a figure that moved between the two is a warning\n"
    "                      (bench.within_process); --processes 1: one process, no second one\n"
    "  --pin CPU           run on this CPU only (a warning, not a failure, if not permitted)\n"
    "  --fifo              run under SCHED_FIFO, paced clear of real-time throttling\n"
    "  --isolate           run each benchmark in its own child process; a crash is reported\n"
    "                      with its signal and the others still run\n"
    "  --counters LIST     event counters per iteration, e.g. instructions,page-faults (perf's\n"
    "                      names, rHEX, PMU/EVENT/; docs/counters.md)\n";
/* (then --format's line, from the writer table: tks_options_help) */
static const char help_rest[] =
    "  --out FILE          write the report to FILE (whole or not at all) instead of stdout\n"
    "  --raw FILE          every window as CSV: benchmark,repetition,window,k,empty_ticks,ticks\n"
    "  --record FILE       everything the analysis reads (the machine, every window and\n"
    "                      reference), for `tickscope replay FILE` (docs/recording.md)\n"
    "  --histogram         a histogram of each benchmark's windows (console format)\n"
    "  --plot DIR          gnuplot data and scripts per benchmark (SVG when gnuplot is installed)\n"
    "  --html FILE         the run as one self-contained HTML page too (figures drawn inline)\n"
    "  --tsc-hz HZ         use this TSC rate for nanoseconds (e.g. 2.3GHz)\n"
    "  --recalibrate       measure the TSC rate again (ignore this boot's cache)\n"
    "  --compare A,B       measure B against A in turns (ABBA blocks, one CPU): B/A with its\n"
    "                      95% interval and a verdict (names, or regexes matching one each)\n"
    "  --compare-threshold PCT  B/A within 1 +- PCT% is indistinguishable (default 1)\n"
    "  --random-seed N     the seed of the random interleaving's order (default: drawn\n"
    "                      anew; the JSON's context says which was used)\n"
    "  --quiet             no notes on stderr\n"
    "  --help              this text\n"
    "Google Benchmark 1.7's flags work too (FLAG=VALUE; a boolean flag alone is true):\n"
    "  --benchmark_filter=REGEX   as --filter (all: everything; -REGEX: all but those)\n"
    "  --benchmark_format=F, --benchmark_repetitions=N, --benchmark_list_tests[=BOOL]  as ours\n"
    "  --benchmark_out=FILE       a second report, JSON unless --benchmark_out_format=csv|console\n"
    "  --benchmark_min_time=T     seconds (0.5 or 0.5s), or 100x for 100 windows per run\n"
    "  --benchmark_min_warmup_time=T  seconds the body runs, its windows dropped, first\n"
    "  --benchmark_enable_random_interleaving[=BOOL]  every run in one random order\n"
    "  --benchmark_report_aggregates_only[=BOOL]  only mean/median/stddev/cv rows (with\n"
    "                      repetitions); --benchmark_display_aggregates_only: on stdout only\n"
    "  --benchmark_time_unit=U    ns, us, ms or s for real_time and the time column\n"
    "  --benchmark_context=K=V,...  pairs added to the JSON's context\n"
    "  --benchmark_counters_tabular[=BOOL]  user counters as columns\n"
    "  --benchmark_perf_counters=LIST  the event counters to read\n"
    "  --benchmark_dry_run[=BOOL]  each body once, no figures\n"
    "  --benchmark_color=auto|BOOL  accepted (no colours here)\n"
    "  --v=N                      N >= 1: a line on stderr per run as it starts\n";

/* The help text, its --format line listing the writer table's formats (composed once). */
const char *tks_options_help(void)
{
    static char text[sizeof help + sizeof help_rest + 200];
    if (!text[0]) {
        char list[128];
        snprintf(text, sizeof text, "%s  --format FORMAT     %s (the first is the default; json is "
                 "Google Benchmark's schema)\n%s", help,
                 tks__writers_list(&tks__bench_writers, list, sizeof list), help_rest);
    }
    return text;
}

static int parse_method(const char *v, tks_options *o, char *err, size_t errlen)
{
    int m = tks_method_from_name(v);
    const struct tks_method_info *mi = m >= 0 ? tks_method_info((enum tks_method)m) : NULL;
    if (!mi || (mi->flags & TKS_MF_RING0))
        return tks__option_error(err, errlen, "--method: unknown method '%s' (see --help)", v);
    if (!tks_method_available((enum tks_method)m, tks_cpu_features_get()))
        return tks__option_error(err, errlen, "--method: this CPU cannot run '%s'", v);
    o->method = m;
    return 0;
}

/* One of two names (names[0], names[1]). */
static int parse_enum(const char *opt, const char *v, const char *const *names, int n, int *out,
                      char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return tks__option_error(err, errlen, "%s: '%s' is not %s or %s", opt, v, names[0], names[1]);
}

/* Options that take a value. Google Benchmark's spellings are gbflags.c's. */
enum { O_FILTER, O_METHOD, O_MODE, O_MIN_TIME, O_REPS, O_PIN, O_FORMAT, O_OUT, O_RAW, O_PLOT,
       O_TSC_HZ, O_PROCS, O_COMPARE, O_COMPARE_THRESHOLD, O_SEED, O_HTML, O_RECORD, O_COUNT };
static const char *const valued[O_COUNT][2] = {
    {"--filter", NULL},                   {"--method", NULL},
    {"--mode", NULL},                     {"--min-time", NULL},
    {"--repetitions", NULL},              {"--pin", NULL},
    {"--format", NULL},                   {"--out", NULL},
    {"--raw", NULL},                      {"--plot", NULL},
    {"--tsc-hz", NULL},                   {"--processes", NULL},
    {"--compare", NULL},                  {"--compare-threshold", NULL},
    {"--random-seed", NULL}, {"--html", NULL},
    {"--record", NULL}};

static int set_value(tks_options *o, int which, const char *opt, const char *v, char *err,
                     size_t errlen)
{
    static const char *const modes[] = {"latency", "throughput"};
    uint32_t u;
    int e = 0;
    switch (which) {
    case O_FILTER: o->filter = v; return 0;
    case O_METHOD: return parse_method(v, o, err, errlen);
    case O_MODE:
        if (parse_enum(opt, v, modes, 2, &e, err, errlen))
            return 2;
        o->mode = (enum tks_mode)e;
        return 0;
    case O_MIN_TIME: {
        /* Google Benchmark 1.8 writes "0.5s"; a trailing s is accepted. */
        char buf[64];
        size_t n = strlen(v);
        if (n > 1 && n < sizeof buf && v[n - 1] == 's') {
            memcpy(buf, v, n - 1);
            buf[n - 1] = 0;
            v = buf;
        }
        if (tks__parse_seconds(v, &o->min_time) || !(o->min_time > 0))
            return tks__option_error(err, errlen, "%s needs a positive number of seconds, not '%s'", opt, v);
        return 0;
    }
    case O_REPS:
        if (tks__parse_u32(v, 1, 10000, &u))
            return tks__option_error(err, errlen, "%s needs a whole number from 1 to 10000, not '%s'", opt, v);
        o->repetitions = u;
        return 0;
    case O_PROCS:
        if (tks__parse_u32(v, 1, 1000, &u))
            return tks__option_error(err, errlen, "%s needs a whole number from 1 to 1000, not '%s'", opt, v);
        o->processes = u;
        return 0;
    case O_PIN:
        if (tks__parse_u32(v, 0, 4095, &u))
            return tks__option_error(err, errlen, "%s needs a CPU number from 0 to 4095, not '%s'", opt, v);
        o->pin_cpu = (int)u;
        return 0;
    case O_FORMAT:
        return tks__bench_format_parse(opt, v, &o->format, err, errlen);
    case O_OUT:
    case O_RAW:
    case O_PLOT:
    case O_HTML:
    case O_RECORD:
        if (!*v)
            return tks__option_error(err, errlen, "%s needs a file or directory name", opt);
        *(which == O_OUT      ? &o->out
          : which == O_RAW    ? &o->raw
          : which == O_HTML   ? &o->html
          : which == O_RECORD ? &o->record
                              : &o->plot_dir) = v;
        return 0;
    case O_TSC_HZ:
        if (tks__parse_hz(v, &o->tsc_hz))
            return tks__option_error(err, errlen, "%s needs a positive rate in Hz (e.g. 2.3GHz), not '%s'", opt,
                       v);
        return 0;
    case O_COMPARE:
        if (!strchr(v, ','))
            return tks__option_error(err, errlen, "%s needs two benchmarks, A,B, not '%s'", opt, v);
        o->compare = v;
        return 0;
    case O_COMPARE_THRESHOLD: {
        double pct;
        char *end;
        pct = strtod(v, &end);
        if (end != v && *end == '%')
            end++;
        if (end == v || *end || !(pct >= 0 && pct <= 100))
            return tks__option_error(err, errlen, "%s needs a percentage from 0 to 100, not '%s'", opt, v);
        o->compare_threshold = pct / 100;
        return 0;
    }
    case O_SEED: {
        char *end;
        errno = 0;
        o->random_seed = strtoull(v, &end, 10);
        if (!*v || *v == '-' || *end || errno || !o->random_seed)
            return tks__option_error(err, errlen, "%s needs a whole number from 1 to %llu, not '%s'", opt,
                                     (unsigned long long)-1, v);
        return 0;
    }
    default:
        return 2;
    }
}

static int flag(tks_options *o, const char *a)
{
    if (!strcmp(a, "--list"))
        o->list = 1;
    else if (!strcmp(a, "--fifo"))
        o->fifo = 1;
    else if (!strcmp(a, "--isolate"))
        o->isolate = 1;
    else if (!strcmp(a, "--histogram"))
        o->histogram = 1;
    else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
        o->quiet = 1;
    else if (!strcmp(a, "--disasm"))
        o->disasm = 1;
    else if (!strcmp(a, "--recalibrate"))
        o->recalibrate = 1;
    else if (!strcmp(a, "--explain"))
        o->explain = 1;
    else
        return 0;
    return 1;
}

int tks_options_parse(tks_options *o, int argc, char **argv, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (!o || argc < 0 || (argc > 0 && !argv))
        return tks__option_error(err, errlen, "no options to parse");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int done = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (flag(o, a))
            continue;
        { /* event counters: --counters LIST, Google Benchmark's --benchmark_perf_counters=LIST */
            int missing = 0, gb = 0;
            const char *v = tks__option_value(argc, argv, &i, "--counters", &missing);
            if (!v && !missing)
                gb = (v = tks__option_value(argc, argv, &i, "--benchmark_perf_counters",
                                            &missing)) != NULL || missing;
            if (missing)
                return tks__option_error(err, errlen, "%s needs a list of events",
                                         gb ? "--benchmark_perf_counters" : "--counters");
            if (v && gb && !*v) { /* Google Benchmark's default: no counters */
                o->counters = NULL;
                continue;
            }
            if (v) {
                char why[200];
                if (tks__events_check_list(v, why, sizeof why) != 0)
                    return tks__option_error(err, errlen, "%s: %s",
                                             gb ? "--benchmark_perf_counters" : "--counters", why);
                o->counters = v;
                continue;
            }
        }
        if ((done = tks__bench_gb_flag(o, argc, argv, &i, err, errlen)) >= 0) {
            if (done)
                return 2;
            continue;
        }
        done = 0;
        for (int w = 0; w < O_COUNT && !done; w++)
            for (int s = 0; s < 2 && !done; s++) {
                int missing;
                const char *v;
                if (!valued[w][s])
                    continue;
                v = tks__option_value(argc, argv, &i, valued[w][s], &missing);
                if (missing)
                    return tks__option_error(err, errlen, "%s needs a value", valued[w][s]);
                if (!v)
                    continue;
                if (set_value(o, w, valued[w][s], v, err, errlen))
                    return 2;
                done = 1;
            }
        if (!done)
            return tks__option_error(err, errlen, "unknown option '%s' (see --help)", a);
    }
    return 0;
}
