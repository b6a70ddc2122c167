/* SPDX-License-Identifier: MIT */
/* ensemble.h: one ensemble of samples for one method, instantiated per method and per amount of
 * work so that nothing but the clock reads and the work sits between the two readings. */
#ifndef TKS_ENSEMBLE_H
#define TKS_ENSEMBLE_H

#include "tickscope.h"

struct tks__ensemble_counts {
    uint64_t migrated;
    uint64_t negative;
};

/* What every call takes besides the samples it returns: the warm-up's begin/end pairs and the
 * first sample, taken and dropped (for those who count a call's windows or time). */
#define TKS_ENSEMBLE_WARMUP 3u
#define TKS_ENSEMBLE_EXTRA (TKS_ENSEMBLE_WARMUP + 1u)

/* Warm up (TKS_ENSEMBLE_WARMUP begin/end pairs), take and drop one sample, then fill
 * out[0..samples).
 * Samples that migrated CPU (check_aux) or went backwards are retaken and counted;
 * TKS_EDISCARD when more than 10 * samples + 1000 had to be retaken. */
typedef int (*tks__ensemble_fn)(uint64_t *out, uint32_t samples, uint32_t work, int check_aux,
                               struct tks__ensemble_counts *counts);

/* NULL when the method cannot be compiled into user space on this architecture. */
tks__ensemble_fn tks__ensemble_for(enum tks_method m);

#endif
