/* SPDX-License-Identifier: MIT */
/* test_bench_paired.c: tks_paired_run's structure on real measurements: the blocks it was asked
 * for, run in the order A B B A or B A A B (the bodies log their calls), one CPU, four times the
 * work reading slower with a ratio above 1 in every unit it has, an A/A comparison warned about,
 * and failures (a body that skips itself, bad arguments) reported with the benchmark's name. No
 * timing threshold: only the ordering of work that differs 4x. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "tickscope.h"

#if defined(TKS_ARCH_X86)
#define ADDS(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"
#else
#define ADDS(n) ".rept " #n "\n\tadd %0, %0, %1\n\t.endr"
#endif

/* The bodies' calls in order, one letter a call: 'a' add40, 'b' add160. */
static char calls[512];
static size_t n_calls;

static void logged(char c)
{
    if (n_calls + 1 < sizeof calls)
        calls[n_calls++] = c;
    calls[n_calls] = 0;
}

/* The calls of one paired run of A and B over blocks: one run of each first (A then B, not
 * kept), then each block A B B A or B A A B; 1 when so, and both orders came up. */
static int abba_order(const char *log, char A, char B, unsigned blocks)
{
    const char abba[4] = {A, B, B, A}, baab[4] = {B, A, A, B};
    unsigned n_abba = 0, n_baab = 0;
    if (strlen(log) != 2 + 4 * (size_t)blocks || log[0] != A || log[1] != B)
        return 0;
    for (unsigned k = 0; k < blocks; k++) {
        const char *blk = log + 2 + 4 * k;
        n_abba += memcmp(blk, abba, 4) == 0;
        n_baab += memcmp(blk, baab, 4) == 0;
    }
    if (n_abba + n_baab != blocks || !n_abba || !n_baab)
        fprintf(stderr, "calls %s: not (A B) then %u blocks of A B B A or B A A B, both seen\n",
                log, blocks);
    return n_abba + n_baab == blocks && n_abba && n_baab;
}

static void add40(tks_state *st)
{
    unsigned long x = 1, y = 1;
    logged('a');
    TKS_MEASURE(st, { __asm__ __volatile__(ADDS(40) : "+r"(x) : "r"(y)); });
    tks_do_not_optimize(x);
}

static void add160(tks_state *st)
{
    unsigned long x = 1, y = 1;
    logged('b');
    TKS_MEASURE(st, { __asm__ __volatile__(ADDS(160) : "+r"(x) : "r"(y)); });
    tks_do_not_optimize(x);
}

static void skipper(tks_state *st) { tks_state_skip(st, "not today"); }

int main(void)
{
    tks_options o;
    tks_platform_options plo;
    tks_platform p;
    tks_paired_options po;
    tks_paired_result r;
    tks_benchmark_spec a = TKS_SPEC(add40), b = TKS_SPEC(add160), s = TKS_SPEC(skipper);

    tks_options_init(&o);
    CHECK_NEAR(o.compare_threshold, 0.01, 0);
    CHECK(o.compare == NULL);
    {
        /* the options as tks_main parses them */
        char err[200];
        char *ok[] = {"prog", "--compare", "a,^b$", "--compare-threshold=2.5%"};
        char *no_comma[] = {"prog", "--compare", "a"};
        char *bad_pct[] = {"prog", "--compare-threshold", "200"};
        CHECK(tks_options_parse(&o, 4, ok, err, sizeof err) == 0);
        CHECK_STR(o.compare, "a,^b$");
        CHECK_NEAR(o.compare_threshold, 0.025, 1e-12);
        CHECK(tks_options_parse(&o, 3, no_comma, err, sizeof err) == 2);
        CHECK(strstr(err, "A,B") != NULL);
        CHECK(tks_options_parse(&o, 3, bad_pct, err, sizeof err) == 2);
        tks_options_init(&o);
    }
    tks_platform_options_init(&plo);
    CHECK(tks_platform_probe(&plo, &p) == 0);
    tks_paired_options_init(&po);
    CHECK_EQ_U64(po.blocks, 16);
    CHECK_NEAR(po.threshold, 0.01, 0);
    po.blocks = 4;
    po.run_time = 0.003;
    po.seed = 1;

    n_calls = 0;
    CHECK(tks_paired_run(&o, &p, &po, &a, 0, &b, 0, &r) == 0);
    CHECK(abba_order(calls, 'a', 'b', 4));
    CHECK_EQ_U64(r.blocks, 4);
    CHECK_STR(r.a, "add40");
    CHECK_STR(r.b, "add160");
    CHECK(r.cpu >= 0);
    CHECK(r.error[0] == 0);
    CHECK(r.b_ticks > r.a_ticks && r.a_ticks > 0);
    CHECK(r.ratio_ticks.lo <= r.ratio_ticks.value && r.ratio_ticks.value <= r.ratio_ticks.hi);
    CHECK(r.ratio_ticks.value > 1.5);
    CHECK(r.verdict == TKS_VERDICT_SLOWER);
    CHECK_STR(tks_verdict_name(r.verdict), "slower");
    if (r.verdict_core)
        CHECK(r.ratio_core.value > 1.5 && r.b_core > r.a_core);
    if (p.tsc_hz > 0)
        CHECK_NEAR(r.ratio_ns.value, r.ratio_ticks.value, 1e-9); /* ns are ticks times one rate */
    /* a loaded machine may earn a warning about the run (a drifting clock); never this one */
    CHECK(!tks_diags_has(&r.diags, TKS_DIAG_PAIRED_SELF));
    CHECK(r.seconds > 0);

    /* the other way round: faster; another seed, another order of the blocks */
    tks_paired_result_free(&r);
    n_calls = 0;
    po.seed = 2;
    CHECK(tks_paired_run(&o, &p, &po, &b, 0, &a, 0, &r) == 0);
    CHECK(abba_order(calls, 'b', 'a', 4));
    po.seed = 1;
    CHECK(r.verdict == TKS_VERDICT_FASTER && r.ratio_ticks.value < 0.7);

    /* A against itself: said so */
    tks_paired_result_free(&r);
    CHECK(tks_paired_run(&o, &p, &po, &a, 0, &a, 0, &r) == 0);
    {
        size_t itself = 0;
        for (size_t i = 0; i < r.diags.n; i++)
            itself += r.diags.items[i].code == TKS_DIAG_PAIRED_SELF;
        CHECK(itself == 1);
    }
    tks_paired_result_free(&r);

    /* a pinned CPU is the one used */
    o.pin_cpu = 0;
    CHECK(tks_paired_run(&o, &p, &po, &a, 0, &b, 0, &r) == 0);
    CHECK(r.cpu == 0);
    o.pin_cpu = -1;
    tks_paired_result_free(&r);

    /* failures */
    CHECK(tks_paired_run(&o, &p, &po, &a, 0, &s, 0, &r) == TKS_EINVAL);
    CHECK(strstr(r.error, "skipper") && strstr(r.error, "not today"));
    po.blocks = 1;
    CHECK(tks_paired_run(&o, &p, &po, &a, 0, &b, 0, &r) == TKS_EINVAL);
    po.blocks = 4;
    CHECK(tks_paired_run(NULL, &p, &po, &a, 0, &b, 0, &r) == TKS_EINVAL);
    CHECK(tks_paired_run(&o, &p, &po, &a, 0, &b, 0, NULL) == TKS_EINVAL);
    CHECK_STR(tks_verdict_name(TKS_VERDICT_INDISTINGUISHABLE), "indistinguishable");
    CHECK_STR(tks_verdict_name((enum tks_verdict)9), "?");
    tks_platform_free(&p);
    CHECK_DONE();
}
