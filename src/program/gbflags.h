/* SPDX-License-Identifier: MIT */
/* gbflags.h: Google Benchmark's command-line flags, mapped onto the runner's options. */
#ifndef TKS_PROGRAM_GBFLAGS_H
#define TKS_PROGRAM_GBFLAGS_H

#include <stddef.h>

#include "tickscope/bench.h"

/* argv[*i] as one of Google Benchmark's flags (its value may take argv[*i + 1], and *i moves past
 * it): 0 when understood, 2 when wrong (a one-line reason in err), -1 when not one of them. */
int tks__bench_gb_flag(tks_options *o, int argc, char **argv, int *i, char *err, size_t errlen);

#endif
