/* SPDX-License-Identifier: MIT */
/* figures.h: a run's windows turned into the figures of its tks_result (figures.c). */
#ifndef TKS_RUNNER_FIGURES_H
#define TKS_RUNNER_FIGURES_H

#include "runner/state.h"
#include "tickscope/bench.h"

/* How far the fences' overlap of a block's first and last instructions can differ from their
 * overlap of the adds the gap is measured on, core cycles. Measured as the add gap's error for
 * other chains: on a Zen 4 guest (issue 30) 100 imuls read 2.0 cycles short, 100 FMAs about 2
 * long, 100 crc32 1.8 short, a dozen imuls up to 1.8 short; on a Zen 5 guest (bench_latency's
 * "adds" columns, 10 processes) FMA chains of 12 to 100 read 3.7-4.3 cycles long, add, imul, crc32
 * and load chains within 0.4. Half as much again as the largest: 6. Where the block's own
 * correction cannot be had, the interval holds this much; it is also how far the two corrections
 * may disagree before the block's two copies are taken to overlap (independent work, which twice
 * less once reads short): a block whose copies overlap by less than this reads what one more
 * execution adds after another. */
#define TKS__OVERLAP_CYCLES 6.0

/* Everything r reports from st's windows: estimates, harness gap, loop floor, the stream
 * alongside, core cycles (at the rate measured with the windows, else at calibrated when > 0),
 * and the two modes combined when they agree. *modes: 1 the modes agree (combined), 0 they
 * disagree, -1 nothing to compare. 0, or a TKS_E* code when there is nothing to estimate from. */
int tks__bench_figures(tks_result *r, const struct tks_state *st, double calibrated, int *modes);

#endif
