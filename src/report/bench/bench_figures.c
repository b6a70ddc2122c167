/* SPDX-License-Identifier: MIT */
/* bench_figures.c: the figures every benchmark format shares: the windows of the largest k with
 * their summary, and the aggregates over repetitions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench/bench_report.h"
#include "stats/estimate.h"
#include "stats/sort.h"

uint64_t *tks__bench_windows(const tks_result *r, size_t *count, tks_summary *summary)
{
    uint32_t kmax = 0;
    uint64_t *v, *scratch;
    size_t m = 0;
    *count = 0;
    for (size_t s = 0; s < r->n_samples; s++)
        if (r->k[s] > kmax)
            kmax = r->k[s];
    if (!kmax || !(v = malloc(r->n_samples * sizeof *v)))
        return NULL;
    for (size_t s = 0; s < r->n_samples; s++)
        if (r->k[s] == kmax)
            v[m++] = r->real[s];
    /* tks_summarize leaves its sorted copy in scratch: that copy is what callers get. */
    scratch = malloc(m * sizeof *scratch);
    if (!scratch || tks_summarize(v, m, r->quantum, scratch, summary) != 0) {
        free(scratch);
        free(v);
        return NULL;
    }
    free(v);
    *count = m;
    return scratch;
}

/* Mean, sample sd, and the two between-run intervals of v[0..n). */
static void between(const double *v, size_t n, double *mean, double *sd, tks_interval *of_mean,
                    tks_interval *next)
{
    double sum = 0, ss = 0, t;
    of_mean->value = of_mean->lo = of_mean->hi = NAN;
    *next = *of_mean;
    *mean = *sd = NAN;
    if (!n)
        return;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    *mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    if (n < 2)
        return;
    t = tks__t975(n - 1);
    of_mean->value = next->value = *mean;
    of_mean->lo = *mean - t * *sd / sqrt((double)n);
    of_mean->hi = *mean + t * *sd / sqrt((double)n);
    next->lo = *mean - t * *sd * sqrt(1 + 1 / (double)n);
    next->hi = *mean + t * *sd * sqrt(1 + 1 / (double)n);
}

/* mean, median, stddev and cv of v[0..n) into out (NaN when n is 0). */
void tks__bench_four(double *v, size_t n, double out[TKS__AGG_COUNT])
{
    double mean, sd;
    tks_interval a, b;
    for (int k = 0; k < TKS__AGG_COUNT; k++)
        out[k] = NAN;
    if (!n)
        return;
    between(v, n, &mean, &sd, &a, &b);
    out[TKS__AGG_MEAN] = mean;
    out[TKS__AGG_STDDEV] = sd;
    out[TKS__AGG_CV] = mean != 0 ? sd / fabs(mean) : NAN;
    out[TKS__AGG_MEDIAN] = tks__median(v, n);
}

void tks__bench_aggregate_of(const tks_result *r, size_t reps, const tks_platform *p,
                             tks__bench_aggregate *a)
{
    double *v = calloc(reps ? reps : 1, sizeof *v), m = 0, sd = 0;
    memset(a, 0, sizeof *a);
    between(NULL, 0, &m, &sd, &a->ticks_mean, &a->ticks_next);
    a->cycles_mean = a->ticks_mean;
    a->cycles_next = a->ticks_next;
    tks__bench_four(NULL, 0, a->ticks);
    tks__bench_four(NULL, 0, a->ns);
    tks__bench_four(NULL, 0, a->cycles);
    if (!v)
        return;
    for (size_t i = 0; i < reps; i++)
        if (r[i].ok && isfinite(r[i].core_cycles.value))
            v[a->cycle_runs++] = r[i].core_cycles.value;
    between(v, a->cycle_runs, &m, &sd, &a->cycles_mean, &a->cycles_next);
    for (size_t i = 0; i < reps; i++)
        a->runs += r[i].ok != 0;
    if (a->cycle_runs && a->cycle_runs == a->runs)
        tks__bench_four(v, a->cycle_runs, a->cycles);
    a->runs = 0;
    for (size_t i = 0; i < reps; i++)
        if (r[i].ok)
            v[a->runs++] = r[i].estimate.value;
    if (a->runs) {
        between(v, a->runs, &m, &sd, &a->ticks_mean, &a->ticks_next);
        tks__bench_four(v, a->runs, a->ticks);
        for (int k = 0; k < TKS__AGG_COUNT; k++)
            a->ns[k] = k == TKS__AGG_CV ? a->ticks[k] : tks_ticks_to_ns(p, a->ticks[k]);
    }
    free(v);
}

/* Google Benchmark's --benchmark_time_unit: real_time and the console's time column in ns (the
 * default), us, ms or s, converted here once for every writer. */
static const struct { const char *name; double per_ns; } time_units[] = {
    {"ns", 1}, {"us", 1e-3}, {"ms", 1e-6}, {"s", 1e-9}};

double tks__bench_time(const tks_options *o, double ns)
{
    unsigned u = (unsigned)o->time_unit < 4 ? (unsigned)o->time_unit : 0;
    return ns * time_units[u].per_ns;
}

const char *tks__bench_time_unit(const tks_options *o)
{
    return time_units[(unsigned)o->time_unit < 4 ? (unsigned)o->time_unit : 0].name;
}

int tks__bench_show_runs(const tks_options *o, const tks_result *group, const tks_platform *p)
{
    return tks__bench_show_runs_of(o, o->report_aggregates_only, group, p);
}

int tks__bench_show_runs_of(const tks_options *o, int aggregates_only, const tks_result *group,
                            const tks_platform *p)
{
    tks__bench_aggregate a;
    if (!aggregates_only || o->repetitions < 2)
        return 1;
    /* As Google Benchmark: the runs' rows when there are no aggregates (fewer than two runs
     * succeeded). */
    tks__bench_aggregate_of(group, o->repetitions, p, &a);
    return a.runs < 2;
}
