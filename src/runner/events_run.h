/* SPDX-License-Identifier: MIT */
/* events_run.h: event counters in a benchmark run: opened before the body, read at the two ends
 * of every main batch (outside its windows), the same batch taken again with an empty block for
 * the harness's share, and the figures and refusals put in the result. */
#ifndef TKS_RUNNER_EVENTS_RUN_H
#define TKS_RUNNER_EVENTS_RUN_H

#include "runner/state.h"

/* Open o->counters for the calling thread into st->events (nothing when o->counters is NULL).
 * 0 or TKS_ENOMEM / TKS_EINVAL (a bad list: err says why). */
int tks__run_events_open(struct tks_state *st, const tks_options *o, char *err, size_t errlen);
/* The reads around a batch (state.c: the last thing before it, the first thing after it). */
void tks__run_events_batch_begin(struct tks_state *st);
void tks__run_events_batch_end(struct tks_state *st);
/* After a main batch: the same n pairs and k with an empty block, counted the same way. */
void tks__run_events_harness(struct tks_state *st);
/* The figures and the refusals into r (r->events, r->diags); closes and frees st->events. */
void tks__run_events_finish(struct tks_state *st, tks_result *r);

/* An empty-block batch of b's kernel, n pairs and k (event_harness.c, compiled like a user's
 * optimised benchmark). */
void tks__run_events_empty_batch(tks__batch *b);

#endif
