/* SPDX-License-Identifier: MIT */
/* adds_asm.h: TKS_TEST_ADDS(N), N dependent register adds as an asm template for the test
 * benchmark programs ("+r"(x) : "r"(y)): two-operand on x86, three-operand on arm64. */
#ifndef TKS_TEST_ADDS_ASM_H
#define TKS_TEST_ADDS_ASM_H

#if defined(__x86_64__) || defined(__i386__)
#define TKS_TEST_ADDS(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"
#else
#define TKS_TEST_ADDS(n) ".rept " #n "\n\tadd %0, %0, %1\n\t.endr"
#endif

#endif
