/* SPDX-License-Identifier: MIT */
/* resolution.h: `tickscope resolution` in two steps (private to the library): its samples taken
 * (resolution.c), and what the analysis makes of them (resolution_analyse.c). The live run calls
 * both; a replay (resolution_record.c) reads the samples from a recording and calls only the
 * second, so its report is the live run's. */
#ifndef TKS_ANALYSIS_RESOLUTION_H
#define TKS_ANALYSIS_RESOLUTION_H

#include "base/record_file.h"
#include "tickscope/analysis.h"

#define TKS__RES_LONG_ROUNDS 3
/* The long chain: TKS_WORK_MAX adds against a quarter of them (resolution_analyse.c says why). */
#define TKS__RES_SHORT_CHAIN (TKS_WORK_MAX / 4)

/* Everything the analysis reads beyond the result's method, quantum, where and max_work. */
typedef struct tks__resolution_samples {
    tks_sample_run run;    /* ensemble n holds n adds, n = 0..max_work, rounds merged */
    uint32_t long_rounds;  /* TKS__RES_LONG_ROUNDS */
    tks_sample_run longs[TKS__RES_LONG_ROUNDS]; /* ensemble 0 the short chain, 1 the long */
} tks__resolution_samples;

void tks__resolution_samples_free(tks__resolution_samples *s);

/* The method a short validation chose (its recommendation, else the method its quantum was read
 * through), why, and its quantum, into r. */
void tks__resolution_method_of(const tks_validation *v, tks_resolution_result *r);

/* r's figures from s (r's method, quantum, where and max_work set; npoints = max_work + 1 and
 * the points made here). hooks->on_samples (hooks may be NULL) hears of the merged run and may
 * reorder its ticks. 0 or a TKS_E* code. */
int tks__resolution_analyse(tks_resolution_result *r, const tks__resolution_samples *s,
                            const tks_analysis_common *hooks);

/* tks_resolution_run, recording to sink (NULL: not recorded): the short validation that chooses
 * the method (without --method: validate's sections), then the test's section. */
int tks__resolution_run_recorded(const tks_resolution_options *o, const tks__rec_sink *sink,
                                 tks_resolution_result **out);

/* The section (resolution_record.c): body holds r's facts and s when the samples are taken;
 * the time the run took is added and the section written once it is analysed. */
void tks__resolution_record_samples(tks__rec_buf *body, const tks_resolution_result *r,
                                    const tks__resolution_samples *s);
int tks__resolution_record_end(const tks__rec_sink *sink, tks__rec_buf *body,
                               const tks_resolution_result *r);

/* A resolution recording read back and analysed again: p the recorded machine (free it with
 * tks_platform_free), *r as tks_resolution_run gives it, its method_reason in reason (which
 * must outlive it). 0, or TKS_EINVAL with the one-line why in err. */
int tks__resolution_replay(const unsigned char *b, size_t n, tks_platform *p,
                           tks_resolution_result **r, char *reason, size_t reason_size,
                           char *err, size_t errlen);

#endif
