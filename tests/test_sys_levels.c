/* SPDX-License-Identifier: MIT */
/* test_sys_levels.c: the mem suite's pure parts, on synthetic input with hand-checked answers:
 * the knees of a latency curve, the cache levels of a /sys tree (and one size a level), perf
 * bench's figure in its output. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sys/sys_internal.h"
#include "tickscope/sys.h"

#define K 1024u
#define M (1024u * 1024u)

/* A clean three-level curve: 4 cycles to 32K, 14 to 1M, 50 to 32M, then 300. The knees are the
 * last sizes before each rise: 32K, 1M, 32M. */
static void knees_clean(void)
{
    size_t b[] = {16 * K, 32 * K, 64 * K, 512 * K, 1 * M, 2 * M, 16 * M, 32 * M, 64 * M, 128 * M};
    double c[] = {4, 4, 14, 14, 14, 50, 50, 50, 300, 300};
    size_t out[8];
    size_t n = tks_sys_knees(b, c, 10, 1.3, out, 8);
    CHECK_EQ_U64(n, 3);
    CHECK_EQ_U64(out[0], 32 * K);
    CHECK_EQ_U64(out[1], 1 * M);
    CHECK_EQ_U64(out[2], 32 * M);
}

/* One transition spread over three points (4 -> 6 -> 10 -> 14 -> 14): one knee, at the last
 * point of the old plateau, not one per step of the climb. */
/* The mem suite's rule (rise 2) on a curve shaped like a guest's: L1 4 cycles to 48K, a TLB step
 * of 10% then 30% before the L2 (1M) runs out, the climb to the next level spread over three
 * points, then memory from 3M. The TLB steps are no knee; the L2's is at 1M, where the cost
 * doubles; the next at 2M. */
static void knees_tlb_steps(void)
{
    size_t b[] = {32 * K, 48 * K, 64 * K, 256 * K, 512 * K, 768 * K, 1 * M, 1536 * K, 2 * M, 3 * M,
                  4 * M, 8 * M};
    double c[] = {4, 4.5, 14, 14, 15.5, 20, 26, 36, 43, 98, 100, 101};
    size_t out[8];
    size_t n = tks_sys_knees(b, c, 12, 2.0, out, 8);
    /* 48K: 14 > 2 x 4 and stays; climb 4.5 -> 14 (x3.1), 14 -> 14 flat: plateau 14.
     * 768K: 26 > 28? no. 1M: 36 > 28 and 43 > 28: knee at 1M; climb 36 -> 43 (x1.19) stops:
     * plateau 36. 2M: 98 > 72 and 100 > 72: knee at 2M. */
    CHECK_EQ_U64(n, 3);
    CHECK_EQ_U64(out[0], 48 * K);
    CHECK_EQ_U64(out[1], 1 * M);
    CHECK_EQ_U64(out[2], 2 * M);
    /* The old rule of a 30% rise takes the TLB step at 512K for the L2's knee. */
    CHECK_EQ_U64(tks_sys_knees(b, c, 12, 1.3, out, 8) >= 2 ? out[1] : 0, 512 * K);
}

static void knees_gradual(void)
{
    size_t b[] = {8 * K, 16 * K, 24 * K, 32 * K, 48 * K, 64 * K, 96 * K};
    double c[] = {4, 4, 6, 10, 14, 14, 14};
    size_t out[8];
    size_t n = tks_sys_knees(b, c, 7, 1.3, out, 8);
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(out[0], 16 * K);
}

/* A single noisy point (one point up 50%, the next back down) is not a level; a drift of 20%
 * within a plateau is not either. */
static void knees_noise(void)
{
    size_t b[] = {1 * K, 2 * K, 3 * K, 4 * K, 5 * K, 6 * K};
    double c[] = {10, 15, 10, 11, 12, 12};
    size_t out[8];
    CHECK_EQ_U64(tks_sys_knees(b, c, 6, 1.3, out, 8), 0);
    /* the last point rising is a knee: nothing after it can come back down */
    double d[] = {10, 10, 10, 10, 10, 20};
    CHECK_EQ_U64(tks_sys_knees(b, d, 6, 1.3, out, 8), 1);
    CHECK_EQ_U64(out[0], 5 * K);
    /* max bounds what is written; bad arguments find nothing */
    double e[] = {1, 2, 4, 8, 16, 32};
    CHECK_EQ_U64(tks_sys_knees(b, e, 6, 1.3, out, 8), 1); /* one long climb: one knee */
    CHECK_EQ_U64(out[0], 1 * K);
    double f[] = {1, 1, 2, 2, 4, 4};
    CHECK_EQ_U64(tks_sys_knees(b, f, 6, 1.3, out, 1), 1);
    CHECK_EQ_U64(out[0], 2 * K);
    CHECK_EQ_U64(tks_sys_knees(b, f, 6, 1.0, out, 8), 0);
    CHECK_EQ_U64(tks_sys_knees(b, f, 1, 1.3, out, 8), 0);
    CHECK_EQ_U64(tks_sys_knees(NULL, f, 6, 1.3, out, 8), 0);
}

