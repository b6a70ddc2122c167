/* SPDX-License-Identifier: MIT */
/* bench_compare.c: how well tickscope's paired comparison tells two bodies apart. Two cases, each
 * compared N times (default 100) at the defaults of tks_main --compare: a chain of 101 dependent
 * adds against one of 100 (one core cycle in about a hundred: target "slower" in >= 95 of 100),
 * and two identical 100-add bodies (target "indistinguishable" in >= 95 of 100). Beside each, what
 * Google Benchmark's compare.py would conclude from the same amount of measuring done its way:
 * A's runs, then B's, and the two-sided Mann-Whitney U test at 5% on their times. And the wall
 * time of one paired comparison (target under 2 s). Usage: bench_compare [N] (`make bench` passes
 * the tickscope binary first; it is ignored). x86 only: the bodies are x86 instructions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "stats/rank_tests.h"
#include "stats/sort.h"
#include "tickscope.h"

#if defined(TKS_ARCH_X86)
#define CHAIN(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"
static volatile unsigned long one = 1;

static void add100(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(100) : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
static void add100_again(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(100) : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
static void add101(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(101) : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}

struct tally {
    unsigned verdicts[4];     /* enum tks_verdict */
    unsigned u_slower, u_faster, u_same;
    unsigned significant;     /* paired intervals that exclude 1, whatever the verdict */
    double *ratio, *seconds;
    size_t n;
};

/* compare.py's way with the same measuring: reps runs of A, then reps of B, each run's time in
 * ns; the U test at 5%, the direction from the medians. */
static int a_then_b(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *a,
                    const tks_benchmark_spec *b, size_t reps, struct tally *t)
{
    double *x = malloc(2 * reps * sizeof *x), *y = x ? x + reps : NULL, mx, my;
    tks__utest u;
    int rc = 0;
    if (!x)
        return TKS_ENOMEM;
    for (size_t side = 0; side < 2 && !rc; side++)
        for (size_t i = 0; i < reps && !rc; i++) {
            tks_result r;
            rc = tks_run_benchmark(o, p, side ? b : a, 0, &r);
            (side ? y : x)[i] = tks_ticks_to_ns(p, r.estimate.value);
            tks_result_free(&r);
        }
    if (!rc && (rc = tks__mann_whitney(x, reps, y, reps, &u)) == 0) {
        mx = tks__median(x, reps);
        my = tks__median(y, reps);
        if (u.p >= 0.05)
            t->u_same++;
        else if (my > mx)
            t->u_slower++;
        else
            t->u_faster++;
    }
    free(x);
    return rc;
}

static int run_case(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *a,
                    const tks_benchmark_spec *b, size_t n, struct tally *t)
{
    tks_paired_options po;
    tks_options oo = *o;
    tks_paired_options_init(&po);
    t->ratio = calloc(n, sizeof *t->ratio);
    t->seconds = calloc(n, sizeof *t->seconds);
    if (!t->ratio || !t->seconds)
        return TKS_ENOMEM;
    /* compare.py's runs get the paired comparison's run length: the same measuring in all */
    oo.min_time = fmax(0.002, o->min_time / (2.0 * po.blocks));
    for (size_t i = 0; i < n; i++) {
        tks_paired_result r;
        int rc = tks_paired_run(o, p, &po, a, 0, b, 0, &r);
        if (rc) {
            fprintf(stderr, "bench_compare: %s\n", r.error);
            return rc;
        }
        const tks_interval *q = r.verdict_core ? &r.ratio_core : &r.ratio_ticks;
        t->verdicts[r.verdict]++;
        t->significant += q->lo > 1 || q->hi < 1;
        t->ratio[i] = q->value;
        t->seconds[i] = r.seconds;
        t->n = i + 1;
        if ((rc = a_then_b(&oo, p, a, b, 2 * po.blocks, t)) != 0)
            return rc;
        fprintf(stderr, "\r%s vs %s: %zu/%zu", b->name, a->name, i + 1, n);
    }
    fputc('\n', stderr);
    return 0;
}

