/* SPDX-License-Identifier: MIT */
/* window_report.h: what a benchmark's windows hold (`--disasm`), for people and as JSON. */
#ifndef TKS_REPORT_WINDOW_REPORT_H
#define TKS_REPORT_WINDOW_REPORT_H

#include <stdio.h>

#include "asm/window.h"
#include "report/common/writers.h"

/* One benchmark's windows for one method: those found in its function, or why none were. */
typedef struct tks__window_set {
    const char *name;    /* the benchmark */
    const char *symbol;  /* its function */
    const char *method;  /* the method its runs use */
    const tks__window *w;
    size_t n;            /* windows of every method in the function */
    const char *error;   /* NULL, or why the function could not be read */
} tks__window_set;

/* The windows of s's method: its latency window (the longest without a loop) and its
 * throughput window (the one with the k-loop), either NULL. */
void tks__window_pick(const tks__window_set *s, const tks__window **latency,
                      const tks__window **throughput);
/* Warnings about s's windows, one line each, into lines[max][240]; returns how many. */
size_t tks__window_warnings(const tks__window_set *s, char (*lines)[240], size_t max);

void tks__report_windows_text(const tks__window_set *s, size_t n, FILE *f);
int tks__report_windows_json(const tks__window_set *s, size_t n, FILE *f);

/* The library's sampling loops per method (validate, resolution): s[i].method is the method,
 * s[i].symbol its loop function. */
void tks__report_method_windows_text(const tks__window_set *s, size_t n, FILE *f);
int tks__report_method_windows_json(const char *command, const tks__window_set *s, size_t n,
                                    FILE *f);
/* validate --disasm, resolution --disasm: console and JSON (window_methods.c). */
typedef struct tks__method_windows_doc {
    const char *command;
    const tks__window_set *s;
    size_t n;
} tks__method_windows_doc;
extern const tks__writers tks__method_windows_writers; /* of a tks__method_windows_doc */

#endif
