/* SPDX-License-Identifier: MIT */
/* explain_exp.h: one experiment appended to an explanation, and the classification with or
 * without the NOPs, for the snippet's (asm/explain.c) and a benchmark's
 * (runner/explain_bench.c). */
#ifndef TKS_ASM_EXPLAIN_EXP_H
#define TKS_ASM_EXPLAIN_EXP_H

#include "tickscope/asm_explain.h"

/* The next of r->exp[], zeroed, of kind k, named, with what was added to each copy ("" for
 * none); its figures NaN until measured. NULL when r already holds TKS_EXPLAIN_MAX. */
tks_explain_experiment *tks__explain_add(tks_explain_result *r, enum tks_explain_kind k,
                                         const char *name, const char *added);

/* tks_explain_classify, with nops 0: the NOPs' rows are not read (their competing does not make
 * the class the front end), every other row as tks_explain_classify reads it. */
void tks__explain_classify_with(tks_explain_result *r, int nops);

#endif
