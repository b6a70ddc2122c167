/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_BENCH_RUNNER_H
#define TKS_BENCH_RUNNER_H

#include "tickscope/bench.h"


#endif
