/* SPDX-License-Identifier: MIT */
/* tickscope/asm_ports.h: the execution ports of single-uop instruction forms, inferred from
 * timing alone (no performance counters): a form is run beside blocking forms, and how much the
 * mix slows down says how many ports the two share. The idea of blocking instructions is
 * uops.info's (Abel and Reineke, ASPLOS 2019), read through throughput as PMEvo (Ritter and
 * Hack, PLDI 2020) and Palmed (Derumigny et al., CGO 2022) do. */
#ifndef TICKSCOPE_ASM_PORTS_H
#define TICKSCOPE_ASM_PORTS_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/asm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TKS_PORTS_MAX_PORTS 16 /* ports of one domain (bits of a set) */
#define TKS_PORTS_MAX_DOMAINS 8
#define TKS_PORTS_MAX_CANDIDATES 8 /* candidate sets kept for a form the data cannot place */

/* What the data say about one form's port set. */
enum tks_ports_status {
    TKS_PORTS_ASSIGNED = 0,  /* one set fits every measured overlap */
    TKS_PORTS_AMBIGUOUS,     /* several sets fit: candidates[] lists them (set, alt: the first) */
    TKS_PORTS_INCONSISTENT,  /* no set of its size fits every mix within its interval:
                              * candidates[] are those contradicting fewest (misfits of them) */
    TKS_PORTS_UNBLOCKED,     /* no blocker shares a port with it: the data place it nowhere */
    TKS_PORTS_NOT_SINGLE,    /* its throughput is not 1/n of a cycle: not one uop on n ports */
    TKS_PORTS_FAILED         /* it could not be measured (error says why) */
};

typedef struct tks_ports_form {
    char name[64];
    char code[512];
    int blocker;                /* 1: a blocking form (the classes are built from these) */
    tks_asm_interval cycles;    /* core cycles per instruction, independent copies */
    double per_cycle;           /* 1 / cycles.value: instructions a cycle */
    int ports;                  /* per_cycle rounded (0 with TKS_PORTS_NOT_SINGLE/FAILED) */
    enum tks_ports_status status;
    int domain;                 /* the group of ports its set lies in (-1: none) */
    uint32_t set, alt;          /* bit i: port i of the domain; alt only when ambiguous */
    uint32_t candidates[TKS_PORTS_MAX_CANDIDATES]; /* the sets that fit alike (see status) */
    int n_candidates;           /* how many fit (may exceed TKS_PORTS_MAX_CANDIDATES) */
    int misfits;                /* mixes with a blocker the best set contradicts */
    int port_class;             /* forms of equal (domain, set) share a class number; -1 */
    uint64_t skipped;           /* bit b: its mix with blocker b was not measured, as every
                                 * representative of b's domain read disjoint from it */
    uint64_t disjoint_from;     /* bit b: the representatives (blockers) whose mixes said so */
    char error[TKS_ASM_ERROR_LEN];
} tks_ports_form;

/* Why a mix gives no overlap. */
enum tks_ports_why {
    TKS_PORTS_WHY_NONE = 0,
    TKS_PORTS_WHY_LATENCY,   /* a part alone is slower than its ports allow: its own latency */
    TKS_PORTS_WHY_BETWEEN,   /* the figure lies between two whole numbers of ports */
    TKS_PORTS_WHY_WIDTH,     /* the mix ran at the machine's width (dispatch, rename) */
    TKS_PORTS_WHY_EXCESS,    /* the mix cost more than the sum: another limit */
    TKS_PORTS_WHY_FAILED     /* a run failed */
};

/* One mix: ka copies of form a and kb of form b in each copy of the loop body. */
typedef struct tks_ports_pair {
    size_t a, b;                /* indices in forms[] */
    int ka, kb;
    tks_asm_interval mix;       /* core cycles per body, the mix */
    tks_asm_interval alone_a;   /* the a part alone (same registers) */
    tks_asm_interval alone_b;
    double shared;              /* ports the two share: ports(a) + ports(b) - (ka + kb) / mix */
    double shared_lo, shared_hi;/* from the mix's interval */
    int s;                      /* cycles each part takes alone at its port count */
    int overlap;                /* shared rounded; -1: the data cannot say (see why) */
    int ranged;                 /* 1: the mix bounds the overlap to [ov_lo, ov_hi] */
    int ov_lo, ov_hi;           /* the whole overlaps within the mix's interval (with a
                                 * tolerance of TKS_PORTS_TOLERANCE ports) */
    int misfit;                 /* set by the solver: its sets contradict this mix */
    tks_asm_interval width_there; /* instructions a cycle of the width's NOP body right after
                                 * the mix (less than the width: another thread took a share;
                                 * NAN: not measured) */
    int width_bound;            /* 1: the mix ran at the width (see tks_ports_judge): its cost
                                 * bounds what is shared from above only */
    enum tks_ports_why why;
} tks_ports_pair;

