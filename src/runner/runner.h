/* SPDX-License-Identifier: MIT */
/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_RUNNER_RUNNER_H
#define TKS_RUNNER_RUNNER_H

#include "tickscope/bench.h"

struct tks_state;
/* r's name, family and arguments for spec run with args (NULL: none), as Google Benchmark names
 * a run ("bm_x/size:64/stride:8"). */
void tks__result_name(tks_result *r, const tks_benchmark_spec *spec, const tks_args *args);
/* work_counters.c: the counters st's body set, into r with their figures (after r's figures;
 * NaN when the run failed). */
void tks__work_counters_figures(tks_result *r, const struct tks_state *st);
/* paired.c: tks_paired_run with every argument of each side. */
struct tks_paired_options;
struct tks_paired_result;
int tks__paired_run_args(const tks_options *o, const tks_platform *p,
                         const struct tks_paired_options *po, const tks_benchmark_spec *a,
                         const tks_args *arg_a, const tks_benchmark_spec *b,
                         const tks_args *arg_b, struct tks_paired_result *r);


#endif
