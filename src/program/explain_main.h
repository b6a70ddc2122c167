/* SPDX-License-Identifier: MIT */
/* explain_main.h: `--explain`: what limits each selected benchmark (src/runner/explain_bench.c),
 * reported through --explain's writer table. */
#ifndef TKS_PROGRAM_EXPLAIN_MAIN_H
#define TKS_PROGRAM_EXPLAIN_MAIN_H

#include "tickscope/bench.h"

/* One selected benchmark instance. */
typedef struct tks__explain_item {
    const tks_benchmark_spec *spec;
    const tks_args *args;
    const char *name;
} tks__explain_item;

/* The options --explain cannot take with it, as an error line in err: 0, or 2. */
int tks__explain_check(const tks_options *o, char *err, size_t errlen);
/* Explain v[0..n) and write the report on stdout or --out. Returns the exit status: 0, 1 when a
 * benchmark could not be explained (the others are), or when the report could not be written. */
int tks__explain_main(const tks_options *o, const tks_platform *p, const tks__explain_item *v,
                      size_t n, const char *prog);

#endif
