/* SPDX-License-Identifier: MIT */
/* tickscope/bench_window.h: the windows of TKS_MEASURE (tickscope/bench.h), one per method and
 * kernel: the begin reading, the user's block, the end reading, and the bookkeeping after it.
 * Not for direct use; included by bench.h, where tks__batch and the switch over kernels are. */
#ifndef TICKSCOPE_BENCH_WINDOW_H
#define TICKSCOPE_BENCH_WINDOW_H

/* Nothing of ours may run between the two readings. The bookkeeping after the end reading
 * branches on whether TSC_AUX is compared (check_aux), stores into slot i and
 * subtracts the first reading; all of these are known before the window opens, so a compiler
 * may compute with them inside it: clang put the zeroing of a register inside the cpuid
 * method's window (x86-64) and the negation of the first reading's high half inside every i386
 * window; a branch decided before the end reading would copy the end sequence into each arm
 * (tail duplication). TKS__AFTER_END passes them through an empty asm that follows the end
 * reading (volatile asms with a "memory" clobber keep their order): their values are unknown
 * to the compiler until the window has closed. No instruction is emitted. (The hooks were passed
 * too at first: `tickscope sys` then called a hook through a garbage pointer; they are not, and
 * no compiler was seen branching on them inside a window.)
 * tests/cli_window_compilers.sh reads every window as gcc and clang compile it. */
#if defined(__i386__) && !defined(__clang__)
/* gcc -m32: the first reading only. With check_aux and the slot index passed as well, it made
 * `tickscope sys cpu --only call_indirect` call its function pointer through a double's bits
 * (SIGSEGV at 0x405a0000; cause not found), and it put nothing of ours in a window without them
 * (tests/cli_window_compilers.sh); clang -m32 needs all three (it compares check_aux inside the
 * window otherwise). */
#define TKS__AFTER_END() __asm__ __volatile__("" : "+r"(tks__t0) : : "memory")
#else
#define TKS__AFTER_END()                                                                   \
    __asm__ __volatile__("" : "+r"(tks__chk), "+r"(tks__i), "+r"(tks__t0) : : "memory")
#endif

/* One window around the code given, its reading (or the migration marker) stored in slot. */
#define TKS__WINDOW(m, end_aux, slot, ...)                                                 \
    if (tks__chk)                                                                          \
        tks__a0 = tks_cpu_aux();                                                           \
    tks__t0 = TKS_BEGIN(m);                                                                \
    __VA_ARGS__                                                                            \
    tks__t1 = TKS_END(m, &tks__a1);                                                        \
    TKS__AFTER_END();                                                                      \
    if (tks__chk && !(end_aux))                                                            \
        tks__a1 = tks_cpu_aux();                                                           \
    /* without a branch: all ones (TKS__SAMPLE_MIGRATED) when TSC_AUX moved, else the reading; \
     * a branch here, decided by check_aux, is one clang hoists into the window (lfence's end \
     * reading copied into both arms, the test before it) */                               \
    (slot) = (tks__t1 - tks__t0) |                                                         \
             ((tks_u64)0 - (tks_u64)((tks__chk != 0) & (tks__a0 != tks__a1)));

#define TKS__PAIRS(m, end_aux, thr, ...)                                                   \
    for (tks__i = 0; tks__i < tks__b.n; tks__i++) {                                        \
        tks_u64 tks__t0, tks__t1;                                                          \
        tks_u32 tks__a0 = 0, tks__a1 = 0;                                                  \
        int tks__chk = tks__b.check_aux;                                                   \
        TKS__WINDOW(m, end_aux, tks__b.empty[tks__i], )                                    \
        if (tks__setup)                                                                    \
            tks__setup(tks__ctx);                                                          \
        if (thr) {                                                                         \
            tks_u32 tks__j = tks__b.k;                                                     \
            TKS__WINDOW(m, end_aux, tks__b.real[tks__i], do { __VA_ARGS__ } while (--tks__j);) \
        } else {                                                                           \
            TKS__WINDOW(m, end_aux, tks__b.real[tks__i], { __VA_ARGS__ })                  \
        }                                                                                  \
        if (tks__teardown)                                                                 \
            tks__teardown(tks__ctx);                                                       \
    }
/* The block once, then twice back to back (never with hooks: the runner asks for these only
 * when none was given). */
#define TKS__ONCE_TWICE(m, end_aux, ...)                                                   \
    for (tks__i = 0; tks__i < tks__b.n; tks__i++) {                                        \
        tks_u64 tks__t0, tks__t1;                                                          \
        tks_u32 tks__a0 = 0, tks__a1 = 0;                                                  \
        int tks__chk = tks__b.check_aux;                                                   \
        TKS__WINDOW(m, end_aux, tks__b.empty[tks__i], { __VA_ARGS__ })                     \
        TKS__WINDOW(m, end_aux, tks__b.real[tks__i], { __VA_ARGS__ } { __VA_ARGS__ })      \
    }

#endif /* TICKSCOPE_BENCH_WINDOW_H */
