/* SPDX-License-Identifier: MIT */
/* figures.h: a run's windows turned into the figures of its tks_result (figures.c). */
#ifndef TKS_RUNNER_FIGURES_H
#define TKS_RUNNER_FIGURES_H

#include "runner/state.h"
#include "tickscope/bench.h"

/* Everything r reports from st's windows: estimates, harness gap, loop floor, the stream
 * alongside, core cycles (at the rate measured with the windows, else at calibrated when > 0),
 * and the two modes combined when they agree. *modes: 1 the modes agree (combined), 0 they
 * disagree, -1 nothing to compare. 0, or a TKS_E* code when there is nothing to estimate from. */
int tks__bench_figures(tks_result *r, const struct tks_state *st, double calibrated, int *modes);

#endif
