/* SPDX-License-Identifier: MIT */
/* compare.c: two result files judged benchmark by benchmark. The unit is the steadiest both files
 * have (core cycles, then ticks, then ns); the test is the one the figures allow, and no verdict
 * is claimed that the runs cannot support:
 * - Mann-Whitney U with the Hodges-Lehmann shift when its exact distribution can reach 5% with
 *   the figures at hand (4 and 4, 3 and 5, 2 and 10, ...);
 * - else a smoothed bootstrap of the ratio of means, when each side either has RESAMPLE_MIN
 *   figures or more or carries intervals that are themselves between-run ones (Google
 *   Benchmark's aggregates: the mean of repetitions with their standard deviation), and a rank
 *   test over the runs behind the figures could reach 5%: the smoothing then draws the
 *   run-to-run spread. Resampling two or three figures whose intervals are within-run cannot see
 *   that spread (two a side reach p = 1/20000 where a rank test gives 1/3);
 * - otherwise no test: "inconclusive: too few runs", with the smallest p a rank test could give;
 *   under a gate such a row never passes (compare_gate.c, issue 46). */
#include "analysis/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "stats/rank_tests.h"
#include "stats/sort.h"
#include "tickscope/common.h"

#define DRAWS 20000u
/* Resampling a side's own figures sees their spread from four on (the smallest U test that can
 * reach 5% has 4 and 4): fewer must carry between-run intervals of their own. */
#define RESAMPLE_MIN TKS__CMP_RUNS_FOR_TEST
#define ALPHA 0.05
#define TSC_SAME 1e-4 /* TSC rates within 100 ppm are the same clock measured twice */

const char *tks__verdict_name(enum tks__verdict v)
{
    static const char *const names[] = {"same", "slower", "faster", "inconclusive"};
    return (unsigned)v < 4 ? names[v] : "?";
}

const char *tks__unit_name(enum tks__unit u)
{
    static const char *const names[] = {"core cycles", "ticks", "ns"};
    return (unsigned)u < TKS__UNITS ? names[u] : "?";
}

enum tks__verdict tks__verdict_of(double change, double lo, double hi, double threshold)
{
    if (!(lo <= hi) || isnan(change))
        return TKS__INCONCLUSIVE;
    /* A change is called when it is significant (the interval excludes none) and nearer a change
     * of the threshold's size than no change: between those two, half the threshold is where
     * the likelihoods of the two cross for an estimate with symmetric error. A change of 0.9%
     * with a threshold of 1% is called; a significant 0.1% (a 95% interval excludes zero once in
     * twenty comparisons of identical code) is not. */
    if (lo > 0 && change >= threshold / 2)
        return TKS__SLOWER;
    if (hi < 0 && change <= -threshold / 2)
        return TKS__FASTER;
    if (lo >= -threshold && hi <= threshold)
        return TKS__SAME;
    return TKS__INCONCLUSIVE;
}

enum tks__verdict tks__verdict_tested(double change, double lo, double hi, double p,
                                      double threshold)
{
    enum tks__verdict v = tks__verdict_of(change, lo, hi, threshold);
    /* the interval and the test agree almost always; where they do not, claim nothing */
    if ((v == TKS__SLOWER || v == TKS__FASTER) && !(p < ALPHA))
        return TKS__INCONCLUSIVE;
    return v;
}

void tks__cmp_result_free(tks__cmp_result *r)
{
    if (!r)
        return;
    free(r->rows);
    r->rows = NULL;
    r->n = 0;
    tks_diags_free(&r->diags);
}

static const tks__cmp_bench *find(const tks__cmp_file *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->b[i].name, name))
            return &f->b[i];
    return NULL;
}

static int tsc_same(const tks__cmp_file *a, const tks__cmp_file *b)
{
    return !(a->tsc_hz > 0 && b->tsc_hz > 0) || fabs(a->tsc_hz / b->tsc_hz - 1) <= TSC_SAME;
}

