/* SPDX-License-Identifier: MIT */
/* gate_bodies.c: the body bench_gate compares with itself and with slowed copies of itself
 * (built as bodies/bench_gate_bodies, a TKS_MAIN program). One benchmark, "gate": a chain of 200
 * dependent adds, and TKS_GATE_EXTRA (0, 1, 2 or 4 in the environment) more adds in the same
 * chain: +0.5%, +1%, +2% of the body. The name is the same whatever the chain, as an old and a
 * new build of the same benchmark have it. x86 only: the bodies are x86 instructions. */
#include <stdlib.h>

#include "tickscope/bench.h"

#if defined(TKS_ARCH_X86)
#define CHAIN(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"

/* The operand comes from a volatile: the compiler cannot fold the chain. */
static volatile unsigned long one = 1;

#define GATE_BODY(n)                                                                      \
    static void add##n(tks_state *st)                                                     \
    {                                                                                     \
        unsigned long acc = 0, step = one;                                                \
        TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(n) : "+r"(acc) : "r"(step)); });     \
        tks_do_not_optimize(acc);                                                         \
    }
GATE_BODY(200)
GATE_BODY(201)
GATE_BODY(202)
GATE_BODY(204)

/* The chain is chosen before anything is measured; each length is its own function. */
static void gate(tks_state *st)
{
    const char *e = getenv("TKS_GATE_EXTRA");
    switch (e ? atoi(e) : 0) {
    case 1:
        add201(st);
        break;
    case 2:
        add202(st);
        break;
    case 4:
        add204(st);
        break;
    default:
        add200(st);
        break;
    }
}
TKS_BENCHMARK(gate);
#endif

TKS_MAIN();
