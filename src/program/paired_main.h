/* SPDX-License-Identifier: MIT */
/* paired_main.h: tks_main's --compare A,B front end (paired_main.c), which main.c hands over to. */
#ifndef TKS_PROGRAM_PAIRED_MAIN_H
#define TKS_PROGRAM_PAIRED_MAIN_H

#include "tickscope/paired.h"

/* Resolve o->compare, measure, report as o says. Returns the exit status: 0; 1 when a run
 * failed; 2 for a pair that does not name two benchmarks. Prints. */
int tks__paired_main(const tks_options *o, const char *prog);

#endif
