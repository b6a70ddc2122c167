/* SPDX-License-Identifier: MIT */
// gbench_memcpy.cc: memcpy.c's two benchmarks under Google Benchmark, written for the comparison
// (tests/cli_example_memcpy.sh): the same names, arguments and counters. Built only when Google
// Benchmark is installed (examples/CMakeLists.txt); keep in step with memcpy.c.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

static void bm_memcpy(benchmark::State &state)
{
    const size_t n = static_cast<size_t>(state.range(0));
    std::vector<char> src(n, 'x'), dst(n);
    for (auto _ : state) {
        memcpy(dst.data(), src.data(), n);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n));
}
BENCHMARK(bm_memcpy)->Range(8, 8 << 10);

static void bm_gather(benchmark::State &state)
{
    const size_t size = static_cast<size_t>(state.range(0)), stride = static_cast<size_t>(state.range(1));
    const size_t words = size / stride, lines = size / (stride > 64 ? stride : 64);
    std::vector<char> src(size);
    std::vector<unsigned long long> dst(words ? words : 1);
    for (auto _ : state) {
        for (size_t i = 0; i < words; i++)
            memcpy(&dst[i], src.data() + i * stride, sizeof dst[i]);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(words));
    state.counters["lines"] = benchmark::Counter(double(lines), benchmark::Counter::kIsIterationInvariant |
                                                                     benchmark::Counter::kAvgIterations);
    state.counters["lines_rate"] = benchmark::Counter(double(lines), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(bm_gather)->ArgNames({"size", "stride"})->ArgsProduct({{512, 4096}, {8, 64}});

BENCHMARK_MAIN();
