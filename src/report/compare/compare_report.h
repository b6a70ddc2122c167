/* SPDX-License-Identifier: MIT */
/* compare_report.h: `tickscope compare`'s findings (and the paired comparison of tks_main
 * --compare) for people (a console table, Markdown for a pull-request comment) and programs (JSON). */
#ifndef TKS_REPORT_COMPARE_H
#define TKS_REPORT_COMPARE_H

#include <stdio.h>

#include "analysis/compare.h"
#include "report/common/report.h"
#include "report/common/writers.h"

/* old_name and new_name label the two files (their paths). 0 or TKS_EIO. */
int tks__cmp_console(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name);
int tks__cmp_markdown(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name);
int tks__cmp_json(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name);
/* One self-contained HTML page (compare_html.c). */
int tks__cmp_html(FILE *f, const tks__cmp_result *r, const char *old_name, const char *new_name);

/* issue 26: the work counters both files have (compare_work.c): a table after the times'
 * (nothing when there are none), and each row's "counters" array in the JSON. */
int tks__cmp_counters_console(FILE *f, const tks__cmp_result *r);
void tks__cmp_counters_markdown(FILE *f, const tks__cmp_result *r);
void tks__cmp_counters_json(tks__json *j, const tks__cmp_row *w);

/* What compare writes; its writer table and CSV are in compare_formats.c. */
typedef struct tks__compare_doc {
    const tks__cmp_result *r;
    const char *old_name, *new_name;
} tks__compare_doc;
extern const tks__writers tks__compare_writers; /* of a tks__compare_doc */

#endif
