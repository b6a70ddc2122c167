/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_BENCH_RUNNER_H
#define TKS_BENCH_RUNNER_H

#include "tickscope/bench.h"

/* Append a warning to r (dropped beyond TKS_WARN_MAX). */
void tks__result_warn(tks_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
