/* SPDX-License-Identifier: MIT */
/* twice.h: latency mode's two-length correction. Windows holding the block once and twice back
 * to back see the same fences around the same first and last instructions, so twice less once is
 * the block's cost with the fences' overlap cancelled, whatever the instructions are; it holds
 * exactly when one copy cannot start before the other ends (a dependent chain carried from one
 * execution to the next), and reads short by however much two copies overlap otherwise. The
 * choice between it and the add chain's harness gap is made here. Pure functions. */
#ifndef TKS_STATS_TWICE_H
#define TKS_STATS_TWICE_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/stats.h"

/* The phase-averaged mean of twice[i] less that of once[i], i < n (n >= 2), ticks, with its 95%
 * interval (the two means' intervals in quadrature). scratch holds n values. 0 or TKS_E*. */
int tks__estimate_twice(const uint64_t *once, const uint64_t *twice, size_t n, uint64_t quantum,
                        uint64_t *scratch, tks_interval *cost);

/* The latency figure from the two corrections: twice (the two-length difference, NaN when not
 * measured) and adds (the windows less the empty window less the add chain's gap). overlap is how
 * far the fences' overlap of other instructions can differ from the adds' (ticks, >= 0). When
 * twice is finite and within adds' interval plus overlap, *out is twice and the result is 1 (the
 * block's own correction); otherwise *out is adds with overlap added to its interval in
 * quadrature (the correction is not known to better) and the result is 0. */
int tks__twice_choose(const tks_interval *twice, const tks_interval *adds, double overlap,
                      tks_interval *out);

#endif
