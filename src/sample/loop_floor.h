/* SPDX-License-Identifier: MIT */
/* loop_floor.h: windows around throughput mode's repetition loop with nothing in it, so the
 * runner can say when a block reads at the loop's own cost (and only then). */
#ifndef TKS_LOOP_FLOOR_H
#define TKS_LOOP_FLOOR_H

#include "tickscope.h"

/* out[0..samples): windows of k (>= 1) empty repetitions; windows that went backwards are
 * retaken (TKS_EDISCARD past 10 * samples + 1000 of them). */
typedef int (*tks__loop_floor_fn)(uint64_t *out, uint32_t samples, uint32_t k);

/* NULL when the method cannot be compiled into user space on this architecture. */
tks__loop_floor_fn tks__loop_floor_for(enum tks_method m);

#endif
