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

void tks__bench_aggregate_of(const tks_result *r, size_t reps, tks__bench_aggregate *a)
{
    double *v = calloc(reps ? reps : 1, sizeof *v), cm = 0, csd = 0;
    memset(a, 0, sizeof *a);
    a->mean = a->median = a->stddev = a->cv = NAN;
    between(NULL, 0, &a->mean, &a->stddev, &a->ticks_mean, &a->ticks_next);
    a->cycles_mean = a->ticks_mean;
    a->cycles_next = a->ticks_next;
    if (!v)
        return;
    for (size_t i = 0; i < reps; i++)
        if (r[i].ok && isfinite(r[i].core_cycles.value))
            v[a->cycle_runs++] = r[i].core_cycles.value;
    between(v, a->cycle_runs, &cm, &csd, &a->cycles_mean, &a->cycles_next);
    for (size_t i = 0; i < reps; i++)
        if (r[i].ok)
            v[a->runs++] = r[i].estimate.value;
    if (a->runs) {
        between(v, a->runs, &a->mean, &a->stddev, &a->ticks_mean, &a->ticks_next);
        a->cv = a->mean != 0 ? a->stddev / fabs(a->mean) : NAN;
        a->median = tks__median(v, a->runs);
    }
    free(v);
}
