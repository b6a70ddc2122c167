/* SPDX-License-Identifier: MIT */
/* memcpy.c: Google Benchmark's user-guide example (a memcpy of 8 bytes to 8 KiB: Range,
 * SetBytesProcessed) and a two-argument sweep with named arguments, items and user counters,
 * ported line by line to tickscope. gbench_memcpy.cc beside it is the same program under Google
 * Benchmark, built when Google Benchmark is installed: both print the same names, and Google
 * Benchmark's compare.py reads both outputs (tests/cli_example_memcpy.sh).
 *
 * Build: part of `make` (build/examples/memcpy, and build/examples/gbench_memcpy).
 * Run:   ./build/examples/memcpy
 *        ./build/examples/memcpy --benchmark_format=json --benchmark_repetitions=5 */
#include <stdlib.h>
#include <string.h>

#include <tickscope/bench.h>

/* One memcpy of n bytes, the buffers made once per run, outside every window. */
static void bm_memcpy(tks_state *st)
{
    size_t n = (size_t)tks_state_arg_at(st, 0);
    char *src = malloc(n), *dst = malloc(n);
    if (!src || !dst) {
        free(src);
        free(dst);
        tks_state_skip(st, "cannot allocate the buffers");
        return;
    }
    memset(src, 'x', n);
    /* tks_do_not_optimize(dst): the copy's stores happen in the window, never after it or not at
     * all (a tks_clobber_memory alone would not do: clang sees that nothing but free reads dst) */
    TKS_MEASURE(st, {
        memcpy(dst, src, n);
        tks_do_not_optimize(dst);
    });
    /* Google Benchmark's SetBytesProcessed(int64_t(state.iterations()) * int64_t(state.range(0))) */
    tks_state_set_bytes_processed(st, (double)tks_state_iterations(st) * (double)n);
    free(src);
    free(dst);
}
/* BENCHMARK(BM_memcpy)->Range(8, 8 << 10): 8, 64, 512, 4096 and 8192 bytes */
TKS_BENCHMARK(bm_memcpy, TKS_RANGE(8, 8 << 10));

/* A copy of `size` bytes taken `stride` bytes at a time (one 64-bit word every stride bytes):
 * the words copied are the items, and the cache lines the copy touches a user counter, per
 * iteration and per second. */
static void bm_gather(tks_state *st)
{
    size_t size = (size_t)tks_state_arg_at(st, 0), stride = (size_t)tks_state_arg_at(st, 1);
    size_t words = size / stride, lines = size / (stride > 64 ? stride : 64);
    char *src = calloc(size, 1);
    unsigned long long *dst = calloc(words ? words : 1, sizeof *dst);
    if (!src || !dst) {
        free(src);
        free(dst);
        tks_state_skip(st, "cannot allocate the buffers");
        return;
    }
    TKS_MEASURE(st, {
        for (size_t i = 0; i < words; i++)
            memcpy(&dst[i], src + i * stride, sizeof dst[i]);
        tks_do_not_optimize(dst);
    });
    /* state.SetItemsProcessed(state.iterations() * words), per iteration here */
    tks_state_set_items_per_iteration(st, (double)words);
    /* state.counters["lines"] = Counter(lines, kIsIterationInvariant | kAvgIterations): the
     * lines one iteration touches; and their rate (kIsIterationInvariantRate) */
    tks_state_set_user_counter(st, "lines", (double)lines,
                               TKS_COUNTER_ITERATION_INVARIANT | TKS_COUNTER_AVG_ITERATIONS);
    tks_state_set_user_counter(st, "lines_rate", (double)lines, TKS_COUNTER_ITERATION_INVARIANT_RATE);
    free(src);
    free(dst);
}
/* BENCHMARK(BM_gather)->ArgNames({"size", "stride"})->ArgsProduct({{512, 4096}, {8, 64}}) */
TKS_BENCHMARK(bm_gather, TKS_ARG_NAMES("size", "stride"),
              TKS_ARGS_PRODUCT(TKS_LIST(512, 4096), TKS_LIST(8, 64)));

TKS_MAIN();
