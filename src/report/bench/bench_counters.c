/* SPDX-License-Identifier: MIT */
/* bench_counters.c: the work counters (bytes, items, user counters: tickscope/work_counters.h) in
 * every benchmark format. Their figures are the result's (src/runner/work_counters.c); the
 * aggregates over repetitions are computed here once, as Google Benchmark computes them (each
 * statistic over the repetitions' figures, src/statistics.cc there), and the writers only format.
 * JSON: Google Benchmark 1.7's fields, each counter a top-level field of its benchmark's entry
 * in name order ("bytes_per_second": 1.2e9), and ours beside them under "work_counters" (flags,
 * interval, per core cycle). Console and Markdown: one cell, as Google Benchmark's console shows
 * them ("bytes_per_second=1.2Gi/s"), with the rate per core cycle. CSV: a column per counter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"

/* r's counters in name order (Google Benchmark keeps them in a std::map). */
static size_t sorted(const tks_result *r, const tks_work_counter *out[TKS_WORK_COUNTERS_MAX])
{
    size_t n = r->n_work_counters <= TKS_WORK_COUNTERS_MAX ? r->n_work_counters : 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = i;
        while (k > 0 && strcmp(out[k - 1]->name, r->work_counters[i].name) > 0) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = &r->work_counters[i];
    }
    return n;
}

static const tks_work_counter *find(const tks_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_work_counters && i < TKS_WORK_COUNTERS_MAX; i++)
        if (!strcmp(r->work_counters[i].name, name))
            return &r->work_counters[i];
    return NULL;
}

void tks__bench_counter_aggregate(const tks_result *r, size_t reps, const char *name,
                                  double out[TKS__AGG_COUNT])
{
    double *v = malloc((reps ? reps : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; v && i < reps; i++) {
        const tks_work_counter *c = r[i].ok ? find(&r[i], name) : NULL;
        if (c && isfinite(c->figure.value))
            v[m++] = c->figure.value;
    }
    tks__bench_four(v, v ? m : 0, out);
    free(v);
}

static void flags_json(tks__json *j, unsigned flags)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {TKS_COUNTER_RATE, "rate"}, {TKS_COUNTER_AVG_THREADS, "avg_threads"},
        {TKS_COUNTER_ITERATION_INVARIANT, "iteration_invariant"},
        {TKS_COUNTER_AVG_ITERATIONS, "avg_iterations"}, {TKS_COUNTER_INVERT, "invert"}};
    tks__json_begin_array(j, "flags");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit)
            tks__json_string(j, NULL, names[i].name);
    tks__json_end_array(j);
}

void tks__bench_json_counters(tks__json *j, const tks_result *r)
{
    const tks_work_counter *c[TKS_WORK_COUNTERS_MAX];
    size_t n = sorted(r, c);
    if (!n)
        return;
    for (size_t i = 0; i < n; i++)
        tks__json_double(j, c[i]->name, c[i]->figure.value);
    tks__json_begin_object(j, "work_counters");
    for (size_t i = 0; i < n; i++) {
        tks__json_begin_object(j, c[i]->name);
        tks__json_double(j, "value", c[i]->value);
        flags_json(j, c[i]->flags);
        tks__json_u64(j, "k", c[i]->flags & TKS_COUNTER_K1024 ? 1024 : 1000);
        tks__json_double(j, "figure", c[i]->figure.value);
        tks__json_range(j, "figure_ci", c[i]->figure.lo, c[i]->figure.hi);
        if (c[i]->flags & TKS_COUNTER_RATE) {
            tks__json_double(j, "per_cycle", c[i]->per_cycle.value);
            tks__json_range(j, "per_cycle_ci", c[i]->per_cycle.lo, c[i]->per_cycle.hi);
        }
        tks__json_end_object(j);
    }
    tks__json_end_object(j);
}

void tks__bench_json_counter_aggregates(tks__json *j, const tks_result *r, size_t reps, int stat)
{
    const tks_work_counter *c[TKS_WORK_COUNTERS_MAX];
    size_t n = 0;
    for (size_t i = 0; i < reps && !n; i++) /* the first run that has them names them */
        if (r[i].ok)
            n = sorted(&r[i], c);
    for (size_t i = 0; i < n; i++) {
        double a[TKS__AGG_COUNT];
        tks__bench_counter_aggregate(r, reps, c[i]->name, a);
        tks__json_double(j, c[i]->name, a[stat]);
    }
}

/* v with Google Benchmark 1.7 console prefixes: k, M, G, T, P (steps of 1000, or 1024) above
 * one, m, u, n below it. */
static void human(char *buf, size_t size, double v, unsigned flags)
{
    static const char *const big[] = {"", "k", "M", "G", "T", "P"};
    static const char *const small[] = {"", "m", "u", "n", "p"};
    double k = flags & TKS_COUNTER_K1024 ? 1024 : 1000, a = fabs(v);
    int e = 0;
    if (!isfinite(v)) {
        snprintf(buf, size, "-");
        return;
    }
    if (a >= 1) {
        for (; a >= k && e < 5; e++)
            a /= k;
        snprintf(buf, size, "%s%.4g%s", v < 0 ? "-" : "", a, big[e]);
        return;
    }
    for (; a > 0 && a < 1 && e < 4; e++)
        a *= 1000;
    snprintf(buf, size, "%s%.4g%s", v < 0 ? "-" : "", a, small[e]);
}

