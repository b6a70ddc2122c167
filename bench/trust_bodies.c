/* SPDX-License-Identifier: MIT */
/* trust_bodies.c: dependent chains whose cost in core cycles is published, measured by
 * bench_trust (built as bodies/bench_trust_bodies, a TKS_MAIN program): 100 adds (latency 1 each),
 * 100 imuls (3) and 100 crc32s (3) on full-width registers, the figures for Zen 4 and for Intel's
 * Golden Cove family alike (Agner Fog's instruction tables; uops.info). Each chain continues
 * from one execution of the block to the next, so in throughput mode too the block costs its
 * chain. x86 only: the bodies are x86 instructions. */
#include "tickscope/bench.h"

#if defined(TKS_ARCH_X86)
#define CHAIN(insn, n) ".rept " #n "\n\t" insn " %1, %0\n\t.endr"

/* The operand the chain combines with comes from a volatile: the compiler cannot fold it. */
static volatile unsigned long one = 1, three = 3;

static void add100(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN("add", 100) : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(add100);

static void imul100(tks_state *st)
{
    unsigned long acc = 1, factor = three;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN("imul", 100) : "+r"(acc) : "r"(factor)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(imul100);

/* crc32 on the full register (SSE4.2; r64 on x86-64, r32 on i386, the same latency): every CPU
 * these figures are for has it. The assembler takes the size from the registers. */
static void crc32_100(tks_state *st)
{
    unsigned long acc = 1, data = three;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN("crc32", 100) : "+r"(acc) : "r"(data)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(crc32_100);
#endif

TKS_MAIN();
