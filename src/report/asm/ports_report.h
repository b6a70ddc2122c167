/* SPDX-License-Identifier: MIT */
/* ports_report.h: `tickscope asm --ports` (port sets from timing) and `tickscope asm --explain`
 * (what limits a snippet) for people and programs. */
#ifndef TKS_REPORT_PORTS_REPORT_H
#define TKS_REPORT_PORTS_REPORT_H

#include "report/common/report.h"
#include "report/common/writers.h"
#include "report/machine/analysis_report.h"
#include "tickscope.h"
#include "tickscope/asm_explain.h"
#include "tickscope/asm_ports.h"

typedef struct tks__ports_doc {
    const tks_ports_result *r;
    const tks_platform *p;
} tks__ports_doc;

/* "A0 A1 A5": the ports of set in domain d, into buf. */
const char *tks__ports_set_name(int domain, uint32_t set, char *buf, size_t size);
/* The status's word ("assigned", "ambiguous", ...). */
const char *tks__ports_status_name(enum tks_ports_status s);

/* "key": v.value and "key_ci": [lo, hi], into the current JSON object. */
void tks__ports_json_interval(tks__json *j, const char *key, tks_asm_interval v);

extern const tks__writers tks__ports_writers;

typedef struct tks__explain_doc {
    const char *code;
    const tks_explain_result *r;
    const tks_platform *p;
} tks__explain_doc;

extern const tks__writers tks__explain_writers;

/* Shared by the snippet's and a benchmark program's --explain (report/bench/bench_explain.c):
 * the class's word; the experiments as a table with figures in cycles a `per` ("copy"); the
 * same as the "evidence" array of the current JSON object. */
const char *tks__explain_class_name(enum tks_explain_class c);
/* What to change when the limit is execution ports or the front end, whatever ran the
 * experiments (a snippet or a benchmark's block); NULL for the other classes, whose advice
 * depends on the experiments. */
const char *tks__explain_advice(enum tks_explain_class cls);
int tks__explain_evidence(FILE *f, const tks_explain_result *r, const char *per);
void tks__explain_evidence_json(tks__json *j, const tks_explain_result *r);
/* How many experiments ran on a core another thread shared (core_shared); the console's note
 * saying so and what it means, after the table (nothing when none). */
size_t tks__explain_shared(const tks_explain_result *r);
void tks__explain_shared_note(FILE *f, const tks_explain_result *r);
/* level_exceeded, level_bytes and knee_bytes where r has them, into the current JSON object. */
void tks__explain_memory_json(tks__json *j, const tks_explain_result *r);

#endif
