/* SPDX-License-Identifier: MIT */
/* compare_gate.c (issue 46): --fail-on-regression on a benchmark whose runs are too few for a
 * test. Passing the gate on it would tell a CI job that single runs 30% slower are fine, so it
 * never passes: the change is set against what the files do hold, each side's mean with the
 * error its figures' own intervals (or their spread, the larger) give, widened by a spread
 * between processes that one process cannot show, TKS__CMP_ASSUMED_CV of the figure a process
 * (the coefficient of variation CodSpeed measured over 100 runs of four projects' benchmark
 * suites, each run on a fresh GitHub-hosted runner: 2.66%; docs/compare.md). A change whose
 * interval so widened still lies above the gate fails it; any other is not tested, and says
 * what each side needs for a test. */
#include "analysis/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define Z95 1.959963984540054

/* A side's runs as a test counts them: its figures, or the repetitions behind an aggregate
 * with a between-run interval. Below 4, a test needs more. */
static size_t runs_of(const tks__cmp_bench *b)
{
    return b->se_between ? b->runs : b->n;
}

/* The squared error of a side's mean in unit u, relative to the mean (NaN when the mean is not
 * above zero): the larger of what the figures' own intervals and their spread give, and the
 * assumed spread between processes over the processes behind them (one, unless the figures are
 * a --processes row's). */
static double relative_var(const tks__cmp_bench *b, enum tks__unit u, double *mean)
{
    const double *x = b->fig[u], *se = b->se[u];
    double m = 0, own = 0, spread = 0, processes = b->from_processes ? (double)b->n : 1;
    for (size_t i = 0; i < b->n; i++)
        m += x[i] / (double)b->n;
    for (size_t i = 0; i < b->n; i++) {
        own += se[i] * se[i] / ((double)b->n * (double)b->n);
        spread += (x[i] - m) * (x[i] - m);
    }
    spread = b->n >= 2 ? spread / (double)(b->n - 1) / (double)b->n : 0;
    *mean = m;
    if (!(m > 0))
        return NAN;
    return fmax(own, spread) / (m * m) +
           TKS__CMP_ASSUMED_CV * TKS__CMP_ASSUMED_CV / processes;
}

void tks__cmp_gate_untested(const tks__cmp_bench *a, const tks__cmp_bench *b, double threshold,
                            double gate, tks__cmp_row *row)
{
    double mo, mn, v;
    if (!row->too_few)
        return;
    row->runs_old = runs_of(a);
    row->runs_new = runs_of(b);
    row->need_old = row->runs_old < TKS__CMP_RUNS_FOR_TEST ? TKS__CMP_RUNS_FOR_TEST : 0;
    row->need_new = row->runs_new < TKS__CMP_RUNS_FOR_TEST ? TKS__CMP_RUNS_FOR_TEST : 0;
    if (gate < 0)
        return;
    v = relative_var(a, row->unit, &mo) + relative_var(b, row->unit, &mn);
    if (mn > 0 && isfinite(v)) {
        /* on the log scale, where a ratio's error is the sum of its two sides' */
        row->assumed_lo = mn / mo * exp(-Z95 * sqrt(v)) - 1;
        row->assumed_hi = mn / mo * exp(Z95 * sqrt(v)) - 1;
    }
    /* the verdict's rule on the widened interval: slower, and beyond the gate */
    row->regression = tks__verdict_of(row->change, row->assumed_lo, row->assumed_hi, threshold) ==
                          TKS__SLOWER &&
                      row->assumed_lo > gate;
    row->not_tested = !row->regression;
}

/* One side: "old has 1 run, needs 4 (--processes 4)", or "old has 5 runs, enough". */
static size_t side_text(char *buf, size_t size, const char *side, size_t have, size_t need,
                        int ours)
{
    int n;
    if (!need)
        n = snprintf(buf, size, "%s has %zu run%s, enough", side, have, have == 1 ? "" : "s");
    else
        n = snprintf(buf, size, "%s has %zu run%s, needs %zu (%s%zu)", side, have,
                     have == 1 ? "" : "s", need,
                     ours ? "--processes " : "--benchmark_repetitions=", need);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size;
}

void tks__cmp_needs_text(const tks__cmp_result *r, const tks__cmp_row *row, char *buf,
                         size_t size)
{
    size_t used;
    if (!size)
        return;
    used = side_text(buf, size, "old", row->runs_old, row->need_old, r->old_ours);
    if (used + 2 < size) {
        memcpy(buf + used, "; ", 3);
        side_text(buf + used + 2, size - used - 2, "new", row->runs_new, row->need_new,
                  r->new_ours);
    }
}
