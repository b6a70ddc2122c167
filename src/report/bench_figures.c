/* bench_figures.c: the figures every benchmark format shares: the windows of the largest k with
 * their summary, and the aggregates over repetitions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/bench_report.h"
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

void tks__bench_aggregate_of(const tks_result *r, size_t reps, tks__bench_aggregate *a)
{
    double *v = malloc((reps ? reps : 1) * sizeof *v), sum = 0, ss = 0;
    memset(a, 0, sizeof *a);
    a->mean = a->median = a->stddev = a->cv = NAN;
    if (!v)
        return;
    for (size_t i = 0; i < reps; i++)
        if (r[i].ok)
            v[a->runs++] = r[i].estimate.value;
    if (a->runs) {
        for (size_t i = 0; i < a->runs; i++)
            sum += v[i];
        a->mean = sum / (double)a->runs;
        for (size_t i = 0; i < a->runs; i++)
            ss += (v[i] - a->mean) * (v[i] - a->mean);
        a->stddev = a->runs > 1 ? sqrt(ss / (double)(a->runs - 1)) : 0;
        a->cv = a->mean != 0 ? a->stddev / fabs(a->mean) : NAN;
        a->median = tks__median(v, a->runs);
    }
    free(v);
}
