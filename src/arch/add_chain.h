/* SPDX-License-Identifier: MIT */
/* add_chain.h: the dependent-add chain, the reference work of every measurement: "add r, r"
 * depends on its own previous result, so it retires one add per core cycle on every modern x86
 * and arm64 core. An add-immediate would be folded at rename on recent Intel cores and run
 * several per cycle; a register operand cannot be.
 *
 * Written once for the library (sample/ensemble.c: n adds inside a window; platform/coreclock.c:
 * the core-clock chain) and the kernel module (kmod/loops.c, through kmod/Kbuild's -I of this
 * folder), so freestanding: the public clock header and this folder only. Each architecture
 * spells its add and its loop branch in ARCH/add_chain.h. */
#ifndef TKS_ARCH_ADD_CHAIN_H
#define TKS_ARCH_ADD_CHAIN_H

#include "tickscope/clock.h"
#include "work_cases.h"

#if defined(TKS_ARCH_X86)
#include "x86/add_chain.h"
#elif defined(TKS_ARCH_ARM64)
#include "arm64/add_chain.h"
#endif

/* nstr adds of operand 1 into operand 0 (both registers), nstr a literal ("17"): the work of an
 * ensemble, between its two readings:
 *   __asm__ __volatile__(TKS_WORK_ASM("17") : "+r"(acc) : "r"(step)); */
#define TKS_WORK_ASM(nstr) ".rept " nstr "\n\t" TKS__ADD("%0", "%1") "\n\t.endr"

/* The core-clock chain: operand 1 (a register, at least 1) blocks of TKS_CHAIN_BLOCK adds of
 * operand 0 to itself. The loop counter is independent of the chain and runs ahead of it, so
 * only the adds set the pace; a block of 64 hides the counter behind them. */
#define TKS_CHAIN_BLOCK 64
#define TKS__CHAIN_STR(x) #x
#define TKS__CHAIN_XSTR(x) TKS__CHAIN_STR(x)
#define TKS_CHAIN_ASM                                                                     \
    "1:\n\t.rept " TKS__CHAIN_XSTR(TKS_CHAIN_BLOCK) "\n\t" TKS__ADD("%0", "%0") "\n\t.endr\n\t"  \
        TKS__LOOP_BACK("%1")

/* t0 = begin, n blocks of the chain on acc, t1 = end; acc and n are unsigned long. First both
 * are put in registers the compiler knows nothing of, so it cannot materialise either between
 * the readings. An architecture short of registers defines its own (x86/add_chain.h, i386). */
#if !defined(TKS__CHAIN_TIMED)
#define TKS__CHAIN_TIMED(acc, n, t0, begin, t1, end)                                      \
    do {                                                                                  \
        __asm__ __volatile__("" : "+r"(acc), "+r"(n));                                    \
        t0 = begin;                                                                       \
        __asm__ __volatile__(TKS_CHAIN_ASM : "+r"(acc), "+r"(n) : : "cc");                \
        t1 = end;                                                                         \
    } while (0)
#endif

#endif
