/* SPDX-License-Identifier: MIT */
/* test_platform_core.c: the core-clock measurement on this machine, checked for structure
 * (counts, lengths, finite figures in a physically possible range, a note on the counter) and,
 * on x86, against the one figure every CPU shares: a dependent add is one core cycle. Never for
 * speed: the figures themselves are shown by bench/bench_core. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The TSC ticks near the core clock; arm64's generic timer at 1 to 100 MHz (QEMU: 62.5 MHz), so
 * a GHz core runs tens to thousands of cycles per tick there. */
#if defined(__x86_64__) || defined(__i386__)
#define MAX_CYCLES_PER_TICK 20
#else
#define MAX_CYCLES_PER_TICK 5000
#endif
#include "check.h"
#include "stats/add_check_fit.h"
#include "tickscope.h"

#define E_(code) ((uint64_t)(int64_t)(code))

static void test_null(void)
{
    CHECK_EQ_U64(E_(tks_core_clock_measure(NULL)), E_(TKS_EINVAL));
}

static void test_measure(void)
{
    tks_core_clock c;
    int rc;
    memset(&c, 0x5a, sizeof c); /* every field must be written, not left over */
    rc = tks_core_clock_measure(&c);
    if (rc == TKS_EUNAVAIL) {
        CHECK_SKIP("hardware: the core clock is measured through the lfence method (RDTSCP and a "
                   "serialising LFENCE), which this CPU does not offer");
        return;
    }
    CHECK_EQ_U64(E_(rc), 0);
    if (rc != 0)
        return;
    CHECK(c.rounds >= 5);
    CHECK(c.adds_short > 0);
    CHECK(c.adds_long > c.adds_short);
    /* Anything outside this is no clock ratio a real CPU and timer have. */
    CHECK(isfinite(c.cycles_per_tick));
    CHECK(c.cycles_per_tick >= 0.05 && c.cycles_per_tick <= MAX_CYCLES_PER_TICK);
    CHECK(isfinite(c.spread));
    CHECK(c.spread >= 0);
    CHECK(c.counter == 0 || c.counter == 1);
    /* how the counter was read, or why there is none: one platform.counter.* code */
    CHECK_EQ_U64(c.counter_diags.n, 1);
    CHECK(strncmp(tks_diag_info_of(c.counter_diags.items[0].code)->id, "platform.counter.", 17) == 0);
    CHECK((c.counter_diags.items[0].code == TKS_DIAG_PLATFORM_COUNTER_READ ||
           c.counter_diags.items[0].code == TKS_DIAG_PLATFORM_COUNTER_RDPMC) == (c.counter == 1));
    if (c.counter == 1) {
        CHECK(isfinite(c.counter_cycles_per_tick));
        CHECK(c.counter_cycles_per_tick > 0);
    } else {
        CHECK(c.counter_rdpmc == 0);
    }
    /* the add check: one add a cycle unless it found them slow, and then by a few percent */
    CHECK(c.add_check.verdict <= TKS_ADD_CHECK_DISAGREE);
    CHECK(c.add_check.verdict == TKS_ADD_CHECK_SLOW
              ? c.add_check.add_cycles > 1 && c.add_check.add_cycles <= 1 + TKS_ADD_CHECK_MAX
              : c.add_check.add_cycles == 1);
    CHECK(c.add_check.verdict == TKS_ADD_CHECK_NONE ||
          (isfinite(c.add_check.mul_adds) && isfinite(c.add_check.fp_adds)));
    CHECK(c.lo <= c.cycles_per_tick && c.cycles_per_tick <= c.hi);
    printf("cycles/tick %.4f, spread %.4f, %u rounds, adds %llu/%llu, counter %d: %s; add check "
           "%d (mul %.3f, fp %.3f adds)\n",
           c.cycles_per_tick, c.spread, c.rounds, (unsigned long long)c.adds_short,
           (unsigned long long)c.adds_long, c.counter,
           tks_diag_info_of(c.counter_diags.items[0].code)->id, (int)c.add_check.verdict,
           c.add_check.mul_adds, c.add_check.fp_adds);
    tks_diags_free(&c.counter_diags);
}

#if defined(__x86_64__) || defined(__i386__)
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The median of ensemble e of a run (sorts it in place). */
static double median_of(tks_sample_run *run, uint32_t e)
{
    uint64_t *t = run->ticks + (size_t)e * run->samples;
    qsort(t, run->samples, sizeof *t, cmp_u64);
    return ((double)t[(run->samples - 1) / 2] + (double)t[run->samples / 2]) / 2;
}

/* One dependent add is one core cycle on every x86 CPU. Windows of 50 and of 200 adds (the
 * sampler's chain, not the one the core clock is measured with) differ by 150 adds; their
 * medians' difference per add, in core cycles at the measured rate, reads about 1. The band,
 * 0.75 .. 1.33, holds a loaded machine's drift of the core clock between the two measurements;
 * a rate taken the wrong way round (ticks per cycle: 1/1.3 for 1.3) reads 0.59, a rate in
 * cycles per nanosecond or per add of another chain further off. */
static void test_one_add(void)
{
    tks_core_clock c;
    tks_sample_plan p;
    tks_sample_run run;
    double ticks_per_add, cycles;
    if (tks_core_clock_measure(&c) != 0)
        return; /* test_measure said why */
    tks_diags_free(&c.counter_diags); /* only the rate is used */
    tks_sample_plan_init(&p, tks_method_default(tks_cpu_features_get()));
    p.ensembles = 2;
    p.samples = 2000;
    p.work_start = 50;
    p.work_step = 150;
    CHECK_EQ_U64(E_(tks_sample_take(&p, &run)), 0);
    if (!run.ticks)
        return;
    ticks_per_add = (median_of(&run, 1) - median_of(&run, 0)) / 150;
    tks_sample_run_free(&run);
    cycles = ticks_per_add * c.cycles_per_tick;
    printf("one dependent add: %.4f ticks x %.4f cycles/tick = %.3f core cycles\n", ticks_per_add,
           c.cycles_per_tick, cycles);
    CHECK(cycles >= 0.75 && cycles <= 1.33);
}
#endif

/* A second call starts from scratch: nothing from the first leaks into it. */
static void test_repeat(void)
{
    tks_core_clock a, b;
    if (tks_core_clock_measure(&a) != 0)
        return;
    memset(&b, 0xff, sizeof b);
    CHECK_EQ_U64(E_(tks_core_clock_measure(&b)), 0);
    CHECK(b.rounds == a.rounds);
    CHECK(isfinite(b.cycles_per_tick) && b.cycles_per_tick >= 0.05 && b.cycles_per_tick <= MAX_CYCLES_PER_TICK);
    CHECK(b.counter == a.counter);
    CHECK_EQ_U64(b.counter_diags.n, a.counter_diags.n);
    tks_diags_free(&a.counter_diags);
    tks_diags_free(&b.counter_diags);
}

int main(void)
{
    test_null();
    test_measure();
    test_repeat();
#if defined(__x86_64__) || defined(__i386__)
    test_one_add();
#endif
    CHECK_DONE();
}
