/* SPDX-License-Identifier: MIT */
/* test_sys_plan.c: what `sys --quick` plans before it measures, with the cache levels and the time
 * given as parameters, against answers worked by hand: the mem suite's largest working set and its
 * bandwidth sets for a guest that declares a 300 MiB L3, for one that declares no levels, and for
 * this project's usual 32 MiB L3; and each row's share of a time budget. */
#include "check.h"
#include "sys/mem.h"
#include "sys/sys_internal.h"

#define K ((size_t)1024)
#define M ((size_t)1024 * 1024)

static const tks_sys_cache_level big_l3[] = {
    {1, "Data", 48 * K}, {2, "Unified", 1 * M}, {3, "Unified", 300 * M}};
static const tks_sys_cache_level zen4[] = {
    {1, "Data", 32 * K}, {2, "Unified", 1 * M}, {3, "Unified", 32 * M}};

/* 300 MiB L3: a full run goes to 4 x 300 = 1200 MiB; --quick stops at 128 MiB, which is inside
 * the L3 (not beyond); the L3's bandwidth set, half of 300 = 150 MiB, is held to the 128 MiB
 * buffer; L1 24 KiB, L2 512 KiB. */
static void plan_big_l3(void)
{
    struct tks__sys_mem_plan p;
    tks__sys_mem_plan(big_l3, 3, 1, 0, &p);
    CHECK_EQ_U64(p.llc, 300 * M);
    CHECK_EQ_U64(p.full, 1200 * M);
    CHECK_EQ_U64(p.max, 128 * M);
    CHECK_EQ_U64(p.capped, 1);
    CHECK_EQ_U64(p.beyond, 0);
    CHECK_EQ_U64(p.bw[0], 24 * K);
    CHECK_EQ_U64(p.bw[1], 512 * K);
    CHECK_EQ_U64(p.bw[2], 128 * M);
    CHECK_EQ_U64(p.bw[3], 128 * M);
    /* without --quick: as before, 1200 MiB, beyond the L3, its bandwidth at 150 MiB */
    tks__sys_mem_plan(big_l3, 3, 0, 0, &p);
    CHECK_EQ_U64(p.max, 1200 * M);
    CHECK_EQ_U64(p.capped, 0);
    CHECK_EQ_U64(p.beyond, 1);
    CHECK_EQ_U64(p.bw[2], 150 * M);
    CHECK_EQ_U64(p.bw[3], 1200 * M);
    /* --max-set is taken as it is, with --quick too: 512 MiB is past the L3 */
    tks__sys_mem_plan(big_l3, 3, 1, 512 * M, &p);
    CHECK_EQ_U64(p.max, 512 * M);
    CHECK_EQ_U64(p.capped, 0);
    CHECK_EQ_U64(p.beyond, 1);
    CHECK_EQ_U64(p.bw[2], 150 * M);
}

/* No levels declared: 32 MiB assumed, 4 x 32 = 128 MiB either way (not capped: --quick's limit
 * is 128 MiB); beyond (nothing declared to be inside); no level bandwidth, memory's at 128 MiB. */
static void plan_no_levels(void)
{
    struct tks__sys_mem_plan p;
    for (int quick = 0; quick <= 1; quick++) {
        tks__sys_mem_plan(NULL, 0, quick, 0, &p);
        CHECK_EQ_U64(p.llc, 0);
        CHECK_EQ_U64(p.max, 128 * M);
        CHECK_EQ_U64(p.capped, 0);
        CHECK_EQ_U64(p.beyond, 1);
        CHECK_EQ_U64(p.bw[0] + p.bw[1] + p.bw[2], 0);
        CHECK_EQ_U64(p.bw[3], 128 * M);
    }
}

/* 32 MiB L3: 4 x 32 = 128 MiB with or without --quick, beyond; half-level bandwidth sets; a
 * --max-set of 64 KiB holds the L2 and L3 sets to 64 KiB and is not beyond the L3. */
static void plan_zen4(void)
{
    struct tks__sys_mem_plan p;
    tks__sys_mem_plan(zen4, 3, 1, 0, &p);
    CHECK_EQ_U64(p.max, 128 * M);
    CHECK_EQ_U64(p.capped, 0);
    CHECK_EQ_U64(p.beyond, 1);
    CHECK_EQ_U64(p.bw[0], 16 * K);
    CHECK_EQ_U64(p.bw[1], 512 * K);
    CHECK_EQ_U64(p.bw[2], 16 * M);
    tks__sys_mem_plan(zen4, 3, 1, 64 * K, &p);
    CHECK_EQ_U64(p.max, 64 * K);
    CHECK_EQ_U64(p.beyond, 0);
    CHECK_EQ_U64(p.bw[0], 16 * K);
    CHECK_EQ_U64(p.bw[1], 64 * K);
    CHECK_EQ_U64(p.bw[2], 64 * K);
}

/* A row's share: 6 s left for 10 rows taking 2 s of wall a second of sampling: 0.6 s each, so
 * 0.3 s of sampling; a row asking 0.06 or 0.24 gets it whole; one asking 0.5 is cut to 0.3. 0.5 s
 * left: 0.05 s each, 0.025 s of sampling. None left: 0 (left out). A ratio under 1 (or unknown, 0) counts as 1; 0 rows left
 * count as 1. */
static void time_share(void)
{
    CHECK_NEAR(tks__sys_time_share(6, 10, 2, 0.06), 0.06, 1e-12);
    CHECK_NEAR(tks__sys_time_share(6, 10, 2, 0.24), 0.24, 1e-12);
    CHECK_NEAR(tks__sys_time_share(6, 10, 2, 0.5), 0.3, 1e-12);
    CHECK_NEAR(tks__sys_time_share(0.5, 10, 2, 0.06), 0.025, 1e-12);
    CHECK_NEAR(tks__sys_time_share(0.5, 10, 0.5, 0.06), 0.05, 1e-12);
    CHECK_NEAR(tks__sys_time_share(0.5, 10, 0, 0.06), 0.05, 1e-12);
    CHECK_NEAR(tks__sys_time_share(0.04, 0, 1, 0.06), 0.04, 1e-12);
    CHECK_EQ_U64(tks__sys_time_share(0, 10, 2, 0.06) == 0, 1);
    CHECK_EQ_U64(tks__sys_time_share(-1, 10, 2, 0.06) == 0, 1);
}

int main(void)
{
    plan_big_l3();
    plan_no_levels();
    plan_zen4();
    time_share();
    CHECK_DONE();
}
