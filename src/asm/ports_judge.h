/* SPDX-License-Identifier: MIT */
/* ports_judge.h: what the judge of the mixes (ports_judge.c) shares with the choice of mixes
 * (ports_prune.c). */
#ifndef TKS_ASM_PORTS_JUDGE_H
#define TKS_ASM_PORTS_JUDGE_H

#include "tickscope/asm_ports.h"

/* The width a mix of codes a and b runs at, from w (the machine's): less where either has a
 * memory operand (r->width_memory, when measured and less). */
double tks__ports_mix_width(const tks_ports_result *r, const char *a, const char *b, double w);

#endif
