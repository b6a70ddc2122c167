/* SPDX-License-Identifier: MIT */
/* tickscope/asm_explain.h: what limits a snippet, from perturbation experiments. The snippet is
 * measured as given, then with something added to each copy: its dependency chains lengthened,
 * independent work of each blocking kind (tickscope/asm_ports.h), NOP padding; and, for a
 * pointer chase, at other working sets. Each addition is compared with its own cost alone: an
 * addition that costs what it costs alone competes for the bottleneck; one that costs nothing
 * is absorbed in the bottleneck's slack. */
#ifndef TICKSCOPE_ASM_EXPLAIN_H
#define TICKSCOPE_ASM_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/asm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum tks_explain_class {
    TKS_EXPLAIN_UNDETERMINED = 0, /* no experiment moved the cost as a bottleneck would */
    TKS_EXPLAIN_CHAIN,            /* a dependency chain: lengthening it costs, more work does not */
    TKS_EXPLAIN_PORTS,            /* execution ports: work of one kind costs, other kinds do not */
    TKS_EXPLAIN_MEMORY,           /* memory: the cost follows the working set */
    TKS_EXPLAIN_FRONTEND,         /* the front end: NOPs, which use no port, cost what they cost alone */
    /* A benchmark program's --explain, which cannot lengthen a chain from outside the block:
     * every addition (each kind of work and the NOPs) was absorbed, so the block waits on
     * latency (a dependency chain, or memory), or on a unit no addition uses, by elimination. */
    TKS_EXPLAIN_LATENCY
};

enum tks_explain_kind {
    TKS_EXPLAIN_BASE = 0,   /* the snippet as given */
    TKS_EXPLAIN_LONGER,     /* its loop-carried registers each through 3 more cycles of latency */
    TKS_EXPLAIN_WORK,       /* independent work of one blocking kind added to each copy */
    TKS_EXPLAIN_NOPS,       /* long NOPs added to each copy */
    TKS_EXPLAIN_WSET,       /* the pointer chase over another working set */
    /* A benchmark program's --explain: the working set its block touched (the pages referenced
     * as it ran), and a dependent load over as many bytes and over 8 KiB (cycles a load) */
    TKS_EXPLAIN_TOUCHED
};

#define TKS_EXPLAIN_MAX 24

typedef struct tks_explain_experiment {
    enum tks_explain_kind kind;
    char name[64];                /* "chain +3 cycles", "+4 x mul: imul r64, r64, imm", ... */
    char added[160];              /* what was added to each copy (one line), "" for none */
    uint64_t working_set;         /* TKS_EXPLAIN_WSET (and the base of a chase): bytes chased;
                                   * TKS_EXPLAIN_TOUCHED: bytes touched, or the load's ring */
    int level;                    /* TKS_EXPLAIN_WSET: the cache level it fits in (0: none) */
    tks_asm_interval cycles;      /* core cycles per copy */
    tks_asm_interval delta;       /* cycles - the base's (conservative interval) */
    double alone;                 /* the addition's own cost alone, cycles per copy (NaN: n/a) */
    double ratio;                 /* delta / alone: 1 competes, 0 absorbed (NaN: n/a) */
    int rc;                       /* 0, or the TKS_E* code the run failed with */
    int core_shared;              /* 1: the add check of a run of it found the reference's adds
                                   * slow (core.add_chain_slow): another thread shared the core,
                                   * taking part of its dispatch */
    char error[160];
} tks_explain_experiment;

typedef struct tks_explain_result {
    enum tks_explain_class cls;
    char port_kinds[160];         /* TKS_EXPLAIN_PORTS: the blocking kinds that competed */
    int level;                    /* TKS_EXPLAIN_MEMORY: the largest level the working set exceeds */
    uint64_t level_bytes;
    uint64_t chase_bytes;         /* the snippet's own working set (0: not a chase) */
    uint64_t knee_lo, knee_hi;    /* TKS_EXPLAIN_MEMORY: the cost steps up between these (0: -) */
    tks_explain_experiment exp[TKS_EXPLAIN_MAX];
    size_t n;
    size_t code_bytes;            /* of one copy of the snippet */
    int chains;                   /* loop-carried registers found (0: none, -1: not analysed) */
    int skipped_work;             /* blocking kinds left out (no free register for them) */
    double seconds;
    char error[TKS_ASM_ERROR_LEN];
} tks_explain_result;

/* Explain the snippet o->code (Intel syntax; its mode, chain, chase and budget as in o).
 * level_bytes[0..n_levels): the data cache sizes, L1 first (tks_sys_cache_levels), for the
 * working-set experiments of a pointer chase (o->chase_bytes > 0): half of each level smaller
 * than the chase (none known: 16 KiB, 256 KiB and 4 MiB). 0, or TKS_EINVAL (AT&T or
 * hex, or the snippet itself fails: error says why), TKS_EUNAVAIL, TKS_ENOMEM. */
TKS_API int tks_explain_run(const tks_asm_options *o, const uint64_t *level_bytes,
                            size_t n_levels, tks_explain_result *r);

/* The classification alone, from r->exp[] (for tests): sets r->cls, port_kinds and level. */
TKS_API void tks_explain_classify(tks_explain_result *r);

/* The registers of an Intel-syntax body that carry a value from one copy to the next (read
 * before the body writes them, and written): names into out[0..max), their count. */
TKS_API size_t tks_explain_carried(const char *code, char (*out)[8], size_t max);

#ifdef __cplusplus
}
#endif

#endif
