/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_BENCH_RUNNER_H
#define TKS_BENCH_RUNNER_H

#include "tickscope/bench.h"

/* The method benchmarks and regions use when none is named: tks_method_default's. */
enum tks_method tks_bench_default_method(void);
/* Append a warning to r (dropped beyond TKS_WARN_MAX). */
void tks_result_warn(tks_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