/* What makes the two files hard to compare, from their context blocks. */
static void context_warnings(const tks__cmp_file *a, const tks__cmp_file *b, tks__cmp_result *r)
{
    if (a->ours != b->ours)
        tks__diag(&r->diags, TKS_DIAG_CMP_TOOLS_DIFFER, TKS__DS(a->tool), TKS__DS(b->tool));
    if (a->host[0] && b->host[0] && strcmp(a->host, b->host))
        tks__diag(&r->diags, TKS_DIAG_CMP_HOSTS_DIFFER, TKS__DS(a->host), TKS__DS(b->host));
    if (a->ours == b->ours && a->cpu[0] && b->cpu[0] && strcmp(a->cpu, b->cpu))
        tks__diag(&r->diags, TKS_DIAG_CMP_CPUS_DIFFER, TKS__DS(a->cpu), TKS__DS(b->cpu));
    if (!tsc_same(a, b))
        tks__diag(&r->diags, TKS_DIAG_CMP_TSC_DIFFER, TKS__DN(a->tsc_hz / 1e6),
                  TKS__DN(b->tsc_hz / 1e6));
    if (a->ours && b->ours) {
        if (strcmp(a->method, b->method))
            tks__diag(&r->diags, TKS_DIAG_CMP_METHODS_DIFFER, TKS__DS(a->method),
                      TKS__DS(b->method));
        if (strcmp(a->mode, b->mode))
            tks__diag(&r->diags, TKS_DIAG_CMP_MODES_DIFFER, TKS__DS(a->mode), TKS__DS(b->mode));
        if (strcmp(a->version, b->version))
            tks__diag(&r->diags, TKS_DIAG_CMP_VERSIONS_DIFFER, TKS__DS(a->version),
                      TKS__DS(b->version));
    }
    if (!strcmp(a->build, "debug") || !strcmp(b->build, "debug"))
        tks__diag(&r->diags, TKS_DIAG_CMP_DEBUG_BUILD,
                  TKS__DS(!strcmp(a->build, "debug") ? "old" : "new"));
}

static enum tks__unit unit_for(const tks__cmp_file *fa, const tks__cmp_bench *a,
                               const tks__cmp_file *fb, const tks__cmp_bench *b)
{
    if (a->has[TKS__UNIT_CORE] && b->has[TKS__UNIT_CORE])
        return TKS__UNIT_CORE;
    if (a->has[TKS__UNIT_TICKS] && b->has[TKS__UNIT_TICKS] && tsc_same(fa, fb))
        return TKS__UNIT_TICKS;
    return TKS__UNIT_NS;
}

