/* SPDX-License-Identifier: MIT */
/* bench_region.c: what one begin/end pair of a region costs, against an inline pair of fenced
 * clock reads with the same method (the targets: at most 1.2 times, 1.5 times with the
 * reservoir on), with the method compiled in and chosen at start-up, and PAPI's and LIKWID's
 * region markers beside them when they can run here.
 *
 * Each variant runs batches of PAIRS back-to-back pairs timed from outside by one fenced pair;
 * the variants take turns batch by batch (rotating which goes first) so a noisy moment of a
 * shared machine hits all of them, and the figures are medians over ROUNDS rounds. The ratios
 * are the medians of each round's own ratio to the inline pair in that round.
 *
 * Usage: bench_region [ROUNDS]   (default 301; anything but a number is ignored) */
#include "child.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tickscope/region.h>

#include "tickscope.h"

#if defined(TKS_HAVE_PAPI)
#include <papi.h>
#endif
#if defined(TKS_HAVE_LIKWID)
#define LIKWID_PERFMON
#include <likwid-marker.h>
#endif

#define PAIRS 1000u
#define RESERVOIR 4096u

#if defined(TKS_ARCH_X86)
#define BENCH_METHOD TKS_METHOD_LFENCE
#define BEGIN_READ() tks_begin_lfence()
#define END_READ(a) tks_end_lfence(a)
#else
#define BENCH_METHOD TKS_METHOD_ISB
#define BEGIN_READ() tks_begin_isb()
#define END_READ(a) tks_end_isb(a)
#endif

static volatile tks_u64 sink;

/* Each returns the ticks of PAIRS pairs, read from outside. */
static tks_u64 inline_pairs(void)
{
    tks_u32 aux;
    tks_u64 acc = 0, t0 = BEGIN_READ(), t1;
    for (unsigned i = 0; i < PAIRS; i++) {
        tks_u64 a = BEGIN_READ();
        tks_u64 b = END_READ(&aux);
        acc += b - a;
    }
    t1 = END_READ(&aux);
    sink = acc;
    return t1 - t0;
}

/* m is a constant at every call, so the reads fold as they do under -DTKS_REGION_METHOD. */
#define REGION_PAIRS(fn, name, m)                                                          \
    static tks_u64 fn(void)                                                                \
    {                                                                                      \
        static tks__region_site b, e;                                                      \
        tks_u32 aux;                                                                       \
        tks_u64 t0 = BEGIN_READ(), t1;                                                     \
        for (unsigned i = 0; i < PAIRS; i++) {                                             \
            tks__region_begin(&b, name, m);                                                \
            (void)tks__region_end(&e, name, m);                                            \
        }                                                                                  \
        t1 = END_READ(&aux);                                                               \
        return t1 - t0;                                                                    \
    }
REGION_PAIRS(region_compiled, "compiled", BENCH_METHOD)
REGION_PAIRS(region_startup, "start-up", -1)
REGION_PAIRS(region_res_compiled, "compiled+reservoir", BENCH_METHOD)
REGION_PAIRS(region_res_startup, "start-up+reservoir", -1)

#if defined(TKS_HAVE_PAPI)
static tks_u64 papi_pairs(void)
{
    tks_u32 aux;
    tks_u64 t0 = BEGIN_READ(), t1;
    for (unsigned i = 0; i < PAIRS; i++) {
        PAPI_hl_region_begin("papi");
        PAPI_hl_region_end("papi");
    }
    t1 = END_READ(&aux);
    return t1 - t0;
}
#endif

#if defined(TKS_HAVE_LIKWID)
static tks_u64 likwid_pairs(void)
{
    tks_u32 aux;
    tks_u64 t0 = BEGIN_READ(), t1;
    for (unsigned i = 0; i < PAIRS; i++) {
        LIKWID_MARKER_START("likwid");
        LIKWID_MARKER_STOP("likwid");
    }
    t1 = END_READ(&aux);
    return t1 - t0;
}
#endif

