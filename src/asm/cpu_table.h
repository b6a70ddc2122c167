/* SPDX-License-Identifier: MIT */
/* cpu_table.h: `tickscope asm --table` without a file: the catalogue's forms on the CPU at hand,
 * each measured for throughput and for the latency of its operand pairs, in batches, against a
 * cache file per CPU model that is continued (an interrupted run resumes where it stopped) and
 * reused (only what is not in it is measured); and two such tables compared (--diff). */
#ifndef TKS_ASM_CPU_TABLE_H
#define TKS_ASM_CPU_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "asm/catalog.h"

/* One measurement of the table. */
typedef struct tks__asm_entry {
    char form[64];         /* the form's name */
    char key[16];          /* tks__asm_measure_spec.key: "T", "L1-0", "LA1-0", "LM" */
    char feature[40];      /* the CPUID features it needs ("AVX512F+AVX512VL") */
    char snippet[160];     /* the first copy's text, one line */
    enum tks__asm_kind kind;
    int src, dst;
    int from_cache;
    tks__asm_batch_result res; /* cycles per copy with their interval; rc and error */
    double chain_cycles;   /* LATENCY_ADDR: the AND's latency subtracted (else 0) */
    uint64_t hash;         /* of the snippet's whole text: a changed snippet is measured again */
} tks__asm_entry;

typedef struct tks__asm_table {
    tks__asm_entry *e;
    size_t n;
    size_t forms;          /* distinct forms */
    size_t measured;       /* entries measured in this run (the others came from the cache) */
    size_t second_pass;    /* of them, measured again for a narrower interval */
    double seconds;        /* wall time of this run */
    /* run-to-run terms: a sample of the entries measured again at the run's end; the 98th
     * percentile of |first - again| (throughputs: relative to the figure; latencies: cycles).
     * Every entry measured now has its interval widened to at least half of it either side,
     * so that two runs agree within their intervals on about 98% of entries. NAN: not known. */
    size_t rerun;          /* entries of the sample */
    double run_term_thr, run_term_lat;
    int ring0;             /* 1: measured in ring 0 (the kernel module); 0: in user space */
    char cache_path[512];  /* "" when no cache */
    char cpu[128];         /* the CPU model the cache is for */
} tks__asm_table;

typedef struct tks__asm_table_options {
    tks__asm_batch_options batch;
    int force;             /* measure everything again (the cache is rewritten) */
    const char *only;      /* measure only forms whose name contains this (NULL: all) */
    const char *cache_dir; /* NULL: TICKSCOPE_CACHE_DIR, XDG_CACHE_HOME/tickscope, ~/.cache/tickscope;
                            * "": no cache */
    size_t batch_size;     /* snippets per assembler run (0: 48) */
    int no_second_pass;    /* 1: keep the first pass's intervals, however wide */
    int no_run_term;       /* 1: no sample measured again (intervals within one run only) */
    /* after each measurement: done of total, and the seconds left at this run's pace */
    void (*progress)(void *ctx, size_t done, size_t total, double eta);
    /* entry i of t is final (NULL: not told): what the cache holds first, then each as it is
     * measured, a measurement taken twice after its second pass (the order is not t's) */
    void (*row)(void *ctx, const struct tks__asm_table *t, size_t i);
    void *ctx;
} tks__asm_table_options;

/* The q-quantile (0..1) of d[0..n) (sorted in place); NAN when n is 0. */
double tks__asm_quantile(double *d, size_t n, double q);
/* Widen the intervals of entries not from the cache (rc 0) to half the run-to-run term either
 * side of the figure (t->run_term_thr relative, t->run_term_lat in cycles; NAN: unchanged). */
void tks__asm_table_widen(tks__asm_table *t);

/* Build the table. 0, or TKS_EUNAVAIL (no `as`, not x86-64), TKS_ENOMEM, TKS_EIO (the cache
 * cannot be written), in ring 0 the kernel module's refusal (asked with one NOP before the cache
 * is touched or a row handed out to o->row; mid-run, tks__asm_measure_batch's), with err saying
 * why. Rows that failed keep their rc and error. */
int tks__asm_table_build(const tks__asm_table_options *o, tks__asm_table *t, char *err,
                         size_t errsz);
void tks__asm_table_free(tks__asm_table *t);
/* The cache file of this CPU model (cache_dir as in the options; ring0: the table of ring 0,
 * a file of its own) and the model's name. */
int tks__asm_table_cache_file(const char *cache_dir, int ring0, char *cpu, size_t cpusz,
                              char *path, size_t size);

/* ---- files: a table as CSV (the format --format csv writes, which the cache is too) */
const char *tks__asm_kind_name(enum tks__asm_kind k); /* "throughput", "latency", ... */
void tks__asm_csv_header(FILE *f);
void tks__asm_csv_entry(FILE *f, const tks__asm_entry *e);
/* Read a table's CSV. TKS_EINVAL with err naming the line when it is not one. */
int tks__asm_table_read_csv(const char *path, tks__asm_table *t, char *err, size_t errsz);

/* ---- --diff: rows matched by form and key; differ when the intervals do not overlap */
typedef struct tks__asm_diff_row {
    const tks__asm_entry *a, *b; /* NULL: only in the other table */
    int differs;
} tks__asm_diff_row;
typedef struct tks__asm_diff {
    tks__asm_diff_row *rows;
    size_t n, differ, only_a, only_b, same;
    const char *path_a, *path_b;
} tks__asm_diff;
int tks__asm_table_diff(const tks__asm_table *a, const tks__asm_table *b, tks__asm_diff *d);

#endif
