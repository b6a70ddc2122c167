/* SPDX-License-Identifier: MIT */
/* gbflags.h: Google Benchmark's command-line flags, mapped onto the runner's options. */
#ifndef TKS_PROGRAM_GBFLAGS_H
#define TKS_PROGRAM_GBFLAGS_H

#include <stddef.h>

#include "tickscope/bench.h"

/* argv[*i] as one of Google Benchmark's flags (its value may take argv[*i + 1], and *i moves past
 * it): 0 when understood, 2 when wrong (a one-line reason in err), -1 when not one of them. */
int tks__bench_gb_flag(tks_options *o, int argc, char **argv, int *i, char *err, size_t errlen);

/* --benchmark_enable_random_interleaving without --random-seed: a seed drawn now (the reports
 * name it), so that the order can be repeated. */
void tks__bench_gb_seed(tks_options *o);
/* The instance (0..n-1) of each of the n * repetitions runs, in the order they run: each
 * instance's repetitions one after the other, in registration order; or, with random
 * interleaving, every run of every instance shuffled into one order from the seed, as Google
 * Benchmark 1.7 shuffles its repetition indices. NULL when memory ran out (free() it). */
size_t *tks__bench_run_order(const tks_options *o, size_t n);

#endif