struct variant {
    const char *name;
    tks_u64 (*fn)(void);
    double target;        /* the bound on the ratio (0: none) */
    double *per_pair;     /* ROUNDS figures, ticks per pair */
    double *ratio;        /* ROUNDS ratios to the inline pair of the same round */
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int bench_main(int argc, char **argv)
{
    /* `make bench` passes the tickscope binary as argv[1]: only a number is a round count. */
    char *end = NULL;
    unsigned long arg = argc > 1 ? strtoul(argv[1], &end, 10) : 0;
    unsigned rounds = argc > 1 && end != argv[1] && !*end ? (unsigned)arg : 301;
    struct variant v[8];
    size_t nv = 0;
    const struct tks_cpu_features *f = tks_cpu_features_get();
    const char *papi_why = NULL, *likwid_why = NULL;

    if (rounds < 3)
        rounds = 3;
    if (!tks_method_available(BENCH_METHOD, f)) {
        printf("bench_region: %s is not available on this CPU; nothing to compare\n",
               tks_method_info(BENCH_METHOD)->name);
        return 0;
    }
    tks_region_set_output("none", -1);
    tks_region_set_reservoir("compiled+reservoir", RESERVOIR);
    tks_region_set_reservoir("start-up+reservoir", RESERVOIR);

    v[nv++] = (struct variant){"inline fenced pair", inline_pairs, 0, NULL, NULL};
    v[nv++] = (struct variant){"region, method compiled in", region_compiled, 1.2, NULL, NULL};
    v[nv++] = (struct variant){"region, method chosen at start-up", region_startup, 1.2, NULL, NULL};
    v[nv++] = (struct variant){"region + reservoir, compiled in", region_res_compiled, 1.5, NULL, NULL};
    v[nv++] = (struct variant){"region + reservoir, start-up", region_res_startup, 1.5, NULL, NULL};
#if defined(TKS_HAVE_PAPI)
    {
        int rc = PAPI_hl_region_begin("papi");
        if (rc == PAPI_OK && PAPI_hl_region_end("papi") == PAPI_OK)
            v[nv++] = (struct variant){"PAPI_hl_region_begin/end", papi_pairs, 0, NULL, NULL};
        else
            papi_why = "PAPI_hl_region_begin failed: PAPI has no usable event here (papi_avail "
                       "lists the counters; a VM without a PMU has none)";
    }
#else
    papi_why = "PAPI was not found when the build was configured (apt-get install libpapi-dev)";
#endif
#if defined(TKS_HAVE_LIKWID)
    /* Outside likwid-perfctr -m the markers do nothing, and timing nothing compares nothing. */
    if (getenv("LIKWID_MODE") && getenv("LIKWID_FILEPATH")) {
        LIKWID_MARKER_INIT;
        LIKWID_MARKER_REGISTER("likwid");
        v[nv++] = (struct variant){"LIKWID_MARKER_START/STOP", likwid_pairs, 0, NULL, NULL};
    } else {
        likwid_why = "its markers count only under likwid-perfctr -m (try: likwid-perfctr -C 0 "
                     "-g CLOCK -m bench_region); outside it they do nothing";
    }
#else
    likwid_why = "LIKWID was not found when the build was configured (apt-get install likwid)";
#endif

    for (size_t i = 0; i < nv; i++) {
        v[i].per_pair = calloc(rounds, sizeof(double));
        v[i].ratio = calloc(rounds, sizeof(double));
        if (!v[i].per_pair || !v[i].ratio)
            return 1;
        v[i].fn(); /* warm up: registers the regions, measures their overhead, faults pages */
    }
    for (unsigned r = 0; r < rounds; r++) {
        for (size_t k = 0; k < nv; k++) {
            size_t i = (k + r) % nv;
            v[i].per_pair[r] = (double)v[i].fn() / PAIRS;
        }
        for (size_t i = 0; i < nv; i++)
            v[i].ratio[r] = v[i].per_pair[r] / v[0].per_pair[r];
    }

    printf("One begin/end pair, %s, ticks per pair (median of %u rounds of %u pairs, variants "
           "interleaved):\n\n", tks_method_info(BENCH_METHOD)->name, rounds, PAIRS);
    printf("%-36s %10s %8s %8s  %s\n", "variant", "ticks", "ratio", "target", "");
    printf("--------------------------------------------------------------------------------\n");
    for (size_t i = 0; i < nv; i++) {
        double t = median(v[i].per_pair, rounds), q = median(v[i].ratio, rounds);
        if (v[i].target > 0)
            printf("%-36s %10.1f %8.3f %8.2f  %s\n", v[i].name, t, q, v[i].target,
                   q <= v[i].target ? "met" : "MISSED");
        else
            printf("%-36s %10.1f %8.3f %8s\n", v[i].name, t, q, "-");
    }
    printf("\nThe start-up choice here is %s; the overhead the report subtracts is %.1f ticks.\n",
           tks_method_info((enum tks_method)tks__region_method)->name, tks_region_overhead());
    if (papi_why)
        printf("PAPI: not compared: %s.\n", papi_why);
    if (likwid_why)
        printf("LIKWID: not compared: %s.\n", likwid_why);
#if defined(TKS_HAVE_LIKWID)
    if (!likwid_why)
        LIKWID_MARKER_CLOSE;
#endif
    for (size_t i = 0; i < nv; i++) {
        free(v[i].per_pair);
        free(v[i].ratio);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_region [ROUNDS]\nWhat a region's begin/end pair costs against inline fenced reads (default 301 rounds).\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
