/* SPDX-License-Identifier: MIT */
/* bench_json.c: benchmark results for programs. The JSON follows Google Benchmark's schema
 * (context; benchmarks[] with name, run_name, run_type, iterations, real_time, cpu_time,
 * time_unit, and aggregate rows for repetitions), so its compare.py and other readers take it;
 * our own fields sit beside theirs. The CSV has one row per result with the same figures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/bench/bench_report.h"

static void interval(tks__json *j, const char *key, const tks_interval *v)
{
    tks__json_range(j, key, v->lo, v->hi);
}

/* Google Benchmark's flags in the context: --benchmark_context's pairs as strings (as its
 * AddCustomContext writes them), the random order's seed, the dry run (as 1.9 says it). */
static void gb_context(tks__json *j, const tks_options *o)
{
    for (const char *c = o->context; c && *c;) { /* "k=v,k2=v2", checked by the parser */
        size_t len = strcspn(c, ","), eq = strcspn(c, "=");
        char *key = strndup(c, eq < len ? eq : len);
        char *value = strndup(c + eq + 1, eq < len ? len - eq - 1 : 0);
        if (key && value)
            tks__json_string(j, key, value);
        free(key);
        free(value);
        c += len + (c[len] == ',');
    }
    if (o->random_interleaving)
        tks__json_u64(j, "random_seed", o->random_seed);
    if (o->dry_run)
        tks__json_string(j, "dry_run", "true");
}

static void context(tks__json *j, const tks_options *o, const tks_platform *p, const char *prog,
                    const tks_result *r, size_t n)
{
    char date[64] = "", host[256] = "";
    time_t now = time(NULL);
    struct tm tm;
    double load[3];
    int nload = getloadavg(load, 3);
    int scaling = 0;
    for (size_t i = 0; i < p->n_env; i++)
        if (!strcmp(p->env[i].id, "governor") || !strcmp(p->env[i].id, "turbo"))
            scaling |= p->env[i].status == TKS_ENV_WARN;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm);
    if (gethostname(host, sizeof host) != 0)
        host[0] = 0;
    host[sizeof host - 1] = 0;

    tks__json_begin_object(j, "context");
    tks__json_string(j, "date", date);
    tks__json_string(j, "host_name", host);
    tks__json_string(j, "executable", prog);
    tks__json_i64(j, "num_cpus", p->cpu.logical_cpus);
    tks__json_i64(j, "mhz_per_cpu", p->tsc_hz > 0 ? (int64_t)llround(p->tsc_hz / 1e6) : 0);
    tks__json_bool(j, "cpu_scaling_enabled", scaling);
    tks__json_begin_array(j, "caches");
    tks__json_end_array(j);
    tks__json_begin_array(j, "load_avg");
    for (int i = 0; i < nload; i++)
        tks__json_double(j, NULL, load[i]);
    tks__json_end_array(j);
    tks__json_string(j, "library_build_type", tks_build_optimized() ? "release" : "debug");
    tks__json_string(j, "method", n && tks_method_info(r[0].method) ? tks_method_info(r[0].method)->name
                                                                    : NULL);
    tks__json_string(j, "mode", o->mode == TKS_MODE_LATENCY ? "latency" : "throughput");
    tks__json_double(j, "min_time", o->min_time);
    if (o->windows)
        tks__json_u64(j, "min_windows", o->windows);
    tks__json_u64(j, "repetitions", o->repetitions);
    tks__json_bool(j, "isolate", o->isolate);
    gb_context(j, o);
    tks__report_platform_json(j, p);
    tks__json_end_object(j);
}

/* The fields Google Benchmark's readers need, shared by iteration and aggregate rows. */
static void common(tks__json *j, const tks_result *r, size_t reps, const char *run_type)
{
    tks__json_i64(j, "family_index", (int64_t)r->family_index);
    tks__json_i64(j, "per_family_instance_index", (int64_t)r->instance_index);
    tks__json_string(j, "run_name", r->name);
    tks__json_string(j, "run_type", run_type);
    tks__json_u64(j, "repetitions", reps);
    tks__json_i64(j, "threads", 1);
}

/* Beside every row of an instance run more than once: each run's figures (process_figures,
 * one per fresh process with --processes) and the between-run intervals. */
