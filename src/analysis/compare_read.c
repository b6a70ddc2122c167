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
    for (size_t i = 0; i < f->n; i++)
        for (int u = 0; u < TKS__UNITS; u++) {
            free(f->b[i].fig[u]);
            free(f->b[i].se[u]);
        }
    free(f->b);
    f->b = NULL;
    f->n = 0;
}

/* The standard error a ~95% interval [lo, hi] implies; 0 when there is none. */
static double se_of(const tks__jr_doc *d, size_t ci)
{
    double lo = tks__jr_number(d, tks__jr_first(d, ci));
    double hi = tks__jr_number(d, tks__jr_next(d, ci, tks__jr_first(d, ci)));
    if (!tks__jr_is(d, ci, TKS__JR_ARRAY) || !isfinite(lo) || !isfinite(hi) || hi < lo)
        return 0;
    return (hi - lo) / (2 * 1.96);
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

/* One figure: value[u] NaN where the unit is missing (then the benchmark lacks it). */
static int add_figure(tks__cmp_bench *b, const double *value, const double *se)
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
    return 0;
}

static double ns_factor(const tks__jr_doc *d, size_t row)
{
    static const struct { const char *unit; double ns; } units[] = {
        {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    size_t tu = tks__jr_get(d, row, "time_unit");
    if (tu == TKS__JR_NONE)
        return 1; /* Google Benchmark's default */
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (tks__jr_string_is(d, tu, units[i].unit))
            return units[i].ns;
    return NAN;
}

/* The figures of one iteration row: per process when it has them, else the row's own. */
static int row_figures(const tks__jr_doc *d, size_t row, tks__cmp_bench *b)
{
    size_t bw = tks__jr_get(d, row, "between_run"), pf = tks__jr_get(d, row, "process_figures");
    double v[TKS__UNITS], se[TKS__UNITS], k = ns_factor(d, row);
    size_t core_ci = tks__jr_get(d, bw, "core_cycles_ci"), ticks_ci = tks__jr_get(d, bw, "ticks_ci");
    int rc;
    b->between |= core_ci != TKS__JR_NONE || ticks_ci != TKS__JR_NONE;
    if (core_ci == TKS__JR_NONE)
        core_ci = tks__jr_get(d, row, "core_cycles_ci");
    if (ticks_ci == TKS__JR_NONE)
        ticks_ci = tks__jr_get(d, row, "ticks_ci");
    v[TKS__UNIT_CORE] = tks__jr_number(d, tks__jr_get(d, row, "core_cycles"));
    v[TKS__UNIT_TICKS] = tks__jr_number(d, tks__jr_get(d, row, "ticks"));
    v[TKS__UNIT_NS] = tks__jr_number(d, tks__jr_get(d, row, "real_time")) * k;
    se[TKS__UNIT_CORE] = se_of(d, core_ci);
    se[TKS__UNIT_TICKS] = se_of(d, ticks_ci);
    se[TKS__UNIT_NS] = v[TKS__UNIT_TICKS] > 0 ? se[TKS__UNIT_TICKS] * v[TKS__UNIT_NS] / v[TKS__UNIT_TICKS] : 0;
    if (!tks__jr_is(d, pf, TKS__JR_ARRAY) || tks__jr_count(d, pf) == 0)
        return add_figure(b, v, se);
    /* tks_main writes the same process_figures beside each of an instance's rows (one row a
     * process): they are taken once. */
    if (b->from_processes)
        return 0;
    b->from_processes = 1;
    /* One figure per process: each process's own interval is not in the file, so each is given
     * the row's within-run one; the spread of the processes carries the rest. */
    se[TKS__UNIT_CORE] = se_of(d, tks__jr_get(d, row, "core_cycles_ci"));
    se[TKS__UNIT_TICKS] = se_of(d, tks__jr_get(d, row, "ticks_ci"));
    for (size_t p = tks__jr_first(d, pf); p != TKS__JR_NONE; p = tks__jr_next(d, pf, p)) {
        double w[TKS__UNITS], s[TKS__UNITS];
        w[TKS__UNIT_CORE] = tks__jr_number(d, tks__jr_get(d, p, "core_cycles"));
        w[TKS__UNIT_TICKS] = tks__jr_number(d, tks__jr_get(d, p, "ticks"));
        w[TKS__UNIT_NS] = tks__jr_number(d, tks__jr_get(d, p, "ns"));
        memcpy(s, se, sizeof s);
        s[TKS__UNIT_NS] = w[TKS__UNIT_TICKS] > 0 ? s[TKS__UNIT_TICKS] * w[TKS__UNIT_NS] / w[TKS__UNIT_TICKS] : 0;
        if ((rc = add_figure(b, w, s)) != 0)
            return rc;
    }
    return 0;
}

/* Google Benchmark with --benchmark_report_aggregates_only: the mean row of each benchmark,
 * its standard error from the stddev row. */
static int aggregate_figures(const tks__jr_doc *d, size_t benches, tks__cmp_file *f)
{
    for (size_t r = tks__jr_first(d, benches); r != TKS__JR_NONE; r = tks__jr_next(d, benches, r)) {
        char name[128];
        double v[TKS__UNITS] = {NAN, NAN, NAN}, se[TKS__UNITS] = {0, 0, 0}, reps;
        tks__cmp_bench *b;
        int rc;
        if (!tks__jr_string_is(d, tks__jr_get(d, r, "aggregate_name"), "mean") ||
            tks__jr_string(d, tks__jr_get(d, r, "run_name"), name, sizeof name) != 0)
            continue;
        v[TKS__UNIT_NS] = tks__jr_number(d, tks__jr_get(d, r, "real_time")) * ns_factor(d, r);
        reps = tks__jr_number(d, tks__jr_get(d, r, "repetitions"));
        for (size_t s = tks__jr_first(d, benches); s != TKS__JR_NONE; s = tks__jr_next(d, benches, s))
            if (tks__jr_string_is(d, tks__jr_get(d, s, "run_name"), name) &&
                tks__jr_string_is(d, tks__jr_get(d, s, "aggregate_name"), "stddev") && reps >= 2)
                se[TKS__UNIT_NS] = tks__jr_number(d, tks__jr_get(d, s, "real_time")) *
                                   ns_factor(d, s) / sqrt(reps);
        if (!isfinite(v[TKS__UNIT_NS]) || !isfinite(se[TKS__UNIT_NS]))
            continue;
        if (!(b = bench_named(f, name)))
            return TKS_ENOMEM;
        b->between = 1; /* the mean of repetitions, its error from their spread */
        if ((rc = add_figure(b, v, se)) != 0)
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
    for (size_t r = tks__jr_first(&d, benches); r != TKS__JR_NONE; r = tks__jr_next(&d, benches, r)) {
        char name[128];
        tks__cmp_bench *b;
        size_t rt = tks__jr_get(&d, r, "run_type");
        rows++;
        if (!tks__jr_is(&d, tks__jr_get(&d, r, "real_time"), TKS__JR_NUMBER) &&
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
        if (!isfinite(ns_factor(&d, r)))
            continue;
        if (!(b = bench_named(f, name)) || (rc = row_figures(&d, r, b)) != 0) {
            rc = TKS_ENOMEM;
            goto out;
        }
    }
    if (f->n == 0 && (rc = aggregate_figures(&d, benches, f)) != 0)
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