static uint64_t seed_of(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a: the same name resamples the same way */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static double median_copy(const double *v, size_t n)
{
    double *c = malloc(n * sizeof *c), m;
    if (!c)
        return NAN;
    memcpy(c, v, n * sizeof *c);
    m = tks__median(c, n);
    free(c);
    return m;
}

/* The verdict cell: the verdict, and why when it is for want of runs. */
void tks__cmp_verdict_text(const tks__cmp_row *row, char *buf, size_t size)
{
    if (row->too_few)
        snprintf(buf, size, "%s: too few runs (the smallest p this test can give is %.3f)",
                 tks__verdict_name(row->verdict), row->min_p);
    else
        snprintf(buf, size, "%s", tks__verdict_name(row->verdict));
}

static int judge(const tks__cmp_bench *a, const tks__cmp_bench *b, enum tks__unit u,
                 const tks__cmp_result *res, tks__cmp_row *row)
{
    const double *x = a->fig[u], *y = b->fig[u];
    double min_p_figures = tks__utest_min_p(a->n, b->n), min_p_runs = tks__utest_min_p(a->runs, b->runs);
    int resample = (a->se_between || a->n >= RESAMPLE_MIN) && (b->se_between || b->n >= RESAMPLE_MIN);
    int rc;
    memset(row, 0, sizeof *row);
    snprintf(row->name, sizeof row->name, "%s", a->name);
    row->unit = u;
    row->n_old = a->n;
    row->n_new = b->n;
    row->lo = row->hi = row->p = row->assumed_lo = row->assumed_hi = NAN;
    /* the smallest p a rank test could give over what the test at hand would use */
    row->min_p = resample ? min_p_runs : min_p_figures;
    if (min_p_figures < ALPHA) {
        tks__utest t;
        if ((rc = tks__mann_whitney(x, a->n, y, b->n, &t)) != 0)
            return rc;
        row->test = TKS__TEST_UTEST;
        row->min_p = min_p_figures;
        row->old_value = median_copy(x, a->n);
        row->new_value = median_copy(y, b->n);
        row->p = t.p;
        if (row->old_value > 0) {
            row->change = t.shift / row->old_value;
            row->lo = t.lo / row->old_value;
            row->hi = t.hi / row->old_value;
        } else {
            row->change = NAN;
        }
    } else {
        tks__bootstrap bs;
        double mx = 0, my = 0;
        for (size_t i = 0; i < a->n; i++)
            mx += x[i] / (double)a->n;
        for (size_t i = 0; i < b->n; i++)
            my += y[i] / (double)b->n;
        row->old_value = mx;
        row->new_value = my;
        row->change = mx > 0 ? my / mx - 1 : NAN;
        if (!resample || !(min_p_runs < ALPHA)) {
            row->too_few = 1;
        } else if (tks__bootstrap_ratio(x, a->se[u], a->n, y, b->se[u], b->n, DRAWS,
                                        seed_of(a->name), &bs) == 0) {
            /* no test either when the old mean is not above zero: a ratio needs one */
            row->test = TKS__TEST_BOOTSTRAP;
            row->lo = bs.lo - 1;
            row->hi = bs.hi - 1;
            row->p = bs.p;
        }
    }
    row->verdict = tks__verdict_tested(row->change, row->lo, row->hi, row->p, res->threshold);
    row->regression = res->gate >= 0 && row->verdict == TKS__SLOWER && row->lo > res->gate;
    tks__cmp_gate_untested(a, b, res->threshold, res->gate, row); /* issue 46 */
    return 0;
}

/* 1 when a row's test compared figures of which one side's are the repetitions of one
 * tickscope process: they share that process's speed, which the test cannot see. Measured
 * (bench_gate, A/A over 200 comparisons of a 200-add chain on a shared Zen 5 guest): the
 * verdict said "slower" 7 times with 5 repetitions a side, once with 10 processes. Whatever
 * the other side is (Google Benchmark's aggregates too). A Google Benchmark file is not counted:
 * its program has no way to run fresh processes, so the remedy the warning gives is not its. */
static int tested_within(const tks__cmp_file *old, const tks__cmp_bench *a,
                         const tks__cmp_file *new_, const tks__cmp_bench *b,
                         const tks__cmp_row *row)
{
    if (row->test == TKS__TEST_NONE)
        return 0;
    return (old->ours && a->one_process) || (new_->ours && b->one_process);
}

static void list_name(char *list, size_t size, const char *name)
{
    size_t used = strlen(list);
    if (used + strlen(name) + 8 >= size) {
        if (!strstr(list, ", ..."))
            snprintf(list + used, size - used, ", ...");
        return;
    }
    snprintf(list + used, size - used, "%s%s", used ? ", " : "", name);
}

int tks__cmp_files(const tks__cmp_file *old, const tks__cmp_file *new_, double threshold,
                   double gate, tks__cmp_result *r, char *err, size_t errlen)
{
    int rc;
    size_t too_few = 0, one_process = 0, failed_assumed = 0;
    if (!old || !new_ || !r)
        return TKS_EINVAL;
    memset(r, 0, sizeof *r);
    r->threshold = threshold;
    r->gate = gate;
    r->old_ours = old->ours;
    r->new_ours = new_->ours;
    if (!(r->rows = calloc(old->n ? old->n : 1, sizeof *r->rows)))
        return TKS_ENOMEM;
    context_warnings(old, new_, r);
    for (size_t i = 0; i < old->n; i++) {
        const tks__cmp_bench *a = &old->b[i], *b = find(new_, a->name);
        if (!b) {
            r->only_old++;
            list_name(r->only_old_names, sizeof r->only_old_names, a->name);
            continue;
        }
        if ((rc = judge(a, b, unit_for(old, a, new_, b), r, &r->rows[r->n])) != 0) {
            if (err && errlen)
                snprintf(err, errlen, "benchmark '%s': its figures cannot be compared (%s)",
                         a->name, tks_strerror(rc));
            tks__cmp_result_free(r);
            return rc;
        }
        tks__cmp_counters_pair(a, b, &r->rows[r->n], &r->diags); /* issue 26 */
        r->regressions += r->rows[r->n].regression;
        r->not_tested += r->rows[r->n].not_tested;
        failed_assumed += r->rows[r->n].too_few && r->rows[r->n].regression;
        r->n++;
        too_few += r->rows[r->n - 1].too_few;
        one_process += tested_within(old, a, new_, b, &r->rows[r->n - 1]);
    }
    if (too_few)
        tks__diag(&r->diags, TKS_DIAG_CMP_TOO_FEW_RUNS, TKS__DN((double)too_few));
    if (too_few && gate >= 0)
        tks__diag(&r->diags, TKS_DIAG_CMP_GATE_ASSUMED, TKS__DN((double)too_few),
                  TKS__DN(round(1e4 * TKS__CMP_ASSUMED_CV) / 100),
                  TKS__DN((double)failed_assumed));
    if (r->not_tested)
        tks__diag(&r->diags, TKS_DIAG_CMP_NOT_TESTED, TKS__DN((double)r->not_tested),
                  TKS__DN(100 * gate));
    if (one_process)
        tks__diag(&r->diags, TKS_DIAG_CMP_ONE_PROCESS, TKS__DN((double)one_process));
    for (size_t i = 0; i < new_->n; i++)
        if (!find(old, new_->b[i].name)) {
            r->only_new++;
            list_name(r->only_new_names, sizeof r->only_new_names, new_->b[i].name);
        }
    if (r->n == 0) {
        if (err && errlen)
            snprintf(err, errlen, "the files share no benchmark name (old has %s; new has %s)",
                     r->only_old_names, r->only_new_names);
        tks__cmp_result_free(r);
        return TKS_EINVAL;
    }
    return 0;
}
