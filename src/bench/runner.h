/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_BENCH_RUNNER_H
#define TKS_BENCH_RUNNER_H

#include "tickscope/bench.h"

/* The best fenced method this CPU has in user space: lfence, serialize, mfence, rdtscp, isb, with
 * the LFENCE-fenced ones (lfence, mfence, serialize) only where LFENCE is dispatch-serialising;
 * rdtsc or cntvct when nothing fenced exists. Shared by the benchmarks and the regions. */
enum tks_method tks_bench_default_method(void);
/* Append a warning to r (dropped beyond TKS_WARN_MAX). */
void tks_result_warn(tks_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
