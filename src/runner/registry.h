/* SPDX-License-Identifier: MIT */
/* registry.h: the benchmarks registered in this program, in registration order, each with its
 * runs (one per argument tuple, from its steps: arg_steps.c), and the failures of registration
 * macros (constructors cannot return them), for tks_main to report. */
#ifndef TKS_RUNNER_REGISTRY_H
#define TKS_RUNNER_REGISTRY_H

#include "tickscope/bench.h"

#define TKS_BENCHMARKS_MAX 1024

/* One registered benchmark and its runs. */
typedef struct tks__family {
    tks_benchmark_spec spec;
    size_t arity;                      /* arguments a run (0: one run without any) */
    size_t runs;                       /* at least 1 */
    long long *values;                 /* runs * arity, owned */
    const char *names[TKS_ARITY_MAX];  /* the arguments' names (NULL or "": none) */
    size_t n_names;
} tks__family;

size_t tks__registry_count(void);
const tks_benchmark_spec *tks__registry_get(size_t i);
/* Benchmark f's runs, and run i's arguments and name ("bm_x/size:64/stride:8"). */
size_t tks__registry_runs(size_t f);
void tks__registry_run(size_t f, size_t i, tks_args *args, char *name, size_t size);
/* The first registration failure ("" if none). */
const char *tks__registry_error(void);
/* Forget everything (tests). */
void tks__registry_clear(void);

/* A run's name as Google Benchmark 1.7 writes it: the family, then "/" and each argument,
 * "name:" before it when it has a name. 0, or TKS_ERANGE when it does not fit in size. */
int tks__args_name(char *buf, size_t size, const char *family, const tks_args *args);
/* arg_steps.c: steps[0..n) (up to a TKS_STEP_END) into f's arity, runs, values and names. 0, or
 * a TKS_E* code with the reason in why. */
int tks__args_expand(const tks_args_step *steps, size_t n, tks__family *f, char *why,
                     size_t whylen);

#endif
