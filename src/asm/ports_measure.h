/* SPDX-License-Identifier: MIT */
/* ports_measure.h: how `asm --ports` measures a snippet (independent runs until two agree,
 * remembered by text) and the machine's width (ports_measure.c). */
#ifndef TKS_PORTS_MEASURE_H
#define TKS_PORTS_MEASURE_H

#include <stddef.h>

#include "tickscope/asm_ports.h"

typedef struct tks__ports_measured {
    char *text;
    unsigned char *code;       /* its bytes, assembled and checked (NULL: not yet) */
    size_t len;
    int measured;              /* v and rc hold its figure */
    tks_asm_interval v;
    int rc;
} tks__ports_measured;

typedef struct tks__ports_ctx {
    const tks_asm_options *base;
    tks_ports_result *r;
    tks__ports_measured *memo;
    size_t n_memo, cap_memo;
    tks_ports_progress progress;
    void *progress_arg;
    size_t total;
    char error[TKS_ASM_ERROR_LEN];
} tks__ports_ctx;

/* Assemble texts[0..n) in one run of the assembler (those not yet assembled), so that their
 * measurements need none: the copies of each are checked (objdump) unless bit i of unchecked
 * is set (a mix: its lines are those of its parts, checked alone). A text the batch cannot
 * assemble is left to tks__ports_measure. 0 or TKS_ENOMEM. */
int tks__ports_prepare(tks__ports_ctx *c, const char *const *texts, size_t n, unsigned unchecked);

/* Core cycles per loop copy of text (throughput mode, no placeholders left): measured once and
 * remembered, unless fresh (then measured anew: the moment matters; its bytes are reused).
 * 0, TKS_ENOMEM, or the run's error (c->error says why; *out NAN). */
int tks__ports_measure(tks__ports_ctx *c, const char *text, const char *what, int fresh,
                       tks_asm_interval *out);

/* The machine's width into c->r->width: instructions a cycle of bodies of forms on disjoint
 * units (ALU, vector ALU, NOP), the fastest with its interval (NAN when none ran); and into
 * c->r->width_memory, the same of bodies half loads. */
int tks__ports_width(tks__ports_ctx *c);

/* The width now: the NOP body measured anew, in instructions a cycle (NAN when it failed);
 * it also raises c->r->width when faster. Another thread on the same core (an SMT sibling: a
 * VM's vCPUs often are) takes a share of the width for as long as it runs. */
int tks__ports_width_now(tks__ports_ctx *c, tks_asm_interval *rate);

#endif