static void between_run(tks__json *j, const tks_options *o, const tks_result *group,
                        size_t reps, const tks__bench_aggregate *a)
{
    tks__json_begin_array(j, "process_figures");
    for (size_t i = 0; i < reps; i++) {
        if (!group[i].ok)
            continue;
        tks__json_begin_object(j, NULL);
        tks__json_double(j, "ticks", group[i].estimate.value);
        tks__json_double(j, "core_cycles", group[i].core_cycles.value);
        tks__json_double(j, "ns", group[i].ns.value);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
    tks__json_begin_object(j, "between_run");
    tks__json_u64(j, "processes", o->processes > 1 ? o->processes : 0);
    tks__json_u64(j, "runs", a->runs);
    interval(j, "ticks_ci", &a->ticks_mean);
    interval(j, "ticks_next", &a->ticks_next);
    tks__json_double(j, "core_cycles", a->cycles_mean.value);
    interval(j, "core_cycles_ci", &a->cycles_mean);
    interval(j, "core_cycles_next", &a->cycles_next);
    tks__json_end_object(j);
}

/* One result's row, its object left open (the caller may add the between-run fields). */
static void iteration(tks__json *j, const tks_options *o, const tks_result *r, size_t reps,
                      const tks_platform *p)
{
    double t = tks__bench_time(o, r->ns.value);
    int ok = r->ok && !o->dry_run; /* a dry run has no figures */
    tks__json_begin_object(j, NULL);
    tks__json_string(j, "name", r->name);
    common(j, r, reps, "iteration");
    tks__json_u64(j, "repetition_index", r->repetition);
    tks__json_u64(j, "iterations", r->executions);
    /* A run that failed has no time. Its row says so (error_occurred) and carries 0, as Google
     * Benchmark writes for a run that failed before it was timed: its compare.py takes every
     * row's real_time as a number, and stopped at null. */
    tks__json_double(j, "real_time", ok ? t : 0);
    tks__json_double(j, "cpu_time", ok ? t : 0);
    tks__json_string(j, "time_unit", tks__bench_time_unit(o));
    if (r->ok && o->dry_run)
        tks__json_bool(j, "dry_run", 1);
    if (ok) /* issue 26: bytes_per_second, items_per_second, user counters */
        tks__bench_json_counters(j, r);
    if (!r->ok) {
        tks__json_bool(j, "error_occurred", 1);
        tks__json_string(j, "error_message", r->error);
        tks__json_bool(j, "skipped", r->skipped);
        if (r->signal)
            tks__json_i64(j, "signal", r->signal);
    }
    tks__json_string(j, "method", tks_method_info(r->method) ? tks_method_info(r->method)->name : "");
    tks__json_string(j, "mode", r->mode == TKS_MODE_LATENCY ? "latency" : "throughput");
    if (ok) {
        tks__json_double(j, "ticks", r->estimate.value);
        interval(j, "ticks_ci", &r->estimate);
        tks__json_double(j, "ticks_min", r->min.value);
        tks__json_double(j, "ticks_median", r->median.value);
        interval(j, "ticks_median_ci", &r->median);
        tks__json_double(j, "ticks_mean", r->mean.value);
        interval(j, "ticks_mean_ci", &r->mean);
        if (r->mode == TKS_MODE_LATENCY && isfinite(r->throughput_alongside.value)) {
            tks__json_double(j, "throughput_ticks", r->throughput_alongside.value);
            interval(j, "throughput_ci", &r->throughput_alongside);
            tks__json_double(j, "throughput_core_cycles",
                             r->throughput_alongside.value * r->cycles_per_tick);
        }
        if (r->mode == TKS_MODE_LATENCY && isfinite(r->latency_window.value)) {
            tks__json_double(j, "latency_window_ticks", r->latency_window.value);
            interval(j, "latency_window_ci", &r->latency_window);
            tks__json_double(j, "latency_window_core_cycles", r->latency_window_cycles.value);
            interval(j, "latency_window_core_cycles_ci", &r->latency_window_cycles);
            tks__json_bool(j, "modes_combined", r->modes_combined);
        }
        if (r->mode == TKS_MODE_LATENCY && isfinite(r->harness_gap.value)) {
            tks__json_double(j, "harness_gap_ticks", r->harness_gap.value);
            interval(j, "harness_gap_ci", &r->harness_gap);
        }
        /* Latency mode's correction (issue 30): which one the headline took, the block's windows
         * twice less once, and the add chain's correction for comparison. */
        if (r->mode == TKS_MODE_LATENCY && r->gap_source != TKS_GAP_NONE)
            tks__json_string(j, "harness_gap_source",
                             r->gap_source == TKS_GAP_BLOCK ? "block" : "adds");
        if (r->mode == TKS_MODE_LATENCY && isfinite(r->latency_twice.value)) {
            tks__json_double(j, "twice_less_once_ticks", r->latency_twice.value);
            interval(j, "twice_less_once_ci", &r->latency_twice);
            tks__json_u64(j, "twice_windows", r->twice_windows);
        }
        if (r->mode == TKS_MODE_LATENCY && isfinite(r->latency_adds_cycles.value)) {
            tks__json_double(j, "adds_gap_core_cycles", r->latency_adds_cycles.value);
            interval(j, "adds_gap_core_cycles_ci", &r->latency_adds_cycles);
        }
        if (r->mode == TKS_MODE_THROUGHPUT) {
            tks__json_double(j, "ticks_slope", r->slope.value);
            interval(j, "ticks_slope_ci", &r->slope);
            tks__json_double(j, "intercept_ticks", r->intercept);
            tks__json_double(j, "slope_r2", r->slope_r2);
            if (isfinite(r->loop_floor.value)) {
                tks__json_double(j, "loop_floor_ticks", r->loop_floor.value);
                interval(j, "loop_floor_ci", &r->loop_floor);
            }
        }
        tks__json_double(j, "core_cycles", r->core_cycles.value);
        interval(j, "core_cycles_ci", &r->core_cycles);
        tks__json_bool(j, "core_cycles_estimate", !p->core.counter);
        tks__json_string(j, "core_cycles_source",
                         r->core_source == TKS_CORE_INTERLEAVED ? "interleaved add chain"
                         : r->core_source == TKS_CORE_CALIBRATED ? "per-boot calibration"
                                                                 : "none");
        tks__json_begin_object(j, "core_clock");
        tks__json_double(j, "cycles_per_tick", r->cycles_per_tick);
        tks__json_double(j, "start", r->cycles_per_tick_start);
        tks__json_double(j, "end", r->cycles_per_tick_end);
        tks__json_double(j, "range", r->cycles_per_tick_range);
        tks__json_u64(j, "reference_windows", r->reference_windows);
        tks__report_add_check_json(j, &r->add_check);
        tks__json_end_object(j);
        tks__json_double(j, "overhead_ticks", r->overhead.value);
        interval(j, "overhead_ci", &r->overhead);
        tks__json_double(j, "overhead_median", r->overhead_median);
        tks__json_double(j, "overhead_mad", r->overhead_mad);
        tks__json_u64(j, "overhead_min", r->overhead_min);
    }
    tks__bench_events_json(j, r); /* event counters */
    tks__json_begin_array(j, "ks");
    for (size_t i = 0; i < r->n_ks; i++)
        tks__json_u64(j, NULL, r->ks[i]);
    tks__json_end_array(j);
    tks__json_u64(j, "quantum_ticks", r->quantum);
    tks__json_u64(j, "windows", r->windows);
    tks__json_begin_object(j, "discarded");
    tks__json_u64(j, "migrated", r->discarded_migrated);
    tks__json_u64(j, "negative", r->discarded_negative);
    tks__json_u64(j, "warmup", r->warmup);
    tks__json_end_object(j);
    tks__json_begin_object(j, "outliers");
    tks__json_u64(j, "low", r->outliers_low);
    tks__json_u64(j, "high", r->outliers_high);
    tks__json_end_object(j);
    tks__json_bool(j, "optimized", r->optimized);
    tks__json_double(j, "seconds", r->seconds);
    tks__json_diag_messages(j, "warnings", &r->diags);
    tks__json_diags(j, &r->diags);
}

static void aggregates(tks__json *j, const tks_options *o, const tks_result *r, size_t reps,
                       const tks_platform *p)
{
    static const char *const names[4] = {"mean", "median", "stddev", "cv"};
    tks__bench_aggregate a;
    tks__bench_aggregate_of(r, reps, p, &a);
    if (a.runs < 2) /* as Google Benchmark: no aggregate of fewer than two runs that succeeded */
        return;
    for (int i = 0; i < 4; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s_%s", r->name, names[i]);
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", name);
        common(j, r, reps, "aggregate");
        tks__json_string(j, "aggregate_name", names[i]);
        tks__json_string(j, "aggregate_unit", i == 3 ? "percentage" : "time");
        tks__json_u64(j, "iterations", a.runs);
        tks__json_double(j, "real_time", i == 3 ? a.ns[i] : tks__bench_time(o, a.ns[i]));
        tks__json_double(j, "cpu_time", i == 3 ? a.ns[i] : tks__bench_time(o, a.ns[i]));
        tks__json_string(j, "time_unit", tks__bench_time_unit(o));
        tks__json_double(j, "ticks", a.ticks[i]);
        tks__json_double(j, "core_cycles", a.cycles[i]);
        tks__bench_json_counter_aggregates(j, r, reps, i); /* issue 26 */
        tks__bench_events_json_aggregates(j, r, reps, i); /* as Google Benchmark's perf counters */
        tks__json_end_object(j);
    }
}

int tks__bench_json(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                   size_t n, const char *prog)
{
    tks__json j;
    unsigned reps = o->repetitions ? o->repetitions : 1;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    context(&j, o, p, prog, r, n);
    tks__json_begin_array(&j, "benchmarks");
    for (size_t i = 0; i < n; i++) {
        const tks_result *group = &r[i - i % reps];
        if (tks__bench_show_runs(o, group, p)) {
            iteration(&j, o, &r[i], reps, p);
            if (reps > 1) { /* iteration() left its object open for these */
                tks__bench_aggregate a;
                tks__bench_aggregate_of(group, reps, p, &a);
                between_run(&j, o, group, reps, &a);
            }
            tks__json_end_object(&j);
        }
        if (reps > 1 && (i + 1) % reps == 0)
            aggregates(&j, o, group, reps, p);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

/* An instance's aggregate rows, as Google Benchmark's CSV has them: name_mean, ..., with the
 * runs as iterations, real_time, time_unit, ticks and core cycles. */
static void csv_aggregates(FILE *f, const tks_options *o, const tks_result *group,
                           const tks_platform *p, const tks_result *r, size_t n)
{
    static const char *const names[4] = {"mean", "median", "stddev", "cv"};
    tks__bench_aggregate a;
    tks__bench_aggregate_of(group, o->repetitions, p, &a);
    for (int i = 0; a.runs >= 2 && i < 4; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s_%s", group->name, names[i]);
        tks__csv_field(f, name);
        fprintf(f, ",,%s,%s,%zu", group->mode == TKS_MODE_LATENCY ? "latency" : "throughput",
                tks_method_info(group->method) ? tks_method_info(group->method)->name : "", a.runs);
        tks__csv_next_double(f, i == 3 ? a.ns[i] : tks__bench_time(o, a.ns[i]));
        fprintf(f, ",%s", tks__bench_time_unit(o));
        tks__csv_next_double(f, a.ticks[i]);
        fputs(",,,,,,,,,", f);
        tks__csv_next_double(f, a.cycles[i]);
        fputs(",,,,,,,,,,", f);
        tks__bench_csv_counters_aggregate(f, r, n, group, o->repetitions, i); /* issue 26 */
        tks__bench_events_csv_aggregate(f, group, o->repetitions, i, r, n);
        fputc('\n', f);
    }
}

int tks__bench_csv(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                   size_t n)
{
    unsigned reps = o->repetitions ? o->repetitions : 1;
    fputs("name,repetition,mode,method,iterations,real_time,time_unit,ticks,ticks_lo,ticks_hi,"
          "ticks_min,ticks_median,ticks_median_lo,ticks_median_hi,ticks_mean,ticks_mean_lo,"
          "ticks_mean_hi,core_cycles,core_cycles_lo,core_cycles_hi,overhead_ticks,windows,outliers_low,outliers_high,"
          "discarded,warnings,diagnostics,error_message", f);
    tks__bench_csv_counters(f, r, n, NULL); /* issue 26: a column per work counter */
    tks__bench_events_csv_header(f, r, n); /* event counters */
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        const tks_result *x = &r[i];
        int ok = x->ok && !o->dry_run; /* a dry run has no figures */
        if (reps > 1 && i % reps == 0 && !tks__bench_show_runs(o, x, p)) {
            csv_aggregates(f, o, x, p, r, n);
            i += reps - 1;
            continue;
        }
        tks__csv_field(f, x->name);
        fprintf(f, ",%u,%s,%s,%llu", x->repetition,
                x->mode == TKS_MODE_LATENCY ? "latency" : "throughput",
                tks_method_info(x->method) ? tks_method_info(x->method)->name : "",
                (unsigned long long)x->executions);
        tks__csv_next_double(f, ok ? tks__bench_time(o, x->ns.value) : NAN);
        fprintf(f, ",%s", tks__bench_time_unit(o));
        double v[] = {x->estimate.value, x->estimate.lo, x->estimate.hi, x->min.value,
                      x->median.value, x->median.lo, x->median.hi, x->mean.value, x->mean.lo,
                      x->mean.hi, x->core_cycles.value, x->core_cycles.lo,
                      x->core_cycles.hi, x->overhead.value};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            tks__csv_next_double(f, ok ? v[k] : NAN);
        fprintf(f, ",%llu,%llu,%llu,%llu,%zu,", (unsigned long long)x->windows,
                (unsigned long long)x->outliers_low, (unsigned long long)x->outliers_high,
                (unsigned long long)(x->discarded_migrated + x->discarded_negative),
                x->diags.n);
        tks__csv_diag_codes(f, &x->diags);
        fputc(',', f);
        tks__csv_field(f, x->ok ? "" : x->error);
        tks__bench_csv_counters(f, r, n, x);
        tks__bench_events_csv_row(f, x, r, n); /* event counters */
        fputc('\n', f);
        if (reps > 1 && (i + 1) % reps == 0)
            csv_aggregates(f, o, &r[i + 1 - reps], p, r, n);
    }
    return ferror(f) ? TKS_EIO : 0;
}
