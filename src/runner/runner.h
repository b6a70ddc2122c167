/* SPDX-License-Identifier: MIT */
/* runner.h: what the runner's front end (main.c) and the reports share with the runner. */
#ifndef TKS_RUNNER_RUNNER_H
#define TKS_RUNNER_RUNNER_H

#include "tickscope/bench.h"

struct tks_state;
/* r's name, family and arguments for spec run with args (NULL: none), as Google Benchmark names
 * a run ("bm_x/size:64/stride:8"). */
void tks__result_name(tks_result *r, const tks_benchmark_spec *spec, const tks_args *args);
/* --explain's working set: the run is no measurement but the block's throughput kernel run for
 * the sampling time, with the process's referenced pages cleared as TKS_MEASURE starts (after
 * the body's set-up) and counted as it ends (base/proc_refs.h). rc 0 and bytes, or the TKS_E*
 * code and why. */
typedef struct tks__touched {
    int rc;
    uint64_t bytes;
    char why[160];
} tks__touched;
/* tks_run_benchmark_args with each repetition of throughput mode followed by units units of
 * work of kind perturb (enum tks__perturb_kind, tickscope/bench_perturb.h; 0: none): what
 * --explain measures; with touched (NULL: none), the touch run above instead of figures. */
int tks__run_benchmark_perturbed(const tks_options *o, const tks_platform *p,
                                 const tks_benchmark_spec *spec, const tks_args *args,
                                 int perturb, uint32_t units, tks__touched *touched,
                                 tks_result *r);
/* explain_bench.c: what limits spec run with args (--explain): the base in throughput mode,
 * then each kind of work added after each repetition and the same work alone, classified by
 * tks_explain_classify (tickscope/asm_explain.h), then the memory rows (explain_run.h; levels
 * as tks_sys_level_bytes gives them). 0, TKS_EUNAVAIL (not x86-64: r->error says so), or the
 * base run's error. */
struct tks_explain_result;
int tks__explain_benchmark(const tks_options *o, const tks_platform *p,
                           const tks_benchmark_spec *spec, const tks_args *args,
                           const uint64_t *levels, size_t nl, struct tks_explain_result *r);
/* explain_bodies.c: a body whose block is empty, for the added work's cost alone; and a
 * pointer chase over a random cycle of tks_state_arg bytes, one dependent load a repetition. */
void tks__explain_alone_body(tks_state *st);
extern const tks_benchmark_spec tks__explain_alone_spec; /* that body, as a benchmark */
void tks__explain_chase_body(tks_state *st);
/* The chase's ring: a random cycle through every 64-byte line of bytes (free() it; NULL when out
 * of memory or under two lines); p = *p steps it. The tests' and bench's chases use it too. */
void **tks__explain_ring(size_t bytes);
/* work_counters.c: the counters st's body set, into r with their figures (after r's figures;
 * NaN when the run failed). */
void tks__work_counters_figures(tks_result *r, const struct tks_state *st);
/* paired.c: tks_paired_run with every argument of each side. */
struct tks_paired_options;
struct tks_paired_result;
int tks__paired_run_args(const tks_options *o, const tks_platform *p,
                         const struct tks_paired_options *po, const tks_benchmark_spec *a,
                         const tks_args *arg_a, const tks_benchmark_spec *b,
                         const tks_args *arg_b, struct tks_paired_result *r);


#endif
