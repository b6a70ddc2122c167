/* SPDX-License-Identifier: MIT */
/* validate.h: `tickscope validate` in two steps (private to the library): the samples of each
 * method taken (validate.c), and what the analysis makes of them (validate_analyse.c). The live
 * run calls both, method by method; a replay (validate_record.c) reads the samples from a
 * recording and calls only the second, so its report is the live run's. */
#ifndef TKS_ANALYSIS_VALIDATE_H
#define TKS_ANALYSIS_VALIDATE_H

#include "base/record_file.h"
#include "tickscope/analysis.h"

/* Everything the analysis reads of one method. */
typedef struct tks__validate_samples {
    enum tks_method m;
    int selected, available;
    const char *ineligible_reason;  /* tks_method_ineligible_reason on the measured CPU */
    int rc;                         /* the empty window's sampling failed: why */
    tks_sample_run run;             /* the empty windows (rc 0) */
    int chain_rc;                   /* a round of the chain failed: why (its earlier rounds kept) */
    uint32_t chain_rounds;          /* rounds taken, up to TKS_VALIDATE_CHAIN_ROUNDS */
    tks_sample_run chain[TKS_VALIDATE_CHAIN_ROUNDS]; /* ensemble 0 empty, 1 the chain */
} tks__validate_samples;

void tks__validate_samples_free(tks__validate_samples *s);

/* The validation's facts before any method is analysed: where, the chain asked for, the
 * quantum and the method it was read through (v from calloc, recommended and reference -1). */
tks_validation *tks__validation_new(enum tks_where where, int chain);

/* One method's figures from its samples into v->methods[s->m]. on_samples (may be NULL) hears
 * of the empty windows as the live run's hook did; it may reorder s->run.ticks. 0, or a code that
 * stops the whole validation (memory, the hook's, TKS_EIO); a method failing alone is its rc. */
int tks__validate_analyse(tks_validation *v, const tks__validate_samples *s,
                          const tks_analysis_common *hooks);
/* The recommendation and the chain's reference, once every method is analysed. */
void tks__validate_conclude(tks_validation *v);

/* tks_validate_run, recording to sink (NULL: not recorded): a method section as each method is
 * sampled, then the validation's section. */
int tks__validate_run_recorded(const tks_validate_options *o, const tks__rec_sink *sink,
                               tks_validation **out);

/* The sections (validate_record.c). Each returns 0, or an errno when sink's write failed. */
int tks__validate_record_method(const tks__rec_sink *sink, const tks__validate_samples *s);
int tks__validate_record_end(const tks__rec_sink *sink, const tks_validate_options *o,
                             const tks_validation *v, uint32_t n_methods);

/* A validate recording read back and analysed again: p the recorded machine (free it with
 * tks_platform_free), *v as tks_validate_run gives it. 0, or TKS_EINVAL with the one-line why in
 * err (not a recording, a later format, damaged, incomplete). */
int tks__validate_replay(const unsigned char *b, size_t n, tks_platform *p, tks_validation **v,
                         char *err, size_t errlen);

#endif
