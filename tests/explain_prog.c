/* SPDX-License-Identifier: MIT */
/* explain_prog.c: a benchmark program for tests/cli_explain.sh: bodies whose bottleneck is known
 * by construction. ex_chain: eight dependent imul (a chain: every addition is absorbed);
 * ex_fmul: twelve independent mulpd streams (the multiply pipes: mulpd competes); ex_imul:
 * sixteen independent imul r, r, 3 (the multiplier: imul competes); ex_nops: 64 eight-byte NOPs
 * (no execution port: the front end, so the NOPs compete). x86-64 only; elsewhere one body that
 * says so. */
#include "tickscope/bench.h"

#if defined(__x86_64__)
#define REP(n, s) ".rept " #n "\n\t" s "\n\t.endr"

static void ex_chain(tks_state *st)
{
    tks_u64 x = 3;
    TKS_MEASURE(st, { __asm__ __volatile__(REP(8, "imul %0, %0") : "+r"(x)); });
    tks_do_not_optimize(x);
}
TKS_BENCHMARK(ex_chain);

static void ex_fmul(tks_state *st)
{
    TKS_MEASURE(st, {
        double a, b, c, d, e, f, g, h, i, j, k, l;
        __asm__ __volatile__(
            "xorpd %0, %0\n\txorpd %1, %1\n\txorpd %2, %2\n\txorpd %3, %3\n\t"
            "xorpd %4, %4\n\txorpd %5, %5\n\txorpd %6, %6\n\txorpd %7, %7\n\t"
            "xorpd %8, %8\n\txorpd %9, %9\n\txorpd %10, %10\n\txorpd %11, %11\n\t"
            REP(4, "mulpd %0, %0\n\tmulpd %1, %1\n\tmulpd %2, %2\n\tmulpd %3, %3\n\t"
                   "mulpd %4, %4\n\tmulpd %5, %5\n\tmulpd %6, %6\n\tmulpd %7, %7\n\t"
                   "mulpd %8, %8\n\tmulpd %9, %9\n\tmulpd %10, %10\n\tmulpd %11, %11")
            : "=&x"(a), "=&x"(b), "=&x"(c), "=&x"(d), "=&x"(e), "=&x"(f), "=&x"(g), "=&x"(h),
              "=&x"(i), "=&x"(j), "=&x"(k), "=&x"(l));
    });
}
TKS_BENCHMARK(ex_fmul);

static void ex_imul(tks_state *st)
{
    tks_u64 src = 5;
    tks_opaque(src);
    TKS_MEASURE(st, {
        tks_u64 t;
        __asm__ __volatile__(REP(16, "imul $3, %1, %0") : "=&r"(t) : "r"(src) : "cc");
    });
}
TKS_BENCHMARK(ex_imul);

static void ex_nops(tks_state *st)
{
    TKS_MEASURE(st, {
        __asm__ __volatile__(REP(64, ".byte 0x0f, 0x1f, 0x84, 0x00, 0x78, 0x56, 0x34, 0x12"));
    });
}
TKS_BENCHMARK(ex_nops);
#else
static void ex_unavailable(tks_state *st)
{
    tks_state_skip(st, "the known bottlenecks are written in x86-64 code");
}
TKS_BENCHMARK(ex_unavailable);
#endif

TKS_MAIN();
