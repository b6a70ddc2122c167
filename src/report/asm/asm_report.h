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
    int streamed; /* console: the head and the rows are out already (tks__asm_table_stream) */
} tks__asm_table_doc;
extern const tks__writers tks__asm_cpu_table_writers; /* doc: tks__asm_table_doc */
/* Whether format f is the console's, whose table may be streamed. */
int tks__asm_table_streams(enum tks_format f);
/* ---- the console table as it is measured (standard output, the console format): each entry's
 * row when it is final (tks__asm_table_options.row, with the stream as ctx), after the progress
 * line is erased, in the order they come (what the cache holds first); the lines above the
 * table with the first row; the writer then adds only the line below it (doc.streamed). */
typedef struct tks__asm_table_stream {
    FILE *f;
    tks__table *tt;
    int rc; /* the first failure: nothing more is streamed */
} tks__asm_table_stream;
void tks__asm_table_stream_begin(tks__asm_table_stream *s, FILE *f);
void tks__asm_table_stream_row(void *ctx, const tks__asm_table *t, size_t i);
void tks__asm_table_stream_end(tks__asm_table_stream *s);
extern const tks__writers tks__asm_diff_writers;      /* doc: tks__asm_diff */

#endif
