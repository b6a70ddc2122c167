/* SPDX-License-Identifier: MIT */
/* compare_read.c: a result file into figures per benchmark. Ours carry core cycles, ticks and ns
 * with intervals (and, from --processes, one figure per process and a between-run interval);
 * Google Benchmark's carry a time per repetition. Anything else is refused with the reason. */
#include "analysis/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/common.h"

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return TKS_EINVAL;
}

void tks__cmp_file_free(tks__cmp_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++) {
        for (int u = 0; u < TKS__UNITS; u++) {
            free(f->b[i].fig[u]);
            free(f->b[i].se[u]);
        }
        tks__cmp_counters_free(&f->b[i]);
    }
    free(f->b);
    f->b = NULL;
    f->n = 0;
}

/* Where a figure came from, for an error that names it: the benchmark and the repetition (or the
 * process) of the file. */
struct where {
    const char *name;
    const char *what; /* "repetition_index", "row", "process_figures" */
    size_t index;
};

/* Every figure read is checked before any statistic sees it; one message for all of them. */
static int bad_figure(char *err, size_t errlen, const struct where *w, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad_figure(char *err, size_t errlen, const struct where *w, const char *fmt, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return refuse(err, errlen, "benchmark '%s' %s %zu: %s", w->name, w->what, w->index, why);
}

enum need { OPTIONAL, REQUIRED };

/* The number under key: a finite number, or NaN when the key is missing or null and the figure
 * may be missing (an optional unit). Anything else is refused through bad_figure. */
static int figure(const tks__jr_doc *d, size_t obj, const char *key, enum need need,
                  const struct where *w, double *v, char *err, size_t errlen)
{
    size_t n = tks__jr_get(d, obj, key);
    *v = NAN;
    if (n == TKS__JR_NONE || tks__jr_is(d, n, TKS__JR_NULL)) {
        if (need == OPTIONAL)
            return 0;
        return bad_figure(err, errlen, w, "%s is %s", key, n == TKS__JR_NONE ? "missing" : "null");
    }
    if (!tks__jr_is(d, n, TKS__JR_NUMBER))
        return bad_figure(err, errlen, w, "%s is not a number", key);
    *v = tks__jr_number(d, n);
    if (!isfinite(*v))
        return bad_figure(err, errlen, w, "%s is %g, not a finite number", key, *v);
    return 0;
}

/* A Google Benchmark time: it times whole iterations, so zero or below cannot be. */
static int positive_time(const tks__jr_doc *d, size_t obj, const char *key, enum need need,
                         const struct where *w, double *v, char *err, size_t errlen)
{
    int rc = figure(d, obj, key, need, w, v, err, errlen);
    if (rc == 0 && *v <= 0)
        return bad_figure(err, errlen, w, "%s is %g: Google Benchmark times whole iterations, "
                          "so a time of zero or below cannot be", key, *v);
    return rc;
}

/* The standard error a ~95% interval [lo, hi] implies; 0 when there is none (no interval, or
 * [null, null]: the writer had none). A malformed interval is refused. */
static int se_of(const tks__jr_doc *d, size_t ci, const char *key, const struct where *w,
                 double *se, char *err, size_t errlen)
{
    size_t a = tks__jr_first(d, ci), b = tks__jr_next(d, ci, a);
    double lo = tks__jr_number(d, a), hi = tks__jr_number(d, b);
    *se = 0;
    if (ci == TKS__JR_NONE || tks__jr_is(d, ci, TKS__JR_NULL) ||
        (tks__jr_is(d, ci, TKS__JR_ARRAY) && tks__jr_count(d, ci) == 2 &&
         tks__jr_is(d, a, TKS__JR_NULL) && tks__jr_is(d, b, TKS__JR_NULL)))
        return 0;
    if (!tks__jr_is(d, ci, TKS__JR_ARRAY) || tks__jr_count(d, ci) != 2 || !isfinite(lo) ||
        !isfinite(hi) || hi < lo)
        return bad_figure(err, errlen, w, "%s is not an interval [low, high] of finite numbers",
                          key);
    *se = (hi - lo) / (2 * 1.96);
    return 0;
}

static tks__cmp_bench *bench_named(tks__cmp_file *f, const char *name)
{
    tks__cmp_bench *v;
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->b[i].name, name))
            return &f->b[i];
    if (!(v = realloc(f->b, (f->n + 1) * sizeof *v)))
        return NULL;
    f->b = v;
    v = &f->b[f->n++];
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    for (int u = 0; u < TKS__UNITS; u++)
        v->has[u] = 1;
    return v;
}

