/* SPDX-License-Identifier: MIT */
/* test_region_acc.c: the regions' accumulator on synthetic passes with hand-checked answers: the
 * inline accumulation of tickscope/region.h, the out-of-line one for long and negative passes,
 * the exact variance, the merge across threads, and the reservoirs and their merge. */
#include <stdint.h>
#include <stdlib.h>

#include "region/acc.h"
#include "check.h"

static void slot_init(struct tks__region_slot *s, uint64_t *res, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    s->min = UINT64_MAX;
    s->open = 1;
    s->threads = 1;
    s->res = res;
    s->res_cap = cap;
    s->rng = 0x9e3779b97f4a7c15ull;
}

static void feed(struct tks__region_slot *s, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tks__region_add(s, v[i]);
}

static void test_small(void)
{
    static const uint64_t v[] = {10, 20, 30, 40};
    struct tks__region_slot s;
    tks__region_acc a;
    slot_init(&s, NULL, 0);
    feed(&s, v, 4);
    CHECK_EQ_U64(s.count, 4);
    CHECK_EQ_U64(s.sum, 100);
    CHECK_EQ_U64(s.min, 10);
    CHECK_EQ_U64(s.max, 40);
    CHECK_EQ_U64(s.sq_lo, 100 + 400 + 900 + 1600);
    CHECK_EQ_U64(s.sq_hi, 0);
    tks__region_acc_init(&a);
    tks__region_acc_merge_slot(&a, &s);
    CHECK_NEAR(tks__region_acc_mean(&a), 25.0, 0);
    /* deviations -15, -5, 5, 15: (225 + 25 + 25 + 225) / 4 */
    CHECK_NEAR(tks__region_acc_variance(&a), 125.0, 0);
}

/* Large values whose variance a double sum of squares would lose entirely. */
static void test_exact(void)
{
    const uint64_t b = (uint64_t)1 << 40;
    const uint64_t v[] = {b, b + 2, b + 4};
    const uint64_t w[] = {(uint64_t)1 << 32, ((uint64_t)1 << 32) + 2};
    struct tks__region_slot s;
    tks__region_acc a;

    slot_init(&s, NULL, 0);
    feed(&s, v, 3); /* each over 2^32: the out-of-line path */
    tks__region_acc_init(&a);
    tks__region_acc_merge_slot(&a, &s);
    CHECK_EQ_U64(a.count, 3);
    CHECK_EQ_U64(a.min, b);
    CHECK_EQ_U64(a.max, b + 4);
    CHECK_NEAR(tks__region_acc_mean(&a), (double)(b + 2), 0);
    CHECK_NEAR(tks__region_acc_variance(&a), 8.0 / 3.0, 1e-12);

    slot_init(&s, NULL, 0);
    feed(&s, w, 2);
    tks__region_acc_init(&a);
    tks__region_acc_merge_slot(&a, &s);
    CHECK_NEAR(tks__region_acc_variance(&a), 1.0, 0);

    /* The same value many times: variance exactly 0, whatever its size. */
    slot_init(&s, NULL, 0);
    for (int i = 0; i < 1000; i++)
        tks__region_add(&s, 4000000000u); /* just below 2^32: the inline path's largest squares */
    tks__region_acc_init(&a);
    tks__region_acc_merge_slot(&a, &s);
    CHECK_NEAR(tks__region_acc_variance(&a), 0.0, 0);
    CHECK_NEAR(tks__region_acc_mean(&a), 4000000000.0, 0);
}

static void test_negative(void)
{
    struct tks__region_slot s;
    slot_init(&s, NULL, 0);
    tks__region_add(&s, (uint64_t)-30); /* end read 30 ticks before the begin */
    tks__region_add(&s, 7);
    CHECK_EQ_U64(s.negative, 1);
    CHECK_EQ_U64(s.count, 1);
    CHECK_EQ_U64(s.sum, 7);
}

/* Two threads' slots merge into the figures of all passes together. */
static void test_merge(void)
{
    static const uint64_t v1[] = {10, 20}, v2[] = {30, 40};
    struct tks__region_slot s1, s2, unused;
    tks__region_acc a;
    slot_init(&s1, NULL, 0);
    slot_init(&s2, NULL, 0);
    memset(&unused, 0, sizeof unused);
    feed(&s1, v1, 2);
    feed(&s2, v2, 2);
    s1.ends_without_begin = 2;
    s2.open = 3; /* two passes open on that thread */
    s2.unterminated = 1; /* and one left by an exited thread */
    tks__region_acc_init(&a);
    tks__region_acc_merge_slot(&a, &s1);
    tks__region_acc_merge_slot(&a, &s2);
    tks__region_acc_merge_slot(&a, &unused); /* a thread that never used the region */
    CHECK_EQ_U64(a.count, 4);
    CHECK_EQ_U64(a.threads, 2);
    CHECK_EQ_U64(a.min, 10);
    CHECK_EQ_U64(a.max, 40);
    CHECK_NEAR(tks__region_acc_mean(&a), 25.0, 0);
    CHECK_NEAR(tks__region_acc_variance(&a), 125.0, 0);
    CHECK_EQ_U64(a.ends_without_begin, 2);
    CHECK_EQ_U64(a.unterminated, 3);

    tks__region_acc_init(&a);
    CHECK(isnan(tks__region_acc_mean(&a)));
    CHECK(isnan(tks__region_acc_variance(&a)));
}

