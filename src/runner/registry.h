/* SPDX-License-Identifier: MIT */
/* registry.h: the benchmarks registered in this program, in registration order, and the
 * failures of registration macros (constructors cannot return them), for tks_main to report. */
#ifndef TKS_RUNNER_REGISTRY_H
#define TKS_RUNNER_REGISTRY_H

#include "tickscope/bench.h"

#define TKS_BENCHMARKS_MAX 1024

size_t tks__registry_count(void);
const tks_benchmark_spec *tks__registry_get(size_t i);
/* The first registration failure ("" if none). */
const char *tks__registry_error(void);
/* Forget everything (tests). */
void tks__registry_clear(void);

#endif