/* One figure: value[u] NaN where the unit is missing (then the benchmark lacks it). runs: how
 * many runs the figure stands for (1, or an aggregate's repetitions). */
static int add_figure(tks__cmp_bench *b, const double *value, const double *se, size_t runs)
{
    for (int u = 0; u < TKS__UNITS; u++) {
        double *fv = realloc(b->fig[u], (b->n + 1) * sizeof *fv), *sv;
        if (fv)
            b->fig[u] = fv;
        sv = realloc(b->se[u], (b->n + 1) * sizeof *sv);
        if (sv)
            b->se[u] = sv;
        if (!fv || !sv)
            return TKS_ENOMEM;
        fv[b->n] = value[u];
        sv[b->n] = se[u];
        if (!isfinite(value[u]))
            b->has[u] = 0;
    }
    b->n++;
    b->runs += runs;
    return 0;
}

/* Nanoseconds per unit of a row's times: Google Benchmark's time_unit, ns when it has none. */
static int ns_factor(const tks__jr_doc *d, size_t row, const struct where *w, double *k, char *err,
                     size_t errlen)
{
    static const struct { const char *unit; double ns; } units[] = {
        {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    size_t tu = tks__jr_get(d, row, "time_unit");
    char unit[24];
    *k = 1; /* Google Benchmark's default */
    if (tu == TKS__JR_NONE)
        return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (tks__jr_string_is(d, tu, units[i].unit)) {
            *k = units[i].ns;
            return 0;
        }
    if (tks__jr_string(d, tu, unit, sizeof unit) != 0)
        return bad_figure(err, errlen, w, "time_unit is not a string");
    return bad_figure(err, errlen, w, "time_unit '%s' is not one of ns, us, ms, s", unit);
}

/* The figures of one iteration row: per process when it has them, else the row's own. Ours
 * carry ticks (always), core cycles and ns (null when the run had no core clock or no TSC
 * rate), and may be near zero or below (the empty window is subtracted); Google Benchmark's
 * carry real_time (and cpu_time), which time whole iterations. */
static int row_figures(const tks__jr_doc *d, size_t row, int ours, const struct where *w,
                       tks__cmp_bench *b, char *err, size_t errlen)
{
    size_t bw = tks__jr_get(d, row, "between_run"), pf = tks__jr_get(d, row, "process_figures");
    double v[TKS__UNITS], se[TKS__UNITS] = {0, 0, 0}, k, cpu;
    size_t core_ci = tks__jr_get(d, bw, "core_cycles_ci"), ticks_ci = tks__jr_get(d, bw, "ticks_ci");
    int rc;
    if ((rc = ns_factor(d, row, w, &k, err, errlen)) != 0)
        return rc;
    if (!ours) {
        if ((rc = positive_time(d, row, "real_time", REQUIRED, w, &v[TKS__UNIT_NS], err, errlen)) ||
            (rc = positive_time(d, row, "cpu_time", OPTIONAL, w, &cpu, err, errlen)))
            return rc;
        v[TKS__UNIT_CORE] = v[TKS__UNIT_TICKS] = NAN;
        v[TKS__UNIT_NS] *= k;
        return add_figure(b, v, se, 1);
    }
    if (core_ci == TKS__JR_NONE)
        core_ci = tks__jr_get(d, row, "core_cycles_ci");
    if (ticks_ci == TKS__JR_NONE)
        ticks_ci = tks__jr_get(d, row, "ticks_ci");
    if ((rc = figure(d, row, "core_cycles", OPTIONAL, w, &v[TKS__UNIT_CORE], err, errlen)) ||
        (rc = figure(d, row, "ticks", REQUIRED, w, &v[TKS__UNIT_TICKS], err, errlen)) ||
        (rc = figure(d, row, "real_time", OPTIONAL, w, &v[TKS__UNIT_NS], err, errlen)) ||
        (rc = se_of(d, core_ci, "core_cycles_ci", w, &se[TKS__UNIT_CORE], err, errlen)) ||
        (rc = se_of(d, ticks_ci, "ticks_ci", w, &se[TKS__UNIT_TICKS], err, errlen)))
        return rc;
    v[TKS__UNIT_NS] *= k;
    b->one_process = !(tks__jr_number(d, tks__jr_get(d, bw, "processes")) > 1);
    se[TKS__UNIT_NS] = v[TKS__UNIT_TICKS] > 0 ? se[TKS__UNIT_TICKS] * v[TKS__UNIT_NS] / v[TKS__UNIT_TICKS] : 0;
    if (!tks__jr_is(d, pf, TKS__JR_ARRAY) || tks__jr_count(d, pf) == 0)
        return add_figure(b, v, se, 1);
    /* tks_main writes the same process_figures beside each of an instance's rows (one row a
     * process): they are taken once. */
    if (b->from_processes)
        return 0;
    b->from_processes = 1;
    /* One figure per process: each process's own interval is not in the file, so each is given
     * the row's within-run one; the spread of the processes carries the rest. */
    if ((rc = se_of(d, tks__jr_get(d, row, "core_cycles_ci"), "core_cycles_ci", w,
                    &se[TKS__UNIT_CORE], err, errlen)) ||
        (rc = se_of(d, tks__jr_get(d, row, "ticks_ci"), "ticks_ci", w, &se[TKS__UNIT_TICKS], err,
                    errlen)))
        return rc;
    struct where pw = {w->name, "process_figures", 0};
    for (size_t p = tks__jr_first(d, pf); p != TKS__JR_NONE; p = tks__jr_next(d, pf, p), pw.index++) {
        double f[TKS__UNITS], s[TKS__UNITS];
        if ((rc = figure(d, p, "core_cycles", OPTIONAL, &pw, &f[TKS__UNIT_CORE], err, errlen)) ||
            (rc = figure(d, p, "ticks", REQUIRED, &pw, &f[TKS__UNIT_TICKS], err, errlen)) ||
            (rc = figure(d, p, "ns", OPTIONAL, &pw, &f[TKS__UNIT_NS], err, errlen)))
            return rc;
        memcpy(s, se, sizeof s);
        s[TKS__UNIT_NS] = f[TKS__UNIT_TICKS] > 0 ? s[TKS__UNIT_TICKS] * f[TKS__UNIT_NS] / f[TKS__UNIT_TICKS] : 0;
        if ((rc = add_figure(b, f, s, 1)) != 0)
            return rc;
    }
    return 0;
}

/* Google Benchmark with --benchmark_report_aggregates_only: the mean row of each benchmark,
 * its standard error from the stddev row over its repetitions. */
static int aggregate_figures(const tks__jr_doc *d, size_t benches, tks__cmp_file *f, char *err,
                             size_t errlen)
{
    size_t index = 0;
    for (size_t r = tks__jr_first(d, benches); r != TKS__JR_NONE;
         r = tks__jr_next(d, benches, r), index++) {
        char name[128];
        double v[TKS__UNITS] = {NAN, NAN, NAN}, se[TKS__UNITS] = {0, 0, 0}, reps, k, sd;
        struct where w = {name, "row", index};
        tks__cmp_bench *b;
        int rc;
        if (!tks__jr_string_is(d, tks__jr_get(d, r, "aggregate_name"), "mean") ||
            tks__jr_string(d, tks__jr_get(d, r, "run_name"), name, sizeof name) != 0)
            continue;
        if ((rc = ns_factor(d, r, &w, &k, err, errlen)) ||
            (rc = positive_time(d, r, "real_time", REQUIRED, &w, &v[TKS__UNIT_NS], err, errlen)) ||
            (rc = figure(d, r, "repetitions", REQUIRED, &w, &reps, err, errlen)))
            return rc;
        if (!(reps >= 1 && reps <= 1e9 && reps == floor(reps)))
            return bad_figure(err, errlen, &w, "repetitions is %g, not a count", reps);
        v[TKS__UNIT_NS] *= k;
        for (size_t s = tks__jr_first(d, benches), si = 0; s != TKS__JR_NONE;
             s = tks__jr_next(d, benches, s), si++) {
            struct where sw = {name, "row", si};
            if (!tks__jr_string_is(d, tks__jr_get(d, s, "run_name"), name) ||
                !tks__jr_string_is(d, tks__jr_get(d, s, "aggregate_name"), "stddev") || reps < 2)
                continue;
            if ((rc = ns_factor(d, s, &sw, &k, err, errlen)) ||
                (rc = figure(d, s, "real_time", REQUIRED, &sw, &sd, err, errlen)))
                return rc;
            if (sd < 0)
                return bad_figure(err, errlen, &sw, "a standard deviation of %g", sd);
            se[TKS__UNIT_NS] = sd * k / sqrt(reps);
        }
        if (!(b = bench_named(f, name)))
            return TKS_ENOMEM;
        /* the mean of repetitions, its error from their spread */
        b->se_between = se[TKS__UNIT_NS] > 0;
        if ((rc = add_figure(b, v, se, (size_t)reps)) != 0)
            return rc;
    }
    return 0;
}

static void context(const tks__jr_doc *d, size_t ctx, tks__cmp_file *f)
{
    size_t cpu = tks__jr_get(d, ctx, "cpu");
    tks__jr_string(d, tks__jr_get(d, ctx, "host_name"), f->host, sizeof f->host);
    tks__jr_string(d, tks__jr_get(d, ctx, "library_build_type"), f->build, sizeof f->build);
    if (f->ours) {
        char brand[120] = "", vendor[24] = "";
        tks__jr_string(d, tks__jr_get(d, ctx, "tickscope_version"), f->version, sizeof f->version);
        tks__jr_string(d, tks__jr_get(d, ctx, "method"), f->method, sizeof f->method);
        tks__jr_string(d, tks__jr_get(d, ctx, "mode"), f->mode, sizeof f->mode);
        tks__jr_string(d, tks__jr_get(d, cpu, "brand"), brand, sizeof brand);
        tks__jr_string(d, tks__jr_get(d, cpu, "vendor"), vendor, sizeof vendor);
        double fam = tks__jr_number(d, tks__jr_get(d, cpu, "family"));
        double mod = tks__jr_number(d, tks__jr_get(d, cpu, "model"));
        if (cpu != TKS__JR_NONE)
            snprintf(f->cpu, sizeof f->cpu, "%s (%s family %d model %d)", brand, vendor,
                     fam >= 0 && fam < 1e6 ? (int)fam : -1, mod >= 0 && mod < 1e6 ? (int)mod : -1);
        f->tsc_hz = tks__jr_number(d, tks__jr_get(d, tks__jr_get(d, ctx, "tsc"), "hz"));
        snprintf(f->tool, sizeof f->tool, "tickscope %s", f->version);
    } else {
        double cpus = tks__jr_number(d, tks__jr_get(d, ctx, "num_cpus"));
        double mhz = tks__jr_number(d, tks__jr_get(d, ctx, "mhz_per_cpu"));
        if (isfinite(cpus) && isfinite(mhz))
            snprintf(f->cpu, sizeof f->cpu, "%.0f CPUs at %.0f MHz", cpus, mhz);
        snprintf(f->tool, sizeof f->tool, "Google Benchmark");
    }
    if (!isfinite(f->tsc_hz))
        f->tsc_hz = 0;
}

/* What a JSON document that is not a result file probably is, for the error. */
static const char *what_else(const tks__jr_doc *d)
{
    if (tks__jr_get(d, 0, "tsc") != TKS__JR_NONE && tks__jr_get(d, 0, "cpu") != TKS__JR_NONE)
        return " (it looks like `tickscope info --json`)";
    if (tks__jr_get(d, 0, "regions") != TKS__JR_NONE)
        return " (it looks like a regions report)";
    if (tks__jr_get(d, 0, "methods") != TKS__JR_NONE || tks__jr_get(d, 0, "points") != TKS__JR_NONE)
        return " (it looks like `tickscope validate` or `resolution` output)";
    return "";
}

int tks__cmp_file_read(const char *buf, size_t len, tks__cmp_file *f, char *err, size_t errlen)
{
    tks__jr_doc d;
    size_t benches, ctx, rows = 0, timed = 0, failed = 0;
    int rc;
    if (!f)
        return TKS_EINVAL;
    memset(f, 0, sizeof *f);
    if ((rc = tks__jr_parse(&d, buf, len)) != 0) {
        if (rc != TKS_ENOMEM)
            rc = refuse(err, errlen, "not JSON: %s", d.err);
        goto out;
    }
    benches = tks__jr_get(&d, 0, "benchmarks");
    ctx = tks__jr_get(&d, 0, "context");
    if (!tks__jr_is(&d, benches, TKS__JR_ARRAY)) {
        rc = refuse(err, errlen, "JSON, but not a benchmark result: no \"benchmarks\" array%s; "
                    "compare reads --format json of tks_main programs and Google Benchmark's "
                    "--benchmark_format=json", what_else(&d));
        goto out;
    }
    f->ours = tks__jr_get(&d, ctx, "tickscope_version") != TKS__JR_NONE;
    context(&d, ctx, f);
    for (size_t r = tks__jr_first(&d, benches), index = 0; r != TKS__JR_NONE;
         r = tks__jr_next(&d, benches, r), index++) {
        char name[128];
        double ri;
        tks__cmp_bench *b;
        size_t rt = tks__jr_get(&d, r, "run_type"), rix = tks__jr_get(&d, r, "repetition_index");
        struct where w = {name, "row", index};
        rows++;
        if (tks__jr_get(&d, r, "real_time") == TKS__JR_NONE &&
            !tks__jr_is(&d, tks__jr_get(&d, r, "error_occurred"), TKS__JR_TRUE))
            continue;
        timed++;
        if (tks__jr_is(&d, tks__jr_get(&d, r, "error_occurred"), TKS__JR_TRUE)) {
            failed++;
            continue;
        }
        if (rt != TKS__JR_NONE && !tks__jr_string_is(&d, rt, "iteration"))
            continue;
        if (tks__jr_string(&d, tks__jr_get(&d, r, "run_name"), name, sizeof name) != 0 &&
            tks__jr_string(&d, tks__jr_get(&d, r, "name"), name, sizeof name) != 0)
            continue;
        ri = tks__jr_number(&d, rix);
        if (ri >= 0 && ri < 1e15 && ri == floor(ri))
            w.what = "repetition_index", w.index = (size_t)ri;
        if (!(b = bench_named(f, name))) {
            rc = TKS_ENOMEM;
            goto out;
        }
        if ((rc = row_figures(&d, r, f->ours, &w, b, err, errlen)) != 0 ||
            (rc = tks__cmp_counters_read(&d, r, f->ours, b)) != 0) /* issue 26 */
            goto out;
    }
    if (f->n == 0 && (rc = aggregate_figures(&d, benches, f, err, errlen)) != 0)
        goto out;
    if (rows && !timed)
        rc = refuse(err, errlen, "JSON with a \"benchmarks\" array, but not a benchmark result: "
                    "no entry has a \"real_time\" (another tool's JSON?)");
    else if (f->n == 0 && failed)
        rc = refuse(err, errlen, "no benchmarks: all %zu failed", failed);
    else if (f->n == 0)
        rc = refuse(err, errlen, "no benchmarks in it");
    else
        rc = 0;
out:
    tks__jr_free(&d);
    if (rc)
        tks__cmp_file_free(f);
    return rc;
}