typedef struct tks_ports_result {
    tks_ports_form *forms;      /* the blockers first, then the forms; malloc'd */
    size_t n_forms, n_blockers;
    tks_ports_pair *pairs;
    size_t n_pairs;
    int n_domains;
    int domain_ports[TKS_PORTS_MAX_DOMAINS]; /* ports each domain needs */
    int domain_misfits[TKS_PORTS_MAX_DOMAINS]; /* blocker mixes its labelling contradicts */
    tks_asm_interval width;     /* the machine's width: the most instructions a cycle a body
                                 * of forms on disjoint units (ALU, vector, NOP) ran */
    tks_asm_interval width_memory; /* the same of bodies half loads: the width of a mix
                                 * that reads or writes memory */
    double widest_mix;          /* the most instructions a cycle any mix ran */
    size_t runs;                /* snippets measured */
    double seconds;
    /* Where the time went: seconds assembling and checking snippets (once each) and running
     * them; runs of the harness (two or more a snippet, until two agree); snippets answered
     * from the memo; mixes taken again (read as sharing: the body reversed; the NOP body ran
     * slow: the mix again); mixes of a form with a blocker skipped (tks_ports_form.skipped). */
    double seconds_assembling, seconds_running;
    size_t harness_runs, memo_hits, mixes_reversed, mixes_again, mixes_skipped;
    size_t nops_saved;          /* mixes read disjoint (or latency-bound) with no NOP body
                                 * beside them: the width there would change nothing */
    char error[TKS_ASM_ERROR_LEN];
} tks_ports_result;

/* Ports a mix's reading may lie outside its interval and still count as that overlap. */
#define TKS_PORTS_TOLERANCE 0.25
/* A mix whose instructions a cycle (at the fast end of its interval) reach this fraction of
 * the width (at its slow end), and whose parts would if disjoint, is width-bound. */
#define TKS_PORTS_WIDTH_BOUND 0.9

/* The blocking forms used when the caller gives none: integer ALU, shift, multiply, lea, load,
 * store, vector add, multiply, FMA, shuffle and integer add (x86-64 with AVX2 and FMA). */
TKS_API const tks_asm_row *tks_ports_default_blockers(size_t *n);

/* Called after each snippet measured (done of about total); may be NULL. */
typedef void (*tks_ports_progress)(void *arg, size_t done, size_t total, const char *what);

/* Infer the port sets of forms[0..n) (throughput rows; {r}, {x}, {y} placeholders get a register
 * per copy) from their interference with blockers[0..nb) (NULL: the default ones): each form
 * alone, every pair of blockers, then every form beside the blockers: where the blockers'
 * mixes separate two domains or more, a domain's representatives first and its other blockers
 * only where those do not read disjoint (tks_ports_form.skipped says which were not). base gives the budget,
 * pinning and quantum of each run. 0, or TKS_EINVAL (a row without throughput mode or with
 * more than one instruction), TKS_ENOMEM, TKS_EUNAVAIL (no binutils; error says why). */
TKS_API int tks_ports_infer(const tks_asm_options *base, const tks_asm_row *forms, size_t n,
                            const tks_asm_row *blockers, size_t nb, tks_ports_progress progress,
                            void *progress_arg, tks_ports_result *r);
TKS_API void tks_ports_result_free(tks_ports_result *r);

/* What each mix says (ports_judge.c), for tests: from each pair's ka, kb, s, mix, alone_a,
 * alone_b and width_there, the forms' ports and code, r->width and r->width_memory (a mix's
 * width is the least of r->width, r->width_memory when a form's code has a memory operand,
 * and width_there; none measured: the widest mix stands for it), fill
 * r->widest_mix and each pair's shared, overlap, range, width_bound and why. A width-bound mix
 * gives the range [0, what its cost allows] (the two share at most that, not that they share
 * it); tks_ports_solve reads it as that inequality, so it never joins two domains. */
TKS_API void tks_ports_judge(tks_ports_result *r);

/* The solver alone (ports_solve.c), for tests: from r->forms[].ports and each pair's overlap
 * (exact when overlap >= 0, else [ov_lo, ov_hi] when ranged), fill domains, sets, candidates,
 * statuses, misfits and classes. Blockers get the labelling that contradicts fewest mixes (a mix
 * disturbed by load does not unplace a whole domain); the mixes it contradicts are marked. */
TKS_API void tks_ports_solve(tks_ports_result *r);

#ifdef __cplusplus
}
#endif

#endif
