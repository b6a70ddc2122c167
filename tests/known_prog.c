/* SPDX-License-Identifier: MIT */
/* known_prog.c: blocks whose cost is known by construction, for the known-answer tests
 * (tests/known_answers.sh) and the recordings of tests/recordings/: nothing (0 core cycles), one
 * dependent add (1), chains of 40, 100 and 101 dependent adds (40, 100, 101), 100 dependent
 * multiplies (300: imul r64 and mul are 3 cycles on every x86-64 and arm64 core these tests run
 * on, Agner Fog's instruction tables and uops.info), and 100 dependent loads through a pointer
 * ring of 4 KiB (100 times the L1 latency). Each chain continues from one execution of the block
 * to the next, so in throughput mode too the block costs its chain. */
#include <stdlib.h>

#include "tickscope/bench.h"

#if defined(__x86_64__) || defined(__i386__)
#define ADD "add %1, %0"
#define MUL "imul %1, %0"
#define LOAD "mov (%0), %0"
#elif defined(__aarch64__)
#define ADD "add %0, %0, %1"
#define MUL "mul %0, %0, %1"
#define LOAD "ldr %0, [%0]"
#endif
#define CHAIN(insn, n) ".rept " #n "\n\t" insn "\n\t.endr"

/* The operand each chain combines with comes from a volatile: the compiler cannot fold it. */
static volatile unsigned long one = 1, three = 3;

static void empty(tks_state *st)
{
    TKS_MEASURE(st, {});
}
TKS_BENCHMARK(empty);

#if defined(ADD)
#define ADDS(n)                                                                            \
    static void add##n(tks_state *st)                                                      \
    {                                                                                      \
        unsigned long acc = 0, step = one;                                                 \
        TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(ADD, n) : "+r"(acc) : "r"(step)); }); \
        tks_do_not_optimize(acc);                                                          \
    }                                                                                      \
    TKS_BENCHMARK(add##n)
ADDS(1);
ADDS(40);
ADDS(100);
ADDS(101);

static void imul100(tks_state *st)
{
    unsigned long acc = 1, factor = three;
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(MUL, 100) : "+r"(acc) : "r"(factor)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(imul100);

/* A ring of 64 pointers, one a 64-byte line (4 KiB), in a fixed scattered order (a stride of
 * 23 lines, coprime with 64): every load depends on the one before and hits the L1. */
#define LINES 64u
static void chase100(tks_state *st)
{
    void **ring = aligned_alloc(64, LINES * 64);
    void *p;
    if (!ring) {
        tks_state_skip(st, "out of memory");
        return;
    }
    for (unsigned i = 0; i < LINES; i++)
        ring[i * 8] = &ring[((i + 23) % LINES) * 8];
    p = ring[0];
    TKS_MEASURE(st, { __asm__ __volatile__(CHAIN(LOAD, 100) : "+r"(p)); });
    tks_do_not_optimize(p);
    free(ring);
}
TKS_BENCHMARK(chase100);
#endif

TKS_MAIN();
