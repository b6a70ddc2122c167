/* SPDX-License-Identifier: MIT */
/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_RUNNER_RUNNER_H
#define TKS_RUNNER_RUNNER_H

#include "tickscope/bench.h"


#endif