/* A case's counts, and its target (the verdict want in at least 95 of 100) met or missed:
 * returns 1 when missed. */
static int print_case(const char *label, struct tally *t, enum tks_verdict want)
{
    double med = tks__median(t->ratio, t->n);
    int met = 100 * (size_t)t->verdicts[want] >= 95 * t->n;
    printf("%-22s %7u %7u %7u %7u %7u   %7u %7u %7u   %8.4f  >= 95%% %s: %s\n", label,
           t->verdicts[TKS_VERDICT_SLOWER], t->verdicts[TKS_VERDICT_FASTER],
           t->verdicts[TKS_VERDICT_INDISTINGUISHABLE], t->verdicts[TKS_VERDICT_INCONCLUSIVE],
           t->significant, t->u_slower, t->u_faster, t->u_same, med, tks_verdict_name(want),
           met ? "met" : "MISSED");
    return !met;
}

static int bench_main(int argc, char **argv)
{
    tks_benchmark_spec a = TKS_SPEC(add100), a2 = TKS_SPEC(add100_again), b = TKS_SPEC(add101);
    tks_options o;
    tks_platform_options plo;
    tks_platform p;
    struct tally slow, same;
    size_t n = 100;
    double *secs;
    int missed = 0;
    for (int i = 1; i < argc; i++)
        if (atoi(argv[i]) > 0)
            n = (size_t)atoi(argv[i]);
    memset(&slow, 0, sizeof slow);
    memset(&same, 0, sizeof same);
    tks_options_init(&o);
    tks_platform_options_init(&plo);
    if (tks_platform_probe(&plo, &p) != 0) {
        fprintf(stderr, "bench_compare: cannot examine this machine\n");
        return 1;
    }
    printf("bench_compare: %zu paired comparisons per case at tks_main --compare's defaults "
           "(16 ABBA blocks, --min-time 0.2 over their runs, threshold 1%%, latency mode), on "
           "%s (family %u model %u).\n", n, p.cpu.brand, p.cpu.family, p.cpu.model);
    if (run_case(&o, &p, &a, &b, n, &slow) != 0 || run_case(&o, &p, &a, &a2, n, &same) != 0)
        return 1;
    printf("\n%-22s %-39s   %-23s   %8s\n", "", "paired (tickscope --compare)",
           "A then B, U test (compare.py)", "B/A");
    printf("%-22s %7s %7s %7s %7s %7s   %7s %7s %7s   %8s  target\n", "case", "slower", "faster",
           "indist", "inconcl", "excl 1", "slower", "faster", "same", "median");
    missed += print_case("add101 vs add100", &slow, TKS_VERDICT_SLOWER);
    missed += print_case("add100 vs add100 (2)", &same, TKS_VERDICT_INDISTINGUISHABLE);
    secs = malloc(2 * n * sizeof *secs);
    if (secs) {
        double worst = 0;
        memcpy(secs, slow.seconds, n * sizeof *secs);
        memcpy(secs + n, same.seconds, n * sizeof *secs);
        for (size_t i = 0; i < 2 * n; i++)
            worst = fmax(worst, secs[i]);
        printf("\nTime per paired comparison: median %.2f s, longest %.2f s (target: each under "
               "2 s: %s).\n", tks__median(secs, 2 * n), worst, worst < 2 ? "met" : "MISSED");
        missed += worst >= 2;
        free(secs);
    }
    printf("(excl 1: paired intervals that exclude B/A = 1; a verdict of slower or faster also "
           "needs the change to reach half the threshold.)\n");
    tks_platform_free(&p);
    if (missed)
        printf("bench_compare: %d target(s) MISSED (exit 1)\n", missed);
    return missed ? 1 : 0;
}
#else
static int bench_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    puts("bench_compare: the bodies are x86 instructions; nothing to measure on this target");
    return 0;
}
#endif

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_compare [N]\nN paired comparisons (default 100) of two bodies one dependent add apart, and of two identical ones: how often each is told apart, beside a U test of the same pairs run A then B.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
