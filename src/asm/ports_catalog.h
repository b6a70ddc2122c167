/* SPDX-License-Identifier: MIT */
/* ports_catalog.h: the forms `tickscope asm --ports --table` gives tks_ports_infer: the register
 * forms of the catalogue (catalog.h) the CPU at hand has, written as one instruction with a
 * placeholder destination ({r}, {x}, {y}: a register of its own in each copy) and fixed sources
 * the copies only read; those the cached table of this CPU (cpu_table.h) already shows are not
 * single-uop are left out before any mix is measured, and put back into the result as such. */
#ifndef TKS_ASM_PORTS_CATALOG_H
#define TKS_ASM_PORTS_CATALOG_H

#include <stddef.h>

#include "asm/catalog.h"
#include "tickscope/asm_ports.h"

typedef struct tks__ports_catalog {
    tks_asm_row *rows;       /* the forms to measure, named as the catalogue names them */
    size_t n;
    tks_ports_form *cached;  /* forms the cached table reads as not single-uop (status so) */
    size_t n_cached;
    size_t matched;          /* forms of the catalogue on this CPU whose name holds `only` */
    size_t memory;           /* of them, left out: a memory operand */
    size_t unwritable;       /* left out: a destination no placeholder names (8/16/32-bit, zmm,
                              * mask), a write mask, or chained through the flags (adc) */
    char cache_path[512];    /* the cached table read ("": none) */
} tks__ports_catalog;

/* The placeholder text of form f for --ports into code: 0, or -1 when the form has none (see
 * tks__ports_catalog.memory and .unwritable). */
int tks__ports_form_code(const tks__asm_form *f, char *code, size_t size);

/* The forms of the catalogue the CPU has whose name holds only (NULL: all); cache_dir as
 * tks__asm_table_options's (NULL: the default, "": none). 0, or TKS_ENOMEM. */
int tks__ports_catalog_build(const char *only, const char *cache_dir, tks__ports_catalog *pc);
void tks__ports_catalog_free(tks__ports_catalog *pc);

/* Append pc's cached forms to r's forms (after tks_ports_infer): TKS_ENOMEM or 0. */
int tks__ports_catalog_merge(const tks__ports_catalog *pc, tks_ports_result *r);

/* The snippets tks_ports_infer runs for n forms beside nb blockers, at most (each form alone,
 * every pair of blockers, every form with every blocker: three runs a pair). */
size_t tks__ports_snippets(size_t n, size_t nb);

#endif