void tks__bench_counter_text(char *buf, size_t size, double value, unsigned flags, int stat)
{
    char v[40];
    int rate = (flags & TKS_COUNTER_RATE) != 0, inv = (flags & TKS_COUNTER_INVERT) != 0;
    if (!isfinite(value)) { /* a cv over a mean of 0, a statistic of no run */
        snprintf(buf, size, "-");
        return;
    }
    if (stat == TKS__AGG_CV) { /* Google Benchmark's percentage unit: no rate suffix */
        snprintf(buf, size, "%.2f%%", 100 * value);
        return;
    }
    human(v, sizeof v, value, flags);
    snprintf(buf, size, "%s%s", v, rate ? (inv ? "s" : "/s") : "");
}

void tks__bench_per_cycle_name(char *buf, size_t size, const char *name)
{
    size_t n = strlen(name);
    /* bytes_per_second's is bytes_per_cycle; another counter's NAME_per_cycle */
    if (n > 11 && !strcmp(name + n - 11, "_per_second"))
        snprintf(buf, size, "%.*s_per_cycle", (int)n - 11, name);
    else
        snprintf(buf, size, "%s_per_cycle", name);
}

double tks__bench_counter_stat(const tks_result *r, size_t reps, const tks_work_counter *c,
                               int stat)
{
    double a[TKS__AGG_COUNT];
    if (stat < 0)
        return c->figure.value;
    tks__bench_counter_aggregate(r, reps, c->name, a);
    return a[stat];
}

size_t tks__bench_counters_sorted(const tks_result *r,
                                  const tks_work_counter *out[TKS_WORK_COUNTERS_MAX])
{
    return sorted(r, out);
}

void tks__bench_counters_cell(char *buf, size_t size, const tks_result *r, size_t reps, int stat)
{
    const tks_work_counter *c[TKS_WORK_COUNTERS_MAX];
    size_t n = sorted(r, c), used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && used < size; i++) {
        char v[48], pc[48] = "";
        int inv = (c[i]->flags & TKS_COUNTER_INVERT) != 0;
        int w;
        tks__bench_counter_text(v, sizeof v, tks__bench_counter_stat(r, reps, c[i], stat),
                                c[i]->flags, stat);
        if ((c[i]->flags & TKS_COUNTER_RATE) && stat < 0 && isfinite(c[i]->per_cycle.value))
            snprintf(pc, sizeof pc, " (%.4g%s)", c[i]->per_cycle.value, inv ? " cycles" : "/cycle");
        w = snprintf(buf + used, size - used, "%s%s=%s%s", used ? " " : "", c[i]->name, v, pc);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used < size) /* the event counters after them, as Google Benchmark's perf counters */
        tks__bench_events_cell(buf + used, size - used, used > 0, r, reps, stat);
}

/* Every counter name of the results, in order, with whether any is a rate. */
static size_t all_names(const tks_result *r, size_t n, const char *names[], int *rate, size_t max)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < r[i].n_work_counters && k < TKS_WORK_COUNTERS_MAX; k++) {
            const tks_work_counter *c = &r[i].work_counters[k];
            size_t at = 0;
            while (at < m && strcmp(names[at], c->name) < 0)
                at++;
            if (at < m && !strcmp(names[at], c->name)) {
                rate[at] |= (c->flags & TKS_COUNTER_RATE) != 0;
                continue;
            }
            if (m == max)
                continue;
            memmove(&names[at + 1], &names[at], (m - at) * sizeof names[0]);
            memmove(&rate[at + 1], &rate[at], (m - at) * sizeof rate[0]);
            names[at] = c->name;
            rate[at] = (c->flags & TKS_COUNTER_RATE) != 0;
            m++;
        }
    return m;
}

#define CSV_MAX 64 /* counter columns */

void tks__bench_csv_counters(FILE *f, const tks_result *all, size_t n, const tks_result *row)
{
    const char *names[CSV_MAX];
    int rate[CSV_MAX];
    size_t m = all_names(all, n, names, rate, CSV_MAX);
    for (size_t i = 0; i < m; i++) {
        const tks_work_counter *c = row ? find(row, names[i]) : NULL;
        char per[TKS_WORK_COUNTER_NAME + 16];
        if (!row) { /* the header */
            fputc(',', f);
            tks__csv_field(f, names[i]);
            tks__bench_per_cycle_name(per, sizeof per, names[i]);
            if (rate[i]) {
                fputc(',', f);
                tks__csv_field(f, per);
            }
            continue;
        }
        tks__csv_next_double(f, c && row->ok ? c->figure.value : NAN);
        if (rate[i])
            tks__csv_next_double(f, c && row->ok ? c->per_cycle.value : NAN);
    }
}

int tks__bench_have_counters(const tks_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].n_work_counters || tks__bench_events_counted(&r[i]))
            return 1;
    return 0;
}

void tks__bench_csv_counters_aggregate(FILE *f, const tks_result *all, size_t n,
                                       const tks_result *group, size_t reps, int stat)
{
    const char *names[CSV_MAX];
    int rate[CSV_MAX];
    size_t m = all_names(all, n, names, rate, CSV_MAX);
    for (size_t i = 0; i < m; i++) {
        double a[TKS__AGG_COUNT];
        tks__bench_counter_aggregate(group, reps, names[i], a);
        tks__csv_next_double(f, a[stat]);
        if (rate[i])
            fputc(',', f); /* per cycle: a run's figure, not aggregated */
    }
}
