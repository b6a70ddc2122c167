/* SPDX-License-Identifier: MIT */
/* asm_regs.h: the registers an Intel-syntax body names (asm_regs.c). */
#ifndef TKS_ASM_REGS_H
#define TKS_ASM_REGS_H

#include <stdint.h>

/* Bit id set for each register named: 0..15 rax..r15 (any width), 16 + n for xmm/ymm/zmm n;
 * width[n] the widest vector n is named at (128, 256, 512; 0: not named). */
typedef struct tks__asm_regset {
    uint64_t named;
    int width[32];
} tks__asm_regset;

void tks__asm_regs_named(const char *code, tks__asm_regset *s);
/* "rax" for 0, ... "r15" for 15. */
const char *tks__asm_gpr_name(int id);

#endif
