/* SPDX-License-Identifier: MIT */
/* asm_record.h: `tickscope asm CODE --record FILE` and its replay (docs/recording.md): one
 * section ('A') with the request (the snippet, its init, chain, syntax, mode, chase, alignment),
 * what the run had before its windows were fitted (the unrolls, the copy's size, the loop's
 * disassembly, the notes), the windows of the snippet and of the add-chain reference, the
 * child's add check and the quantum; read back, the windows go to the fit the live run called. */
#ifndef TKS_ASM_ASM_RECORD_H
#define TKS_ASM_ASM_RECORD_H

#include "asm/asm_internal.h"
#include "base/record_file.h"
#include "tickscope/platform.h"

/* tks_asm_run, recording to sink (NULL: not recorded; user space only: with o->where another,
 * TKS_EINVAL). */
int tks__asm_run_recorded(const tks_asm_options *o, const tks__rec_sink *sink, tks_asm_result *r);
/* The section through sink, before the windows are fitted: 0, or an errno. */
int tks__asm_record(const tks__rec_sink *sink, const tks_asm_options *o, const tks_asm_result *r,
                    const tks__asm_windows *w, uint64_t quantum);

/* A recording of one snippet read back and fitted again. */
typedef struct tks__asm_replayed {
    tks_platform p;
    tks_asm_result r;
    char *code, *init, *chain; /* malloc'd; init and chain NULL when none */
    int syntax, mode, where;
    uint64_t chase_bytes;
    uint32_t align;
} tks__asm_replayed;
/* 0, or TKS_EINVAL with the one-line why in err (x then holds nothing to free). */
int tks__asm_replay(const unsigned char *b, size_t n, tks__asm_replayed *x, char *err,
                    size_t errlen);
void tks__asm_replayed_free(tks__asm_replayed *x);

#endif
