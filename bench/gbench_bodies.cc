/* SPDX-License-Identifier: MIT */
// gbench_bodies.cc: bench/user_bodies.c's five bodies under Google Benchmark, so bench_user can
// set the spread of Google Benchmark's real_time beside tickscope's on identical code. Built only
// when a C++ compiler and Google Benchmark are found (bench/CMakeLists.txt); keep in step with
// user_bodies.c: same names, same instructions.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

// The same chains as user_bodies.c: add %reg,%reg (add-immediate chains are folded at rename on
// some CPUs) and imul %reg,%reg, each instruction depending on the one before.
#if defined(__x86_64__) || defined(__i386__)
#define ADD_CHAIN(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"
#define MUL_CHAIN(n) ".rept " #n "\n\timul %1, %0\n\t.endr"
#else // arm64
#define ADD_CHAIN(n) ".rept " #n "\n\tadd %0, %0, %1\n\t.endr"
#define MUL_CHAIN(n) ".rept " #n "\n\tmul %0, %0, %1\n\t.endr"
#endif

// As in user_bodies.c: the step and factor come from a volatile, so neither is a constant.
static volatile unsigned long one = 1, three = 3; // one register on every target

static void add10(benchmark::State &state)
{
    unsigned long acc = 0, step = one;
    for (auto _ : state)
        __asm__ __volatile__(ADD_CHAIN(10) : "+r"(acc) : "r"(step));
    benchmark::DoNotOptimize(acc);
}
BENCHMARK(add10);

static void add40(benchmark::State &state)
{
    unsigned long acc = 0, step = one;
    for (auto _ : state)
        __asm__ __volatile__(ADD_CHAIN(40) : "+r"(acc) : "r"(step));
    benchmark::DoNotOptimize(acc);
}
BENCHMARK(add40);

static void imul10(benchmark::State &state)
{
    unsigned long acc = 1, factor = three;
    for (auto _ : state)
        __asm__ __volatile__(MUL_CHAIN(10) : "+r"(acc) : "r"(factor));
    benchmark::DoNotOptimize(acc);
}
BENCHMARK(imul10);

static void strlen64(benchmark::State &state)
{
    char *buf = static_cast<char *>(std::malloc(65));
    const char *s = buf;
    if (!buf) {
        state.SkipWithError("out of memory");
        return;
    }
    std::memset(buf, 'x', 64);
    buf[64] = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(s); // opaque each time, so strlen is not hoisted out of the loop
        benchmark::DoNotOptimize(std::strlen(s));
    }
    std::free(buf);
}
BENCHMARK(strlen64);

static void empty(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::ClobberMemory();
}
BENCHMARK(empty);

BENCHMARK_MAIN();
