/* SPDX-License-Identifier: MIT */
/* analysis_report.h: the outputs of the analyses (tickscope/analysis.h) and of the machine's
 * description, as the tickscope command prints them: text, JSON documents and figures. */
#ifndef TKS_REPORT_ANALYSIS_REPORT_H
#define TKS_REPORT_ANALYSIS_REPORT_H

#include <stdio.h>

#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope/analysis.h"

/* ---- where the samples were taken (kernel_report.c) */
/* "user", "kernel-irq-off", "kernel-preempt-off". */
const char *tks__report_where_name(enum tks_where where);
/* One line above the tables: where the samples were taken; nothing for user-space runs.
 * p may be NULL (no microseconds then). */
void tks__report_kernel_line(enum tks_where where, const tks_kernel_stats *s, const tks_platform *p,
                            FILE *f);
/* "where" and, for kernel runs, a "kernel" object. */
void tks__report_kernel_json(enum tks_where where, const tks_kernel_stats *s, const tks_platform *p,
                            tks__json *j);
/* "context": the platform block plus the quantum of the method a result used. */
void tks__report_context_json(tks__json *j, const tks_platform *p, uint64_t quantum);

/* ---- validate (validate_report.c; its writer table and CSV, Markdown in validate_formats.c) */
typedef struct tks__validation_doc {
    const tks_validation *v;
    const tks_platform *p;
} tks__validation_doc;
extern const tks__writers tks__validation_writers; /* of a tks__validation_doc */
/* The methods a report lists: those selected that exist where the samples were taken. */
int tks__report_validation_listed(const tks_validation *v, int m);
void tks__report_validation_text(const tks_validation *v, const tks_platform *p, FILE *f);
/* The whole `validate --json` document; 0 or the error of tks__json_finish. */
int tks__report_validation_json(const tks_validation *v, const tks_platform *p, FILE *f);
/* --plot: a method's figures (minimum and variance per ensemble, histogram of all samples).
 * Sorts run->ticks in place. 0, or a TKS_E* code with errno telling what failed. */
int tks__report_validation_plots(const char *dir, enum tks_method m, const tks_sample_run *run,
                                const tks_summary *ens, uint64_t quantum);

/* ---- resolution (resolution_report.c; writer table, CSV, Markdown in resolution_formats.c);
 * p may be NULL (ticks only) */
typedef struct tks__resolution_doc {
    const tks_resolution_result *r;
    const tks_platform *p;
} tks__resolution_doc;
extern const tks__writers tks__resolution_writers; /* of a tks__resolution_doc */
void tks__report_resolution_summary(const tks_resolution_result *r, const tks_platform *p, FILE *f);
void tks__report_resolution_text(const tks_resolution_result *r, const tks_platform *p, FILE *f);
/* The whole `resolution --json` document (p not NULL); 0 or the error of tks__json_finish. */
int tks__report_resolution_json(const tks_resolution_result *r, const tks_platform *p, FILE *f);
/* --plot: the staircase with the fitted line, and minimum and variance per n. 0, or a TKS_E*
 * code with errno telling what failed. */
int tks__report_resolution_plots(const tks_resolution_result *r, const char *dir);

/* ---- info (info_report.c; writer table, CSV, Markdown in info_formats.c) */
extern const tks__writers tks__info_writers; /* of a tks_platform */
void tks__report_info_text(const tks_platform *p, FILE *f);
/* A few lines for the tour: CPU, rate, quantum, core clock, CPUID and the warnings. */
void tks__report_info_summary(const tks_platform *p, FILE *f);
/* The whole `info --json` document; 0 or the error of tks__json_finish. */
int tks__report_info_json(const tks_platform *p, FILE *f);

/* ---- the tour's closing paragraph (tour_report.c) */
void tks__report_verdict(const tks_validation *v, const tks_resolution_result *r,
                        const tks_platform *p, FILE *f);

#endif
