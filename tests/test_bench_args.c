/* SPDX-License-Identifier: MIT */
/* test_bench_args.c: a benchmark's argument steps make the runs and names Google Benchmark 1.7
 * makes. The expected lists are written by hand from its documented rules (Range: lo, the
 * multiplier's powers strictly inside, hi; DenseRange: every step; ArgsProduct: the first list
 * varying fastest; names "name:value"), never computed by the code under test; and a bad step
 * is refused with a reason, as Google Benchmark stops on one. */
#include <stdlib.h>
#include <string.h>

#include "runner/registry.h"

#include "check.h"

static void body(tks_state *st) { (void)st; }

/* Registered before main by the macros, as a user's program registers them. */
TKS_BENCHMARK(bm_plain);
TKS_BENCHMARK(bm_memcpy, TKS_RANGE(8, 8 << 10));
TKS_BENCHMARK(bm_x, TKS_ARG_NAMES("size", "stride"), TKS_ARGS_PRODUCT(TKS_LIST(64, 128), TKS_LIST(1, 8)));
TKS_BENCHMARK_ARGS(bm_old, 0, 16, 256);
static void bm_plain(tks_state *st) { (void)st; }
static void bm_memcpy(tks_state *st) { (void)st; }
static void bm_x(tks_state *st) { (void)st; }
static void bm_old(tks_state *st) { (void)st; }

/* The names of benchmark f's runs, joined with spaces. */
static const char *names_of(size_t f)
{
    static char all[4096];
    size_t used = 0;
    all[0] = 0;
    for (size_t i = 0; i < tks__registry_runs(f); i++) {
        char name[128];
        tks_args a;
        tks__registry_run(f, i, &a, name, sizeof name);
        used += (size_t)snprintf(all + used, sizeof all - used, "%s%s", i ? " " : "", name);
    }
    return all;
}

/* Register "b" with steps; the names of its runs, or "error: why". */
static const char *with(const tks_args_step *steps, size_t n)
{
    static char err[300];
    tks_benchmark_spec spec = {"b", body, NULL, 0, 1};
    int rc;
    tks__registry_clear();
    if ((rc = tks_register_steps(&spec, steps, n)) != 0) {
        snprintf(err, sizeof err, "error %d: %s", rc, tks_register_why());
        return err;
    }
    return names_of(0);
}
#define WITH(...)                                                                          \
    (with((const tks_args_step[]){__VA_ARGS__, TKS__STEP0(TKS_STEP_END)},                  \
          sizeof((const tks_args_step[]){__VA_ARGS__, TKS__STEP0(TKS_STEP_END)}) /          \
              sizeof(tks_args_step)))

static int refused(const char *got, const char *why)
{
    int ok = !strncmp(got, "error", 5) && strstr(got, why);
    if (!ok)
        fprintf(stderr, "expected a refusal with '%s', got '%s'\n", why, got);
    return ok;
}

