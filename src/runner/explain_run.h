/* SPDX-License-Identifier: MIT */
/* explain_run.h: what a benchmark's --explain shares between its files: one measurement in
 * core cycles a repetition (explain_bench.c), and the memory experiments (explain_memory.c). */
#ifndef TKS_RUNNER_EXPLAIN_RUN_H
#define TKS_RUNNER_EXPLAIN_RUN_H

#include "tickscope/asm_explain.h"
#include "tickscope/bench.h"

/* Core cycles a repetition of spec with units of kind's work after each (kind 0: none), the
 * narrowest of up to three runs while wider than 10%; *shared (NULL: not asked) set to 1 when
 * a run's add check found the core shared (core.add_chain_slow), left as it was otherwise. 0,
 * or the run's TKS_E* code (error says why). */
int tks__explain_measure(const tks_options *o, const tks_platform *p,
                         const tks_benchmark_spec *spec, const tks_args *args, int kind,
                         uint32_t units, tks_asm_interval *out, int *shared, char *error,
                         size_t errlen);

/* The class from the additions (before the memory rows): tks_explain_classify's, except that
 * the NOPs alone do not make it the front end while work of some kind was absorbed (ratio
 * under 0.25): a front end that limits the block is paid by every instruction added after it
 * (a NOP-bound body: every ratio 0.6-1.5 on the Zen 5 guest), so NOPs that compete beside
 * absorbed work compete for something else, the dispatch another thread on the core takes (a
 * CI run's sixteen independent imul: NOPs 0.8-1.2, mulpd, addpd and loads 0.07-0.18): the
 * class is then what the additions other than the NOPs say. Undetermined with every addition
 * absorbed (ratio under 0.5) is latency. The rule is the benchmark's, not tks_explain_classify's:
 * in a snippet padded with NOPs (front end by construction) every added instruction costs about
 * an eighth of a cycle, its dispatch slot, whatever its kind, so three stores, vaddpd or vmulpd
 * (1.5 cycles alone) read ratios of 0.24-0.26 on the Zen 5 guest and would be taken as
 * absorbed, where a benchmark's NOP-bound body read every addition at 0.6 or more. */
void tks__explain_bench_classify(tks_explain_result *r);

/* The block's working set and what a load costs over it and over smaller rings, ascending
 * (rows of kind TKS_EXPLAIN_TOUCHED), in throughput mode o, after the other experiments; the
 * loads only where they can change the class (undetermined or latency, or any class when the
 * working set lies beyond every cache level declared). levels[0..nl): the
 * cache sizes, L1 first (tks_sys_level_bytes; none: a fourfold grid), for the smaller rings and
 * r->level, the largest the working set exceeds. */
void tks__explain_memory(const tks_options *o, const tks_platform *p,
                         const tks_benchmark_spec *spec, const tks_args *args,
                         const uint64_t *levels, size_t nl, tks_explain_result *r);

/* The memory rows of r (TKS_EXPLAIN_TOUCHED, none failed): the loads over the largest and the
 * smallest ring (NULL: none), and the working set of the row without a load (0: none). */
uint64_t tks__explain_touched_rows(const tks_explain_result *r,
                                   const tks_explain_experiment **big,
                                   const tks_explain_experiment **small);

/* Memory, from r's TOUCHED rows: the class was undetermined or latency (or any, when beyond:
 * the block's working set lies beyond every cache level the machine declares), a dependent load
 * over the block's working set costs at least TKS_EXPLAIN_BEYOND times one inside the first cache
 * level (its data comes from beyond the core's own caches), and a repetition of the block at
 * least TKS_EXPLAIN_SHARE of one such load. Beyond the caches the loads outweigh the additions:
 * there a chase's runs move by a third from one experiment to the next under another process's
 * memory traffic, and additions on every kind of unit read as competing (a 64 MiB chase on a
 * loaded Zen 4 guest: +192 addpd at 3.3 times its cost alone, +192 add at 1.8). Sets r->cls
 * (clearing the port kinds), and r->knee_lo and knee_hi to the two rings between which a load's
 * cost rises most (the rows ascending); 1 when it did. */
#define TKS_EXPLAIN_BEYOND 10.0
#define TKS_EXPLAIN_SHARE 0.25
int tks__explain_memory_verdict(tks_explain_result *r, int beyond);

#endif
