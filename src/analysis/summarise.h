/* SPDX-License-Identifier: MIT */
/* summarise.h: helpers the analyses share (private to the library): a run of samples summarised
 * per ensemble and across them, the kernel module's section figures. */
#ifndef TKS_ANALYSIS_SUMMARISE_H
#define TKS_ANALYSIS_SUMMARISE_H

#include "stats/sort.h" /* tks__median */
#include "tickscope/analysis.h"

/* Summaries of every ensemble of a run (*ens allocated, free() it) and the figures across them. */
int tks__summarise_run(const tks_sample_run *run, uint64_t quantum, tks_summary **ens,
                      tks_across *a);

/* tks_analysis_common: its defaults, its check, the kernel module's methods (o->kernel_methods,
 * else probed once), and a sampling plan with its placement filled in. */
void tks__analysis_common_init(tks_analysis_common *o);
int tks__analysis_common_check(const tks_analysis_common *o);
int tks__analysis_kernel_methods(const tks_analysis_common *o, uint32_t *methods);
void tks__analysis_plan(const tks_analysis_common *o, enum tks_method m, tks_sample_plan *p);

void tks__kernel_stats_init(tks_kernel_stats *s);
/* Merge what one run's module reported (nothing for user-space runs). */
void tks__kernel_stats_add(tks_kernel_stats *s, const tks_sample_run *run);

#endif
