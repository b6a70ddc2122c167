/* SPDX-License-Identifier: MIT */
/* latency_bodies.c: dependent chains of five instruction kinds and four lengths, measured by
 * bench_latency (built as bodies/bench_latency_bodies, a TKS_MAIN program): add, imul and crc32
 * on full-width registers, a pointer that points at itself loaded again and again (an L1 load
 * chase), and scalar double FMAs; 12, 20, 40 and 100 of each. Each chain carries on from one
 * execution of the block to the next, as a user's dependent chain does. x86-64 only. */
#include "tickscope/bench.h"

#if defined(TKS_ARCH_X86) && defined(__x86_64__)
#define REPT(n, insn) ".rept " #n "\n\t" insn "\n\t.endr"

/* Operands from volatiles: the compiler cannot fold them. */
static volatile unsigned long one = 1, three = 3;
static volatile double zero = 0.0;
static void *self[8];

#define INT_CHAIN(kind, insn, n, start, operand)                                           \
    static void kind##n(tks_state *st)                                                     \
    {                                                                                      \
        unsigned long acc = (start), x = (operand);                                        \
        TKS_MEASURE(st, { __asm__ __volatile__(REPT(n, insn " %1, %0") : "+r"(acc) : "r"(x)); }); \
        tks_do_not_optimize(acc);                                                          \
    }                                                                                      \
    TKS_BENCHMARK(kind##n)

/* mov (%reg),%reg: the simple addressing the published load-to-use latency is for. */
#define LOAD_CHAIN(n)                                                                      \
    static void load##n(tks_state *st)                                                     \
    {                                                                                      \
        void *p = self;                                                                    \
        self[0] = self;                                                                    \
        tks_opaque(p);                                                                     \
        TKS_MEASURE(st, { __asm__ __volatile__(REPT(n, "mov (%0), %0") : "+r"(p) : : "memory"); }); \
        tks_do_not_optimize(p);                                                            \
    }                                                                                      \
    TKS_BENCHMARK(load##n)

/* acc = acc + 0 * 0: it stays 0.0, never a denormal. acc is held in xmm15 (a register variable,
 * as asm operands allow): left to itself the compiler keeps a double that lives across the
 * runner's calls in a general register and moves it to and from an xmm register around the block,
 * which puts two moves on the chain. */
#define FMA_CHAIN(n)                                                                       \
    static void fma##n(tks_state *st)                                                      \
    {                                                                                      \
        register double acc __asm__("xmm15") = zero;                                       \
        double z = zero;                                                                   \
        TKS_MEASURE(st, { __asm__ __volatile__(REPT(n, "vfmadd231sd %1, %1, %0") : "+x"(acc) : "x"(z)); }); \
        tks_do_not_optimize(acc);                                                          \
    }                                                                                      \
    TKS_BENCHMARK(fma##n)

#define KINDS(n)                                                                           \
    INT_CHAIN(add, "add", n, 0, one);                                                      \
    INT_CHAIN(imul, "imul", n, 1, three);                                                  \
    INT_CHAIN(crc, "crc32", n, 1, three);                                                  \
    LOAD_CHAIN(n);                                                                         \
    FMA_CHAIN(n)

KINDS(12);
KINDS(20);
KINDS(40);
KINDS(100);
#endif

TKS_MAIN();
