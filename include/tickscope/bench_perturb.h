/* SPDX-License-Identifier: MIT */
/* tickscope/bench_perturb.h: the work a benchmark program's --explain adds after each repetition
 * of the block (included by tickscope/bench.h; not for direct use). Each kind is one inline-asm
 * statement running `units` times a unit of eight instructions of one kind, none of which
 * depends on the block: independent integer adds, independent imul r, r, 3, SSE2 mulpd or addpd
 * (baseline x86-64), loads from one L1 line, or eight 8-byte NOPs (64 bytes of code that no
 * execution port runs: the front end's probe). Each statement declares its temporaries as
 * outputs, so the compiler picks registers free around the block and no call (which would make
 * it spill the block's registers) enters the window. x86-64 only: elsewhere TKS__PERTURBED is
 * absent, and the runner says --explain is unavailable. */
#ifndef TICKSCOPE_BENCH_PERTURB_H
#define TICKSCOPE_BENCH_PERTURB_H

/* The kinds, in the order the runner runs them (src/runner/explain_bench.c names them). */
enum tks__perturb_kind {
    TKS__PERTURB_NONE = 0,
    TKS__PERTURB_ADD,   /* add r64, r64: 8 registers, one add each a unit */
    TKS__PERTURB_IMUL,  /* imul r64, r64, 3: written only, so each is independent */
    TKS__PERTURB_MULPD, /* mulpd xmm, xmm: 8 registers zeroed first, so no denormals */
    TKS__PERTURB_ADDPD, /* addpd xmm, xmm: the same */
    TKS__PERTURB_LOAD,  /* mov r64, [m]: one line of a static buffer, always in L1 */
    TKS__PERTURB_NOPS,  /* nop DWORD PTR [rax+rax*1+disp32], eight of them */
    TKS__PERTURB_KINDS
};

#if defined(__x86_64__)
#define TKS__HAS_PERTURB 1

#define TKS__P8(i) i i i i i i i i
#define TKS__P_LOOP "dec %[n]\n\tjnz 1b"
#define TKS__P_ADD                                                                         \
    {                                                                                      \
        tks_u64 a_, b_, c_, d_, e_, f_, g_, h_;                                             \
        __asm__ __volatile__("1:\n\tadd %[n], %[a]\n\tadd %[n], %[b]\n\tadd %[n], %[c]\n\t" \
                             "add %[n], %[d]\n\tadd %[n], %[e]\n\tadd %[n], %[f]\n\t"      \
                             "add %[n], %[g]\n\tadd %[n], %[h]\n\t" TKS__P_LOOP            \
                             : [n] "+r"(tks__pn), [a] "=&r"(a_), [b] "=&r"(b_),           \
                               [c] "=&r"(c_), [d] "=&r"(d_), [e] "=&r"(e_), [f] "=&r"(f_), \
                               [g] "=&r"(g_), [h] "=&r"(h_)                                \
                             :                                                             \
                             : "cc");                                                      \
    }
#define TKS__P_IMUL                                                                        \
    {                                                                                      \
        tks_u64 t_;                                                                        \
        __asm__ __volatile__("1:\n\t" TKS__P8("imul $3, %[n], %[t]\n\t") TKS__P_LOOP       \
                             : [n] "+r"(tks__pn), [t] "=&r"(t_)                            \
                             :                                                             \
                             : "cc");                                                      \
    }
/* op on eight xmm registers, each zeroed once a repetition (a zero idiom: no dependence) */
#define TKS__P_FP(op)                                                                      \
    {                                                                                      \
        double a_, b_, c_, d_, e_, f_, g_, h_;                                             \
        __asm__ __volatile__("xorpd %[a], %[a]\n\txorpd %[b], %[b]\n\txorpd %[c], %[c]\n\t" \
                             "xorpd %[d], %[d]\n\txorpd %[e], %[e]\n\txorpd %[f], %[f]\n\t" \
                             "xorpd %[g], %[g]\n\txorpd %[h], %[h]\n"                      \
                             "1:\n\t" op " %[a], %[a]\n\t" op " %[b], %[b]\n\t"            \
                             op " %[c], %[c]\n\t" op " %[d], %[d]\n\t" op " %[e], %[e]\n\t" \
                             op " %[f], %[f]\n\t" op " %[g], %[g]\n\t" op " %[h], %[h]\n\t" \
                             TKS__P_LOOP                                                   \
                             : [n] "+r"(tks__pn), [a] "=&x"(a_), [b] "=&x"(b_),           \
                               [c] "=&x"(c_), [d] "=&x"(d_), [e] "=&x"(e_), [f] "=&x"(f_), \
                               [g] "=&x"(g_), [h] "=&x"(h_)                                \
                             :                                                             \
                             : "cc");                                                      \
    }
#define TKS__P_LOAD                                                                        \
    {                                                                                      \
        static const tks_u64 tks__pline[8] = {0, 0, 0, 0, 0, 0, 0, 0};                     \
        tks_u64 t_;                                                                        \
        __asm__ __volatile__("1:\n\t" TKS__P8("mov %[m], %[t]\n\t") TKS__P_LOOP            \
                             : [n] "+r"(tks__pn), [t] "=&r"(t_)                            \
                             : [m] "m"(tks__pline[0])                                      \
                             : "cc");                                                      \
    }
#define TKS__P_NOP8 ".byte 0x0f, 0x1f, 0x84, 0x00, 0x78, 0x56, 0x34, 0x12\n\t"
#define TKS__P_NOPS                                                                        \
    __asm__ __volatile__("1:\n\t" TKS__P8(TKS__P_NOP8) TKS__P_LOOP                       \
                         : [n] "+r"(tks__pn)                                               \
                         :                                                                 \
                         : "cc");

/* units (at least 1) units of kind's work; a switch the branch predictor learns at once. */
#define TKS__PERTURB(kind, units)                                                          \
    do {                                                                                   \
        tks_u64 tks__pn = (units);                                                         \
        switch (kind) {                                                                    \
        case TKS__PERTURB_ADD: TKS__P_ADD break;                                           \
        case TKS__PERTURB_IMUL: TKS__P_IMUL break;                                         \
        case TKS__PERTURB_MULPD: TKS__P_FP("mulpd") break;                                 \
        case TKS__PERTURB_ADDPD: TKS__P_FP("addpd") break;                                 \
        case TKS__PERTURB_LOAD: TKS__P_LOAD break;                                         \
        case TKS__PERTURB_NOPS: TKS__P_NOPS break;                                         \
        default: break;                                                                    \
        }                                                                                  \
    } while (0)

/* The kernel variant: throughput mode's k repetitions, each followed by the perturbation. */
#define TKS__PERTURB_CASE(m, M, flags, ...)                                                \
    case TKS_METHOD_##M * TKS__KERNELS + TKS__PERTURBED:                                   \
        TKS__PAIRS(m, TKS_MF_END_AUX(flags), 1,                                            \
                   __VA_ARGS__ TKS__PERTURB(tks__b.perturb, tks__b.perturb_n);)            \
        break;
#else
#define TKS__HAS_PERTURB 0
#define TKS__PERTURB_CASE(m, M, flags, ...)
#endif

#endif /* TICKSCOPE_BENCH_PERTURB_H */
