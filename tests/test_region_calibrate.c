/* SPDX-License-Identifier: MIT */
/* test_region_calibrate.c: the regions' overhead estimate (region/overhead.c) on synthetic empty
 * pairs with hand-worked answers: 19 blocks, each block's phase-averaged mean (interrupts beyond
 * the far fences trimmed), the median of the block means (a disturbed block does not move it),
 * their scaled MAD, and the resolution as the larger of the quantum and twice that spread. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "region/internal.h"

#define BLOCKS 19
#define PER 1000
#define N (BLOCKS * PER)

static uint64_t d[N], scratch[N];

/* Block b (of PER pairs) holds k pairs of hi and the rest lo. */
static void block(size_t b, size_t k, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < PER; i++)
        d[b * PER + i] = i < k ? hi : lo;
}

/* A timer in steps of 2: 18 quiet blocks whose means climb by 0.02 tick (40.90 .. 41.24), the
 * first with three interrupts of 100,000 ticks in place of 40s, and one block at 60 throughout
 * (the clock slowed while it ran). */
static void test_disturbed(void)
{
    tks__region_overhead_est e;
    for (size_t b = 0; b < 18; b++)
        block(b, 450 + 10 * b, 40, 42);
    d[PER - 1] = d[PER - 2] = d[PER - 3] = 100000; /* block 0's last three are 40s */
    block(18, PER, 60, 60);
    memset(&e, 0, sizeof e);
    tks__region_overhead_estimate(&e, d, N, scratch);
    /* Common values 40, 42, 60 (the interrupts are 3 of 19,000, under the 19 it takes): step 2. */
    CHECK_EQ_U64(e.quantum, 2);
    CHECK_EQ_U64(e.min, 40);
    CHECK_EQ_U64(e.pairs, N);
    /* 8367 40s, 9630 42s, 1000 60s, 3 interrupts: the middle pairs are 42s. */
    CHECK_NEAR(e.median, 42, 0);
    /* Block means: block 0 (450 42s and 547 40s once the interrupts are trimmed)
     * 40780/997 = 40.9027, blocks 1..17 40.92 .. 41.24, block 18 60: the tenth is block 9's,
     * 40 + 2 x 540/1000. */
    CHECK_NEAR(e.ticks, 41.08, 1e-9);
    /* Deviations from 41.08: 0, 0.02 twice, 0.04 twice, ... 0.16 twice, 0.1773, 18.92; the tenth
     * is 0.10, scaled by 1.4826. */
    CHECK_NEAR(e.spread, 0.14826, 1e-9);
    /* Twice the spread is under the quantum: the quantum. */
    CHECK_NEAR(e.resolution, 2, 0);
}

/* A timer of one tick, each block at its own value 100 + b: the spread decides the resolution. */
static void test_spread(void)
{
    tks__region_overhead_est e;
    for (size_t b = 0; b < BLOCKS; b++)
        block(b, 0, 100 + b, 100 + b);
    memset(&e, 0, sizeof e);
    tks__region_overhead_estimate(&e, d, N, scratch);
    CHECK_EQ_U64(e.quantum, 1);
    CHECK_EQ_U64(e.min, 100);
    CHECK_NEAR(e.median, 109, 0);
    CHECK_NEAR(e.ticks, 109, 1e-9);
    /* |b - 9|: 0, 1, 1, ... 9, 9; the tenth is 5. */
    CHECK_NEAR(e.spread, 1.4826 * 5, 1e-9);
    CHECK_NEAR(e.resolution, 2 * 1.4826 * 5, 1e-9);
}

/* Fewer pairs than blocks: no block estimate; the median of the pairs, no spread. */
static void test_too_few(void)
{
    static const uint64_t few[10] = {42, 40, 40, 42, 40, 42, 40, 40, 42, 40};
    tks__region_overhead_est e;
    memset(&e, 0, sizeof e);
    tks__region_overhead_estimate(&e, few, 10, scratch);
    CHECK_EQ_U64(e.quantum, 2);
    CHECK_NEAR(e.median, 40, 0);
    CHECK_NEAR(e.ticks, 40, 0);
    CHECK_NEAR(e.spread, 0, 0);
    CHECK_NEAR(e.resolution, 2, 0);
}

int main(void)
{
    test_disturbed();
    test_spread();
    test_too_few();
    CHECK_DONE();
}
