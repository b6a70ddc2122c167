/* SPDX-License-Identifier: MIT */
/* analyse.h: what a run's kept windows say, as a result: its figures (figures.c), the
 * diagnostics a user can act on, the add check, the work counters. The same function reads the
 * windows of a run just taken (runner.c) and of a recorded one (replay.c), so a replay reports
 * what the live run did. */
#ifndef TKS_RUNNER_ANALYSE_H
#define TKS_RUNNER_ANALYSE_H

#include "runner/runner.h"
#include "runner/state.h"

/* What the analysis needs beside the state: the platform's core clock (cycles a tick, 0: none),
 * whether the benchmark was compiled optimised, and a run that makes no figures (a dry run or
 * --explain's working set, whose outcome is in touched). */
typedef struct tks__analyse_in {
    double calibrated;
    int optimized;
    int dry_run;
    const tks__touched *touched;
} tks__analyse_in;

/* r (named, its mode, method and quantum set) from st: counts, figures or the reason there are
 * none, diagnostics; st's windows are handed to r and st released. rc 0 or the run's TKS_E*. */
int tks__run_analyse(tks_result *r, struct tks_state *st, const tks__analyse_in *in);
/* r failed with rc, its error said by fmt; returns rc. */
int tks__run_failed(tks_result *r, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
