/* SPDX-License-Identifier: MIT */
/* sample_record.h: runs of samples as a recording's fields (docs/recording.md), for the analyses
 * that record them (validate_record.c, resolution_record.c): a run's windows with the counts the
 * analysis reads, and rounds of two-ensemble runs (an empty window or a short chain beside a
 * longer one) stored ensemble by ensemble, each ensemble's windows of every round together,
 * which packs them smaller than round by round. */
#ifndef TKS_ANALYSIS_SAMPLE_RECORD_H
#define TKS_ANALYSIS_SAMPLE_RECORD_H

#include "base/record_codec.h"
#include "tickscope/sample.h"

/* The run's ensembles, samples, budget_limited, discarded_migrated, discarded_negative, seconds
 * and ticks. */
void tks__rec_put_sample_run(tks__rec_buf *b, const tks_sample_run *run);
/* f into run (zeroed first by the caller; ticks malloc'd): 1 when it is one of the run's fields,
 * 0 when not, -1 when damaged (ticks not ensembles x samples of them, or counts out of range). */
int tks__rec_get_sample_run(const tks__rec_field *f, tks_sample_run *run);
/* The run read whole: 0, or -1 (no ticks). */
int tks__rec_sample_run_done(const tks_sample_run *run);

/* n two-ensemble runs as NAME_samples (each round's samples), NAME_first and NAME_second. */
void tks__rec_put_pairs(tks__rec_buf *b, const char *name, const tks_sample_run *runs, size_t n);
/* Reading them: feed every field of the section to tks__rec_pairs_field (1 when it was one of
 * NAME's, -1 when damaged), then tks__rec_pairs_end, which makes up to max runs (ticks malloc'd,
 * kernel_cpu -1) and says how many in *n: 0, or -1 when the three do not agree. */
typedef struct tks__rec_pairs {
    const char *name;
    uint64_t *samples, *first, *second;
    size_t n_samples, n_first, n_second;
} tks__rec_pairs;
void tks__rec_pairs_begin(tks__rec_pairs *p, const char *name);
int tks__rec_pairs_field(tks__rec_pairs *p, const tks__rec_field *f);
int tks__rec_pairs_end(tks__rec_pairs *p, tks_sample_run *runs, size_t max, uint32_t *n);

#endif
