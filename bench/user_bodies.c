/* SPDX-License-Identifier: MIT */
/* user_bodies.c: the five benchmark bodies bench_user measures (built as bench_user_bodies, a
 * TKS_MAIN program). bench/gbench_bodies.cc holds the same bodies for Google Benchmark, so the
 * two harnesses can be compared on identical code; keep the two files in step.
 * The file is not named bench_*.c, so bench/CMakeLists.txt's glob does not make it a bench of
 * its own, and its executable sits in build/bench/bodies/, out of `make bench`'s reach. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/bench.h"

/* add %reg,%reg as in src/sample/ensemble.c's TKS_WORK_ASM: each add reads the previous one's
 * result, so n adds cost n cycles. The step lives in a register the compiler cannot see into:
 * this CPU folds add-immediate chains at rename, which would make an immediate chain free. */
#if defined(TKS_ARCH_X86)
#define ADD_CHAIN(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"
/* imul reg,reg: 3 cycles of latency each on current x86 cores. */
#define MUL_CHAIN(n) ".rept " #n "\n\timul %1, %0\n\t.endr"
#else /* arm64, as ensemble.c: the same chains in three-operand form */
#define ADD_CHAIN(n) ".rept " #n "\n\tadd %0, %0, %1\n\t.endr"
#define MUL_CHAIN(n) ".rept " #n "\n\tmul %0, %0, %1\n\t.endr"
#endif

/* The chains' step and factor are read from a volatile, as ensemble.c does, so the compiler
 * cannot treat them as constants. tks_opaque(step) would be the natural spelling, but GCC 12 at
 * -O1 and above rejects its "+r,m" constraint ("impossible constraint in asm") on a variable
 * whose value it knows at compile time (Google Benchmark spells it "+m,r" under GCC for this). */
/* unsigned long: one general register on x86-64, i386 and arm64 alike. */
static volatile unsigned long one = 1, three = 3;

/* A dependent chain of 10 adds: the 10-cycle reference. */
static void add10(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__(ADD_CHAIN(10) : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(add10);

/* The same chain four times as long: 40 cycles, checks that the cost scales. */
static void add40(tks_state *st)
{
    unsigned long acc = 0, step = one;
    TKS_MEASURE(st, { __asm__ __volatile__(ADD_CHAIN(40) : "+r"(acc) : "r"(step)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(add40);

/* 10 dependent multiplies: ~30 cycles on x86. The factor is odd, so acc never collapses to 0 (imul's
 * latency does not depend on the value, but a product stuck at 0 would look suspicious). */
static void imul10(tks_state *st)
{
    unsigned long acc = 1, factor = three;
    TKS_MEASURE(st, { __asm__ __volatile__(MUL_CHAIN(10) : "+r"(acc) : "r"(factor)); });
    tks_do_not_optimize(acc);
}
TKS_BENCHMARK(imul10);

/* strlen of a 64-byte string: a library call with a data-dependent loop. The pointer is made
 * opaque inside the block so the compiler cannot compute the length once, outside the window.
 * The buffer is allocated (not static) so its address is not a compile-time constant, which
 * GCC's tks_opaque would reject (see above). */
static void strlen64(tks_state *st)
{
    char *buf = malloc(65);
    const char *s = buf;
    if (!buf) {
        tks_state_skip(st, "out of memory");
        return;
    }
    memset(buf, 'x', 64);
    buf[64] = 0;
    TKS_MEASURE(st, {
        tks_opaque(s);
        tks_do_not_optimize(strlen(s));
    });
    free(buf);
}
TKS_BENCHMARK(strlen64);

/* Nothing at all: what is left of the harness after the empty window is subtracted (ideally 0). */
static void empty(tks_state *st)
{
    TKS_MEASURE(st, { tks_clobber_memory(); });
}
TKS_BENCHMARK(empty);

TKS_MAIN();
