/* SPDX-License-Identifier: MIT */
/* sys_report.h: `tickscope sys` for people and programs: a table per suite, one JSON document
 * with the context block, Markdown, and the figures (latency curve, call staircase). */
#ifndef TKS_REPORT_SYS_REPORT_H
#define TKS_REPORT_SYS_REPORT_H

#include <stdio.h>

#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope/sys.h"

/* What sys writes: the suites run, the perf bench rows of --versus-perf (rows NULL without
 * it), the machine. Its writer table and CSV are in sys_formats.c. */
typedef struct tks__sys_doc {
    tks_sys_result *const *res;
    size_t n;
    const tks_sys_perf_row *rows;
    size_t n_rows;
    const tks_platform *p;
    int streamed; /* console: the suites are out already (tks__sys_stream); only perf's rows are left */
} tks__sys_doc;
extern const tks__writers tks__sys_writers; /* of a tks__sys_doc */
/* Whether format f is the console's, whose tables may be streamed. */
int tks__sys_streams(enum tks_format f);

/* One suite as a console table, its notes, warnings and (mem) the curve and the levels. */
void tks__report_sys_text(const tks_sys_result *r, FILE *f);
/* ---- the console tables as they are measured (standard output, the console format): the units
 * line at begin; each suite's heading and table header when it starts; each row as the suite
 * hands it out (tks_sys_options.row, with the stream as row_ctx), after the progress line is
 * erased; its notes and curve when it ends. */
typedef struct tks__sys_stream {
    FILE *f;
    tks__table *t;
    int columns;
} tks__sys_stream;
int tks__sys_stream_begin(tks__sys_stream *s, FILE *f, const tks_platform *p);
int tks__sys_stream_suite(tks__sys_stream *s, enum tks_sys_suite suite);
void tks__sys_stream_row(void *ctx, const tks_sys_op *op);
/* r NULL: the suite failed, its table is closed with nothing under it. */
int tks__sys_stream_suite_end(tks__sys_stream *s, const tks_sys_result *r);
/* The same as a Markdown section. */
void tks__report_sys_markdown(const tks_sys_result *r, FILE *f);
/* perf bench beside ours (console, or Markdown when md). */
void tks__report_sys_perf_text(const tks_sys_perf_row *rows, size_t n, int md, FILE *f);
/* The whole `sys --json` document: context, suites[], versus_perf[] (rows may be NULL). 0 or the
 * error of tks__json_finish. */
int tks__report_sys_json(tks_sys_result *const *res, size_t n, const tks_sys_perf_row *rows,
                         size_t n_rows, const tks_platform *p, FILE *f);
/* --plot: memory_latency.{dat,gp} (log working set vs cycles, /sys's levels and the knees
 * marked) and call_staircase.{dat,gp}, for whichever suites are in res. 0 or a TKS_E* code. */
int tks__report_sys_plots(const char *dir, tks_sys_result *const *res, size_t n);

/* One self-contained HTML page (sys_html.c). */
int tks__report_sys_html(const tks__sys_doc *d, FILE *f);

#endif
