/* test_platform_core.c: the core-clock measurement on this machine, checked for structure only
 * (counts, lengths, finite figures in a physically possible range, a note on the counter), never
 * for speed: the figures themselves are shown by bench/bench_core. */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The TSC ticks near the core clock; arm64's generic timer at 1 to 100 MHz (QEMU: 62.5 MHz), so
 * a GHz core runs tens to thousands of cycles per tick there. */
#if defined(__x86_64__) || defined(__i386__)
#define MAX_CYCLES_PER_TICK 20
#else
#define MAX_CYCLES_PER_TICK 5000
#endif
#include "check.h"
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
    CHECK(memchr(c.counter_note, 0, sizeof c.counter_note) != NULL);
    CHECK(c.counter_note[0] != 0);
    if (c.counter == 1) {
        CHECK(isfinite(c.counter_cycles_per_tick));
        CHECK(c.counter_cycles_per_tick > 0);
    } else {
        CHECK(c.counter_rdpmc == 0);
    }
    printf("cycles/tick %.4f, spread %.4f, %u rounds, adds %llu/%llu, counter %d: %s\n",
           c.cycles_per_tick, c.spread, c.rounds, (unsigned long long)c.adds_short,
           (unsigned long long)c.adds_long, c.counter, c.counter_note);
}

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
}

int main(void)
{
    test_null();
    test_measure();
    test_repeat();
    CHECK_DONE();
}
