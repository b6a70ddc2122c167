/* SPDX-License-Identifier: MIT */
/* asm_report.h: `tickscope asm` results for people and programs: one snippet (console, JSON) and
 * tables of snippets (console, Markdown, CSV, JSON). */
#ifndef TKS_REPORT_ASM_REPORT_H
#define TKS_REPORT_ASM_REPORT_H

#include <stdio.h>

#include "asm/cpu_table.h"
#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope.h"

/* What was asked for, as the report shows it. */
typedef struct tks__asm_request {
    const char *name;   /* table rows; NULL for a single snippet */
    const char *code;
    const char *init;   /* NULL or "" for none */
    const char *chain;  /* NULL for the default */
    enum tks_asm_syntax syntax;
    enum tks_asm_mode mode;
    uint64_t chase_bytes;
    uint32_t align;
    enum tks_where where; /* TKS_WHERE_USER, or the kernel module's ownership of the CPU */
} tks__asm_request;

void tks__report_asm_text(const tks__asm_request *q, const tks_asm_result *r,
                          const tks_platform *p, FILE *f);
int tks__report_asm_json(const tks__asm_request *q, const tks_asm_result *r,
                         const tks_platform *p, FILE *f);
/* Opens an asm document's object: "command" and, with p, the machine's context. */
void tks__report_asm_json_begin(tks__json *j, const tks_platform *p, FILE *f);
/* The members of one snippet's result into the current JSON object (both writers use it). */
void tks__report_asm_members(tks__json *j, const tks__asm_request *q, const tks_asm_result *r);
/* What asm writes: n snippets, rc[i] row i's tks_asm_run status (r[i].error says why when not
 * 0); p the machine. */
typedef struct tks__asm_doc {
    const tks__asm_request *q;
    const tks_asm_result *r;
    const int *rc;
    size_t n;
    const tks_platform *p;
} tks__asm_doc;
/* asm_table.c: a --table of snippets, and one snippet (n = 1, rc[0] = 0). */
extern const tks__writers tks__asm_table_writers;
extern const tks__writers tks__asm_writers;

/* cpu_table_report.c: the CPU's instruction table (asm --table without a file) and --diff. */
typedef struct tks__asm_table_doc {
    const tks__asm_table *t;
    const tks_platform *p;
} tks__asm_table_doc;
extern const tks__writers tks__asm_cpu_table_writers; /* doc: tks__asm_table_doc */
extern const tks__writers tks__asm_diff_writers;      /* doc: tks__asm_diff */

#endif
