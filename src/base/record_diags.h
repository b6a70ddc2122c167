/* SPDX-License-Identifier: MIT */
/* record_diags.h: a list of diagnostics as fields of a recording's section (docs/recording.md):
 * each diagnostic a field NAME holding its stable id, then one field NAME# (a number) or NAME$ (a
 * name) per value, in order. */
#ifndef TKS_BASE_RECORD_DIAGS_H
#define TKS_BASE_RECORD_DIAGS_H

#include "base/record_codec.h"
#include "tickscope/diag.h"

void tks__rec_put_diags(tks__rec_buf *b, const char *name, const tks_diags *d);

/* Reading them back: feed every field of the section to tks__rec_diags_field (1 when it was one
 * of NAME's), then tks__rec_diags_end. A diagnostic of an unknown id, or with values other than
 * its code's, is left out (a later tickscope's code, or damage). */
typedef struct tks__rec_diags_reader {
    const char *name;
    tks_diags *into;
    int code; /* -1: none pending */
    size_t n;
    tks_diag_value v[TKS_DIAG_VALUES_MAX];
    char str[TKS_DIAG_VALUES_MAX][128];
} tks__rec_diags_reader;

void tks__rec_diags_begin(tks__rec_diags_reader *r, const char *name, tks_diags *into);
int tks__rec_diags_field(tks__rec_diags_reader *r, const tks__rec_field *f);
void tks__rec_diags_end(tks__rec_diags_reader *r);

#endif