static void test_reservoir(void)
{
    uint64_t res[128], kept[1000], *buf = malloc(1000 * sizeof *buf);
    struct tks__region_slot s;
    const uint64_t *src[2];
    size_t len[2], n;
    uint64_t count[2];
    double sum = 0;

    /* Room for every pass: the reservoir holds them all, in order. */
    slot_init(&s, res, 128);
    for (uint64_t v = 1; v <= 100; v++)
        tks__region_add(&s, v);
    for (int i = 0; i < 100; i++)
        CHECK_EQ_U64(res[i], (uint64_t)i + 1);

    /* More passes than room: bounded, every value one of the passes, about uniform. */
    slot_init(&s, kept, 1000);
    for (uint64_t v = 0; v < 100000; v++)
        tks__region_add(&s, v);
    CHECK_EQ_U64(s.count, 100000);
    for (int i = 0; i < 1000; i++) {
        CHECK(kept[i] < 100000);
        sum += (double)kept[i];
    }
    CHECK_NEAR(sum / 1000, 50000, 5000); /* sd of the mean ~ 913: over 5 sd */

    /* Merge: the source with 3x the passes contributes 3x the values. */
    src[0] = kept;
    src[1] = res;
    len[0] = 1000;
    len[1] = 100;
    count[0] = 100000;
    count[1] = 100;
    n = tks__region_merge_kept(src, len, count, 2, 1000, 1, buf);
    CHECK(n <= 1000);
    CHECK(n >= 998);
    count[0] = 3000;
    count[1] = 1000;
    len[1] = 100;
    n = tks__region_merge_kept(src, len, count, 2, 100, 1, buf);
    CHECK_EQ_U64(n, 100);
    {
        size_t from_res = 0;
        for (size_t i = 0; i < n; i++)
            from_res += buf[i] >= 1 && buf[i] <= 100 && i >= 75; /* the second source comes last */
        CHECK_EQ_U64(from_res, 25);
    }
    /* Everything fits: everything is taken. */
    count[0] = 10;
    len[0] = 10;
    count[1] = 20;
    len[1] = 20;
    CHECK_EQ_U64(tks__region_merge_kept(src, len, count, 2, 1000, 1, buf), 30);
    free(buf);
}

/* The timer's step from a sample's common values, by hand: 52, 78 and 104 ticks (26 apart) are
 * common, one 53 is not and must not make the step 1. */
static void test_step(void)
{
    static uint64_t v[2001];
    size_t n = 0;
    for (int i = 0; i < 1000; i++)
        v[n++] = 52;
    v[n++] = 53;
    for (int i = 0; i < 700; i++)
        v[n++] = 78;
    for (int i = 0; i < 300; i++)
        v[n++] = 104;
    CHECK_EQ_U64(tks__region_step_of(v, n), 26);
    /* 2 and 4 ticks apart: the gcd is 2. */
    v[0] = 50, v[1] = 50, v[2] = 52, v[3] = 52, v[4] = 56, v[5] = 56;
    CHECK_EQ_U64(tks__region_step_of(v, 6), 2);
    /* One common value: the step is not seen. */
    CHECK_EQ_U64(tks__region_step_of(v, 2), 1);
    /* Counters slower than the code (arm64 under QEMU): 0 and 1. */
    v[0] = 0, v[1] = 0, v[2] = 1, v[3] = 1;
    CHECK_EQ_U64(tks__region_step_of(v, 4), 1);
}

/* Net figures are never negative; below the resolution they are flagged. */
static void test_net(void)
{
    unsigned below = 0;
    CHECK_NEAR(tks__region_net(100, 52, 26, 1, &below), 48, 0);
    CHECK_EQ_U64(below, 0);
    CHECK_NEAR(tks__region_net(60, 52, 26, 2, &below), 8, 0); /* positive, under 26 */
    CHECK_EQ_U64(below, 2);
    CHECK_NEAR(tks__region_net(40, 52, 26, 4, &below), 0, 0); /* would be -12 */
    CHECK_EQ_U64(below, 6);
    CHECK(isnan(tks__region_net(NAN, 52, 26, 8, &below)));
    CHECK_EQ_U64(below, 6);
}

int main(void)
{
    test_step();
    test_net();
    test_small();
    test_exact();
    test_negative();
    test_merge();
    test_reservoir();
    CHECK_DONE();
}
