/* SPDX-License-Identifier: MIT */
/* explain_bodies.h: blocks whose bottleneck is known by construction, written once for the test
 * of --explain (tests/explain_prog.c) and the bench that counts its verdicts
 * (bench/explain_bodies.c). Each is one statement for TKS_MEASURE's block, and the chase's ring
 * is built before it; x86-64 only. */
#ifndef TKS_EXPLAIN_BODIES_H
#define TKS_EXPLAIN_BODIES_H

#if defined(__x86_64__)
#include <stdio.h>
#include <stdlib.h>

#include "runner/runner.h" /* tks__explain_ring: the chase's ring, as --explain builds it */

#define TKS_EX_REP(n, s) ".rept " #n "\n\t" s "\n\t.endr"

/* n dependent imul r64, r64 on x (a chain: 3n cycles of latency on the CPUs we know). */
#define TKS_EX_IMUL_CHAIN(x, n) __asm__ __volatile__(TKS_EX_REP(n, "imul %0, %0") : "+r"(x))

/* Twelve independent mulpd streams, four deep: the FP multipliers' throughput. */
#define TKS_EX_MULPD_STREAMS()                                                                   \
    do {                                                                                         \
        double a, b, c, d, e, f, g, h, i, j, k, l;                                               \
        __asm__ __volatile__(                                                                    \
            "xorpd %0, %0\n\txorpd %1, %1\n\txorpd %2, %2\n\txorpd %3, %3\n\t"                   \
            "xorpd %4, %4\n\txorpd %5, %5\n\txorpd %6, %6\n\txorpd %7, %7\n\t"                   \
            "xorpd %8, %8\n\txorpd %9, %9\n\txorpd %10, %10\n\txorpd %11, %11\n\t"               \
            TKS_EX_REP(4, "mulpd %0, %0\n\tmulpd %1, %1\n\tmulpd %2, %2\n\tmulpd %3, %3\n\t"     \
                          "mulpd %4, %4\n\tmulpd %5, %5\n\tmulpd %6, %6\n\tmulpd %7, %7\n\t"     \
                          "mulpd %8, %8\n\tmulpd %9, %9\n\tmulpd %10, %10\n\tmulpd %11, %11")    \
            : "=&x"(a), "=&x"(b), "=&x"(c), "=&x"(d), "=&x"(e), "=&x"(f), "=&x"(g), "=&x"(h),   \
              "=&x"(i), "=&x"(j), "=&x"(k), "=&x"(l));                                           \
    } while (0)

/* n eight-byte NOPs (nopl 0x12345678(%rax,%rax)): code that no execution port runs. */
#define TKS_EX_NOPS(n)                                                                           \
    __asm__ __volatile__(TKS_EX_REP(n, ".byte 0x0f, 0x1f, 0x84, 0x00, 0x78, 0x56, 0x34, 0x12"))

/* The chase's ring (tks__explain_ring), for a chase whose every step is a load from memory:
 * twice the largest cache this machine declares for CPU 0 (the size in
 * /sys/devices/system/cpu/cpu0/cache/indexN: one instance of each level), so that it is beyond
 * the last-level cache here, whatever that is; at least 64 MiB, twice the 32 MiB a Zen 4 or 5 CCD
 * has (a machine that declares no cache). Read from the machine, never from the code under test. */
static inline size_t tks_ex_chase_bytes(void)
{
    size_t largest = (size_t)32 << 20;
    for (int i = 0; i < 8; i++) {
        char path[80], unit = 0;
        unsigned long n = 0;
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r")))
            continue;
        if (fscanf(f, "%lu%c", &n, &unit) >= 1) {
            size_t bytes = unit == 'K' ? (size_t)n << 10 : unit == 'M' ? (size_t)n << 20 : (size_t)n;
            if (bytes > largest)
                largest = bytes;
        }
        fclose(f);
    }
    return 2 * largest;
}

#endif

#endif
