/* SPDX-License-Identifier: MIT */
/* tickscope/asm.h: the latency or throughput of any instruction sequence, assembled with the
 * system's `as` (or given as bytes), run in a child process and fitted over several unrolls. */
#ifndef TICKSCOPE_ASM_H
#define TICKSCOPE_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/common.h"
#include "tickscope/diag.h"
#include "tickscope/method.h"
#include "tickscope/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a snippet is measured. In latency mode the copies form one dependency chain (the
 * snippet's own, or the one its {r}/{x}/{y} placeholders make through the --chain register); in
 * throughput mode the placeholders take a different register in each copy, so copies are
 * independent. */
enum tks_asm_mode { TKS_ASM_LATENCY = 0, TKS_ASM_THROUGHPUT = 1 };
enum tks_asm_syntax { TKS_ASM_INTEL = 0, TKS_ASM_ATT = 1, TKS_ASM_HEX = 2 };

#define TKS_ASM_UNROLLS 4     /* unroll counts fitted */
#define TKS_ASM_DISASM_MAX 64 /* lines of disassembly kept */
#define TKS_ASM_ERROR_LEN 512

typedef struct tks_asm_options {
    const char *code;            /* the snippet: instructions separated by ';' or newlines, or hex */
    const char *init;            /* run before each window, outside it (NULL: none) */
    enum tks_asm_syntax syntax;  /* of code and init (init is assembly even with TKS_ASM_HEX) */
    enum tks_asm_mode mode;
    const char *chain;           /* latency: the register {r} (or {x}/{y}) stands for; NULL: rax, xmm0 */
    uint32_t align;              /* the loop's first copy starts on this boundary (power of 2; 0: 64) */
    uint64_t scratch_bytes;      /* the area R14 points to (0: 1 MiB); zeroed */
    uint64_t chase_bytes;        /* > 0: fill the first chase_bytes of it with a random cyclic
                                  * chain of cache-line pointers, R14 at its head (pointer chases) */
    double budget;               /* seconds of windows (0: 0.3) */
    double timeout;              /* seconds a single window may take before the child is killed (0: 2) */
    int pin_cpu;                 /* -1: not pinned */
    uint64_t quantum;            /* the timer's step in ticks (0: 1) */
    /* Where the windows run: TKS_WHERE_USER (a child process, the default), or in ring 0 through
     * the kernel module (tickscope.ko, /dev/tickscope): TKS_WHERE_KERNEL_IRQ_OFF (preemption and
     * interrupts off) or TKS_WHERE_KERNEL_PREEMPT_OFF. In the kernel the snippet may use
     * privileged instructions (a CR0 read, RDMSR); init runs in every window, before the loop
     * (its cost goes to the fit's intercept); pin_cpu names the module's CPU; chase_bytes is not
     * offered, the scratch area is at most 4 MiB, and one window must fit the module's
     * interrupts-off bound. A snippet that faults in ring 0 is caught by the module (the run fails
     * with the vector and the byte), and one that does not return is ended by an NMI after 100 ms;
     * what the module cannot undo (a write through a bad pointer, an MSR written): kmod/README.md. */
    enum tks_where where;
    const char *kernel_device;   /* NULL: /dev/tickscope */
} tks_asm_options;

typedef struct tks_asm_interval {
    double value, lo, hi; /* 95% */
} tks_asm_interval;

typedef struct tks_asm_result {
    enum tks_asm_mode mode;
    uint32_t unroll[TKS_ASM_UNROLLS];  /* copies per loop iteration, one per fitted point set */
    uint64_t loops[TKS_ASM_UNROLLS];   /* loop iterations per window for each unroll */
    uint64_t windows;                  /* snippet windows taken */
    uint64_t kept;                     /* of them, within their block's fences */
    uint64_t discarded;                /* left out (the CPU changed, or an interrupt hit) */
    uint32_t blocks;                   /* stretches of the run estimated apart */
    tks_fit fit;                       /* ticks per iteration against copies: slope = per copy */
    tks_asm_interval ticks_per_copy;
    tks_asm_interval core_cycles;      /* NaN when no reference could be measured */
    double cycles_per_tick;            /* of the interleaved dependent-add reference */
    const char *core_cycles_source;    /* "interleaved add-chain reference (estimate)" */
    size_t code_bytes;                 /* of one copy (the first) */
    size_t n_disasm;
    char disasm[TKS_ASM_DISASM_MAX][128]; /* one copy (and the loop's branch) as it ran */
    tks_diags diags;                   /* warnings and notes, coded (tickscope/diag.h); owned */
    int ring;                          /* 3: user space (a child process); 0: the kernel module */
    int kernel_cpu;                    /* ring 0: the CPU the module ran on (-1 in user space) */
    uint64_t section_max_ticks;        /* ring 0: the longest stretch with interrupts off */
    char error[TKS_ASM_ERROR_LEN];     /* why tks_asm_run failed, one line */
} tks_asm_result;

TKS_API void tks_asm_options_init(tks_asm_options *o);
/* Assemble, run in a child process, fit. 0, or a negative TKS_E* code with r->error saying why:
 * TKS_EINVAL (bad snippet, assembler error with its line, bad hex), TKS_EUNAVAIL (no `as` or
 * `objdump`: binutils), TKS_EINTR (the snippet raised a signal), TKS_ETIME (a window ran past the
 * time limit and was killed), TKS_ENOMEM. x86-64 Linux only (TKS_EUNAVAIL elsewhere). */
TKS_API int tks_asm_run(const tks_asm_options *o, tks_asm_result *r);
/* Release what tks_asm_run allocated in r (its diagnostics), whatever it returned. */
TKS_API void tks_asm_result_free(tks_asm_result *r);

/* ---- tables: one snippet per line, "name | mode | code" with an optional "| init" (mode is
 * latency or throughput, optionally ",chain=REG", ",chase=SIZE"); '#' starts a comment line. */
typedef struct tks_asm_row {
    char name[64];
    enum tks_asm_mode mode;
    char chain[16];       /* "" when none */
    uint64_t chase_bytes; /* 0 when none */
    char code[512];
    char init[512];       /* "" when none */
} tks_asm_row;

/* Parse a table's text. *rows is allocated (free()); on TKS_EINVAL, error names the line. */
TKS_API int tks_asm_table_parse(const char *text, tks_asm_row **rows, size_t *n, char *error,
                                size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