int main(void)
{
    /* the macros, before anything is cleared */
    CHECK_EQ_U64(tks__registry_count(), 4);
    CHECK_STR(tks__registry_error(), "");
    CHECK_STR(names_of(0), "bm_plain");
    CHECK_STR(names_of(1), "bm_memcpy/8 bm_memcpy/64 bm_memcpy/512 bm_memcpy/4096 bm_memcpy/8192");
    CHECK_STR(names_of(2), "bm_x/size:64/stride:1 bm_x/size:128/stride:1 bm_x/size:64/stride:8 "
                           "bm_x/size:128/stride:8");
    CHECK_STR(names_of(3), "bm_old/0 bm_old/16 bm_old/256");

    /* Range: the default multiplier 8, both ends always */
    CHECK_STR(WITH(TKS_RANGE(0, 1024)), "b/0 b/1 b/8 b/64 b/512 b/1024");
    CHECK_STR(WITH(TKS_RANGE(1, 1)), "b/1");
    CHECK_STR(WITH(TKS_RANGE(1, 2)), "b/1 b/2");
    CHECK_STR(WITH(TKS_RANGE(8, 64)), "b/8 b/64");
    CHECK_STR(WITH(TKS_RANGE_MULTIPLIER(2), TKS_RANGE(8, 64)), "b/8 b/16 b/32 b/64");
    CHECK_STR(WITH(TKS_RANGE_MULTIPLIER(10), TKS_RANGE(10, 1000)), "b/10 b/100 b/1000");
    CHECK_STR(WITH(TKS_RANGE_MULTIPLIER(2), TKS_RANGE(5, 40)), "b/5 b/8 b/16 b/32 b/40");
    /* negative ends: the negated powers, 0 where the range crosses it */
    CHECK_STR(WITH(TKS_RANGE_MULTIPLIER(2), TKS_RANGE(-10, 10)),
              "b/-10 b/-8 b/-4 b/-2 b/-1 b/0 b/1 b/2 b/4 b/8 b/10");
    CHECK_STR(WITH(TKS_RANGE(-64, -1)), "b/-64 b/-8 b/-1");
    /* a multiplier applies to the ranges after it only; Arg and Range add to one list */
    CHECK_STR(WITH(TKS_RANGE(1, 8), TKS_RANGE_MULTIPLIER(2), TKS_RANGE(1, 8), TKS_ARG(3)),
              "b/1 b/8 b/1 b/2 b/4 b/8 b/3");
    /* DenseRange: step 1 by default, the limit when a step lands on it */
    CHECK_STR(WITH(TKS_DENSE_RANGE(1, 4)), "b/1 b/2 b/3 b/4");
    CHECK_STR(WITH(TKS_DENSE_RANGE(0, 1024, 256)), "b/0 b/256 b/512 b/768 b/1024");
    CHECK_STR(WITH(TKS_DENSE_RANGE(0, 10, 4)), "b/0 b/4 b/8");
    /* products: the first list varies fastest */
    CHECK_STR(WITH(TKS_ARGS_PRODUCT(TKS_LIST(1, 2, 3), TKS_LIST(10, 20))),
              "b/1/10 b/2/10 b/3/10 b/1/20 b/2/20 b/3/20");
    CHECK_STR(WITH(TKS_RANGES(8, 64, 1, 8)), "b/8/1 b/64/1 b/8/8 b/64/8");
    CHECK_STR(WITH(TKS_RANGE_MULTIPLIER(2), TKS_RANGES(1, 4, 5, 5)), "b/1/5 b/2/5 b/4/5");
    CHECK_STR(WITH(TKS_ARGS_PRODUCT(TKS_CREATE_RANGE(8, 32, 2), TKS_CREATE_DENSE_RANGE(1, 2))),
              "b/8/1 b/16/1 b/32/1 b/8/2 b/16/2 b/32/2");
    CHECK_STR(WITH(TKS_ARGS(64, 8), TKS_ARGS(128, 4)), "b/64/8 b/128/4");
    /* names, before or after the arguments; an empty name leaves the value bare */
    CHECK_STR(WITH(TKS_ARGS(64, 8), TKS_ARG_NAMES("size", "stride")), "b/size:64/stride:8");
    CHECK_STR(WITH(TKS_ARG_NAMES("", "stride"), TKS_ARGS(64, 8)), "b/64/stride:8");
    CHECK_STR(WITH(TKS_ARG_NAME("n"), TKS_RANGE(1, 8)), "b/n:1 b/n:8");

    /* refusals, each with its reason */
    CHECK(refused(WITH(TKS_RANGE(10, 1)), "below the low end"));
    CHECK(refused(WITH(TKS_RANGE_MULTIPLIER(1), TKS_RANGE(1, 8)), "multiplier"));
    CHECK(refused(WITH(TKS_DENSE_RANGE(0, 10, 0)), "step"));
    CHECK(refused(WITH(TKS_ARG(1), TKS_ARGS(1, 2)), "runs of 2 argument(s) where the others have 1"));
    CHECK(refused(WITH(TKS_ARG_NAMES("a", "b"), TKS_ARG(1)), "where TKS_ARG_NAMES names 2"));
    CHECK(refused(WITH(TKS_ARG(1), TKS_ARG_NAMES("a", "b")), "2 name(s) to runs of 1"));
    CHECK(refused(WITH(TKS_LIST(1, 2)), "outside TKS_ARGS_PRODUCT"));
    CHECK(refused(WITH(TKS_RANGES(1, 2, 3)), "pairs"));
    CHECK(refused(WITH(TKS_DENSE_RANGE(0, 100000)), "more than 4096 runs"));
    CHECK(refused(WITH(TKS_ARGS_PRODUCT(TKS_CREATE_DENSE_RANGE(1, 100), TKS_CREATE_DENSE_RANGE(1, 100))),
                  "more than 4096 runs"));
    {
        static const char long_name[] = "an_argument_name_of_seventy_characters_so_that_two_make_a_run_name_long";
        CHECK(refused(WITH(TKS_ARG_NAMES(long_name, long_name), TKS_ARGS(1, 2)), "over 127 characters"));
    }
    /* a duplicate name is refused, the first kept */
    {
        tks_benchmark_spec spec = {"b", body, NULL, 0, 1};
        CHECK(tks_register_steps(&spec, NULL, 0) == 0);
        CHECK(tks_register_steps(&spec, NULL, 0) == TKS_EINVAL);
        CHECK(strstr(tks_register_why(), "registered already") != NULL);
        CHECK_EQ_U64(tks__registry_count(), 1);
    }
    tks__registry_clear();
    CHECK_DONE();
}