static void put(const char *root, const char *rel, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

static void mkdirs(const char *root, const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "mkdir -p '%s/%s'", root, rel);
    if (system(path) != 0)
        exit(1);
}

/* A tree as Linux writes it: index0 L1d, index1 L1i (left out: no data), index3 L3 before
 * index2 L2 would be sorted; sizes in K and M. */
static void cache_levels(void)
{
    char root[] = "/tmp/tks_sys_levels.XXXXXX";
    const char *base = "sys/devices/system/cpu/cpu0/cache";
    tks_sys_cache_level c[6];
    char cmd[600];
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        exit(1);
    }
    for (int i = 0; i < 4; i++) {
        char d[128];
        snprintf(d, sizeof d, "%s/index%d", base, i);
        mkdirs(root, d);
    }
    put(root, "sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index0/level", "1\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index0/size", "48K\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index1/type", "Instruction\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index1/level", "1\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index1/size", "32K\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index2/type", "Unified\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index2/level", "3\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index2/size", "32M\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index3/type", "Unified\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index3/level", "2\n");
    put(root, "sys/devices/system/cpu/cpu0/cache/index3/size", "1024K\n");
    size_t n = tks_sys_cache_levels(root, c, 6);
    CHECK_EQ_U64(n, 3);
    CHECK_EQ_U64(c[0].level, 1);
    CHECK_STR(c[0].type, "Data");
    CHECK_EQ_U64(c[0].bytes, 48 * K);
    CHECK_EQ_U64(c[1].level, 2);
    CHECK_EQ_U64(c[1].bytes, 1 * M);
    CHECK_EQ_U64(c[2].level, 3);
    CHECK_EQ_U64(c[2].bytes, 32 * M);
    CHECK_EQ_U64(tks_sys_cache_levels(root, c, 1), 1); /* max respected */
    CHECK_EQ_U64(tks_sys_cache_levels("/nonexistent-root", c, 6), 0);
    {
        /* one size a level, L1 first; a second cache of a level (here an L2 of the same size
         * under another index) is not a level */
        uint64_t b[6];
        put(root, "sys/devices/system/cpu/cpu0/cache/index1/type", "Data\n");
        put(root, "sys/devices/system/cpu/cpu0/cache/index1/level", "2\n");
        put(root, "sys/devices/system/cpu/cpu0/cache/index1/size", "1024K\n");
        CHECK_EQ_U64(tks_sys_level_bytes(root, b, 6), 3);
        CHECK_EQ_U64(b[0], 48 * K);
        CHECK_EQ_U64(b[1], 1 * M);
        CHECK_EQ_U64(b[2], 32 * M);
        CHECK_EQ_U64(tks_sys_level_bytes(root, b, 2), 2);
        CHECK_EQ_U64(tks_sys_level_bytes("/nonexistent-root", b, 6), 0);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

/* The outputs of perf 6.1 (Debian 12), as printed. */
static void perf_parse(void)
{
    static const char sys_basic[] =
        "# Running 'syscall/basic' benchmark:\n# Executed 10000000 getppid() calls\n"
        "     Total time: 2.684 [sec]\n\n       0.268469 usecs/op\n        3724820 ops/sec\n";
    static const char pipe[] =
        "# Running 'sched/pipe' benchmark:\n# Executed 20000 pipe operations between two "
        "processes\n\n     Total time: 0.163 [sec]\n\n       8.187650 usecs/op\n"
        "         122135 ops/sec\n";
    static const char memcpy_out[] =
        "# Running 'mem/memcpy' benchmark:\n# function 'default' (Default memcpy() provided by "
        "glibc)\n# Copying 1MB bytes ...\n\n      39.062500 GB/sec\n# function 'x86-64-unrolled'\n"
        "      44.389205 GB/sec\n";
    static const char memcpy_mb[] = "# Copying 1MB bytes ...\n\n     512.000000 MB/sec\n";
    double v = 0;
    CHECK(tks_sys_perf_parse(sys_basic, &v) == 0);
    CHECK_NEAR(v, 0.268469, 1e-12);
    CHECK(tks_sys_perf_parse(pipe, &v) == 0);
    CHECK_NEAR(v, 8.18765, 1e-12);
    CHECK(tks_sys_perf_parse(memcpy_out, &v) == 0);
    CHECK_NEAR(v, 39.0625, 1e-12); /* the first function's, the C library's */
    CHECK(tks_sys_perf_parse(memcpy_mb, &v) == 0);
    CHECK_NEAR(v, 0.5, 1e-12); /* 512 MB/sec = 0.5 GB/sec in perf's binary units */
    CHECK(tks_sys_perf_parse("perf: 'bench' is not a perf-command\n", &v) == TKS_EINVAL);
    CHECK(tks_sys_perf_parse("usecs/op\n", &v) == TKS_EINVAL);
    CHECK(tks_sys_perf_parse(NULL, &v) == TKS_EINVAL);
}

/* A result with /sys's L1 48K, L2 1M, L3 32M and the half-octave curve 32K .. 128M. */
static tks_sys_result *levels_result(void)
{
    static const size_t sizes[] = {32 * K, 48 * K, 64 * K, 768 * K, 1 * M, 1536 * K, 2 * M, 3 * M,
                                   4 * M, 6 * M, 8 * M, 12 * M, 16 * M, 24 * M, 32 * M, 48 * M,
                                   64 * M, 128 * M};
    tks_sys_result *r = calloc(1, sizeof *r);
    r->n_caches = 3;
    r->caches[0].bytes = 48 * K;
    r->caches[1].bytes = 1 * M;
    r->caches[2].bytes = 32 * M;
    r->n_curve = sizeof sizes / sizeof sizes[0];
    for (size_t i = 0; i < r->n_curve; i++)
        r->curve[i].bytes = sizes[i];
    return r;
}

/* A level whose knee is near its /sys size shows; one whose is not is taken inside the knee the
 * curve shows below it (this guest's L3 ending at 8 MiB), never at the level below's knee. */
static void shown_levels(void)
{
    tks_sys_result *r = levels_result();
    r->n_knees = 3;
    r->knees[0] = 48 * K;
    r->knees[1] = 1 * M;
    r->knees[2] = 8 * M;
    CHECK(tks__sys_knee_near(r, 48 * K) && tks__sys_knee_near(r, 1 * M));
    CHECK(!tks__sys_knee_near(r, 32 * M)); /* 8M is four points below 32M */
    CHECK_EQ_U64(tks__sys_shown_level(r, 0), 0);
    CHECK_EQ_U64(tks__sys_shown_level(r, 1), 0);
    CHECK_EQ_U64(tks__sys_shown_level(r, 2), 8 * M);
    /* a knee at 24M is one point from 32M: the L3 shows where /sys says */
    r->knees[2] = 24 * M;
    CHECK(tks__sys_knee_near(r, 32 * M));
    CHECK_EQ_U64(tks__sys_shown_level(r, 2), 0);
    /* the L2's knee one step late (1.5M) is the L2's, not a small L3 */
    r->knees[1] = 1536 * K;
    r->n_knees = 2;
    CHECK_EQ_U64(tks__sys_shown_level(r, 2), 0);
    /* past twice the L2, it is the L3 the curve shows */
    r->knees[2] = 3 * M;
    r->n_knees = 3;
    CHECK_EQ_U64(tks__sys_shown_level(r, 2), 3 * M);
    /* no knee at all: nothing shown, the level is taken where /sys says */
    r->n_knees = 0;
    CHECK_EQ_U64(tks__sys_shown_level(r, 2), 0);
    free(r);
}

static void names(void)
{
    const char *const *ids;
    CHECK_STR(tks_sys_suite_name(TKS_SYS_CPU), "cpu");
    CHECK_STR(tks_sys_suite_name(TKS_SYS_MEM), "mem");
    CHECK(tks_sys_suite_name(TKS_SYS_SUITE_COUNT) == NULL);
    CHECK(tks_sys_suite_from_name("os") == TKS_SYS_OS);
    CHECK(tks_sys_suite_from_name("disk") == -1);
    CHECK(tks_sys_suite_from_name(NULL) == -1);
    CHECK_EQ_U64(tks_sys_operations(TKS_SYS_CPU, &ids), 14);
    CHECK_STR(ids[2], "call_0");
    CHECK_STR(ids[9], "call_7");
    CHECK(ids[14] == NULL);
    CHECK_EQ_U64(tks_sys_operations(TKS_SYS_SUITE_COUNT, &ids), 0);
}

/* Bad requests are refused before anything is measured. */
static void bad_requests(void)
{
    tks_sys_options o;
    tks_sys_result *r = (tks_sys_result *)1;
    const char *const only[] = {"call_0", "no_such_operation", NULL};
    tks_sys_options_init(&o);
    CHECK(o.method == -1 && o.huge_pages == 1 && o.only == NULL);
    CHECK(tks_sys_run(TKS_SYS_SUITE_COUNT, &o, NULL, &r) == TKS_EINVAL);
    CHECK(r == NULL);
    o.only = only;
    CHECK(tks_sys_run(TKS_SYS_CPU, &o, NULL, &r) == TKS_EINVAL);
    CHECK(r == NULL);
    CHECK(tks_sys_run(TKS_SYS_CPU, &o, NULL, NULL) == TKS_EINVAL);
    tks_sys_result_free(NULL);
}

int main(void)
{
    knees_clean();
    knees_gradual();
    knees_tlb_steps();
    knees_noise();
    cache_levels();
    perf_parse();
    shown_levels();
    names();
    bad_requests();
    CHECK_DONE();
}
