/* SPDX-License-Identifier: MIT */
/* paired_report.h: a paired comparison (tks_main --compare A,B) for people (console, Markdown)
 * and programs (JSON). */
#ifndef TKS_REPORT_PAIRED_H
#define TKS_REPORT_PAIRED_H

#include <stdio.h>

#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope/paired.h"

/* o says how the runs measured (the mode), for the heading. 0 or TKS_EIO. */
int tks__paired_console(FILE *f, const tks_paired_result *r, const tks_options *o);
int tks__paired_markdown(FILE *f, const tks_paired_result *r, const tks_options *o);
int tks__paired_json(FILE *f, const tks_paired_result *r, const tks_options *o,
                     const tks_platform *p, const char *prog);

/* What a paired comparison writes; its writer table and CSV are in paired_formats.c. */
typedef struct tks__paired_doc {
    const tks_paired_result *r;
    const tks_options *o;
    const tks_platform *p;
    const char *prog;
} tks__paired_doc;
extern const tks__writers tks__paired_writers; /* of a tks__paired_doc */

#endif
