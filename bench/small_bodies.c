/* SPDX-License-Identifier: MIT */
/* small_bodies.c: blocks near one timer step, measured by bench_small (built as
 * bodies/bench_small_bodies, a TKS_MAIN program): one dependent add, two, and a block of 100
 * independent adds over ten registers, whose cost is set by how many adds the CPU issues a cycle
 * (throughput), not by a chain. x86-64 only: the bodies are x86-64 instructions. */
#include "tickscope/bench.h"

#if defined(__x86_64__)
/* The operand comes from a volatile: the compiler cannot fold it. */
static volatile unsigned long one = 1;

static void add1(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__("add %1, %0" : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(add1);

static void add2(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__("add %1, %0\n\tadd %1, %0" : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(add2);

/* Ten adds to each of ten registers, interleaved: a chain of ten per register, 100 adds to
 * issue. */
#define INDEP10 "add %10, %0\n\tadd %10, %1\n\tadd %10, %2\n\tadd %10, %3\n\tadd %10, %4\n\t" \
                "add %10, %5\n\tadd %10, %6\n\tadd %10, %7\n\tadd %10, %8\n\tadd %10, %9\n\t"
static void indep100(tks_state *st)
{
    unsigned long a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0, a8 = 0, a9 = 0;
    unsigned long step = one;
    TKS_MEASURE(st, {
        __asm__ __volatile__(".rept 10\n\t" INDEP10 ".endr"
                             : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5),
                               "+r"(a6), "+r"(a7), "+r"(a8), "+r"(a9)
                             : "r"(step));
    });
    tks_do_not_optimize(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9);
}
TKS_BENCHMARK(indep100);
#endif

TKS_MAIN();
