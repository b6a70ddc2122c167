/* SPDX-License-Identifier: MIT */
/* asm_internal.h: what the parts of `tickscope asm` share: assembling and disassembling through
 * binutils, the generated harness, and the child process that runs it. */
#ifndef TKS_ASM_INTERNAL_H
#define TKS_ASM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "stats/add_check_fit.h"
#include "tickscope/asm.h"

/* Registers the placeholders take in throughput mode, copy i using entry i % count. R14 (the
 * scratch area), R15 (the loop counter) and RSP are the harness's. */
#define TKS__ASM_GPR_POOL 13
#define TKS__ASM_XMM_POOL 16
#define TKS__ASM_VARIANTS 16 /* distinct copies assembled in throughput mode, at most */

/* Copy of `code` with {r} replaced by the general register gpr and {x}/{y} by xmm/ymm number
 * xmm, in the given syntax (AT&T gets the %). Malloc'd; NULL when out of memory. */
char *tks__asm_expand(const char *code, enum tks_asm_syntax syntax, const char *gpr, int xmm);
/* 1 when code holds a placeholder. */
int tks__asm_has_placeholder(const char *code);
/* The general register name (without %) of entry v of the pool. */
const char *tks__asm_pool_gpr(unsigned v);
/* The registers throughput variant v of code takes for {r} and for {x}/{y}: the pools less the
 * registers code names itself, so that no copy writes what the others read (in 'andn {r}, r14,
 * rbp' a copy on rbp would feed every other copy: 0.218 cycles a copy on Zen 5, 0.167 without
 * it); the whole pool where code names all of it. */
void tks__asm_variant_regs(const char *code, unsigned v, const char **gpr, int *xmm);
/* How many variants of code to assemble in throughput mode, so that each register it rotates
 * over takes the same share of the copies: the general registers left when it has {r} (16
 * variants over 13 registers gave rax, rbx and rcx two copies in sixteen, and 'add {r}, r14'
 * read 0.198 cycles a copy where twelve registers evenly read 0.187, Zen 5 guest), else the
 * vector ones. */
size_t tks__asm_variant_count(const char *code);

/* Hex digits (spaces, commas, "0x" and "\x" allowed between bytes) into *bytes (malloc'd). */
int tks__asm_hex(const char *text, unsigned char **bytes, size_t *len, char *err, size_t errsz);

/* Assemble nvar variants with `as` in one run, each in a section of its own: *bytes (malloc'd)
 * holds them back to back, variant v at [off[v], off[v + 1]). what names the text in errors
 * ("snippet", "init"). TKS_EUNAVAIL without `as`; TKS_EINVAL with the assembler's first error
 * and the user's line in err. */
int tks__asm_assemble(const char *const *variants, size_t nvar, enum tks_asm_syntax syntax,
                      const char *what, unsigned char **bytes, size_t *off, char *err,
                      size_t errsz);

/* Disassemble len bytes with objdump (Intel or AT&T), one instruction per line "OFFSET  BYTES
 * INSTRUCTION" into lines[0..max). Returns the count, or a negative TKS_E* code. */
int tks__asm_disassemble(const unsigned char *code, size_t len, enum tks_asm_syntax syntax,
                         char (*lines)[128], size_t max, char *err, size_t errsz);

/* Run argv (argv[0] looked up in PATH) with stdout and stderr to out (NUL-terminated, cut at
 * size). Returns its exit status, -1 when it could not be started (errno ENOENT: not
 * installed), -2 when it died on a signal. */
int tks__asm_spawn(char *const *argv, char *out, size_t size);
/* A fresh private directory for temporary files (path in dir, size >= 64); and its removal. */
int tks__asm_tmpdir(char *dir, size_t size);
void tks__asm_rmdir(const char *dir);

/* ---- snippet_check.c: a snippet is what it says. TKS_EINVAL with err saying why (one line):
 * text in the other syntax than the one asked for (the flag to add or drop named); copies
 * that do not decode at their own boundaries (both disassemblies shown); with check_memory,
 * memory touched through anything but r14 (in ring 0 a snippet may mean to read kernel memory
 * or fault on purpose: the module reports the fault). Without objdump the copies are not
 * checked (0). */
int tks__asm_check_syntax(const char *code, enum tks_asm_syntax syntax, const char *what,
                          char *err, size_t errsz);
int tks__asm_check_copies(const unsigned char *code, const size_t *off, size_t nvar,
                          int check_memory, char *err, size_t errsz);
/* An instruction's text in a line of tks__asm_disassemble: "0x0003  0f 90 07   seto BYTE PTR
 * [rdi]" -> "seto BYTE PTR [rdi]" (snippet_check.c; stack_check.c reads lines the same way). */
const char *tks__asm_insn_text(const char *line);

/* ---- stack_check.c: --kernel: whether one iteration of copies copies of code (the module's
 * one copy), after the init code, keeps RSP within the module's stack (TKS_KMOD_STACK_REACH
 * below and above where it starts), read off the disassembly: 0, or TKS_EINVAL with err naming
 * how far it goes or the instruction that sets RSP to what cannot be followed. Without objdump
 * nothing is checked (0): the module's own bound holds every push, pop and call. */
int tks__asm_check_stack(const unsigned char *code, size_t code_len, uint32_t copies,
                         const unsigned char *init, size_t init_len, char *err, size_t errsz);

/* ---- the harness: one function per unroll count, in memory that is executable. */
/* A method's sequence from the method list (tks_method_info()->begin or ->end) as lower-case
 * mnemonics, at most max; how many. */
#define TKS__STEP_LEN 16
size_t tks__method_steps(const char *text, char (*mn)[TKS__STEP_LEN], size_t max);

typedef struct tks__asm_harness {
    unsigned char *mem; /* code pages, then a page of data the code reaches RIP-relatively */
    size_t size, code_size;
    /* [0, TKS_ASM_UNROLLS): the snippet; then the reference, unrolled the same ways. Each
     * returns the window's ticks, TKS__UNROLL_DISCARDED when the CPU changed within it. */
    uint64_t (*fn[2 * TKS_ASM_UNROLLS])(void *scratch, uint64_t loops);
    size_t loop_start[2 * TKS_ASM_UNROLLS], loop_end[2 * TKS_ASM_UNROLLS]; /* offsets in mem */
    void *const volatile *r14_out; /* R14 as the last window left it */
} tks__asm_harness;

/* code: the snippet's variants, copy i of an unrolled body being variant i % nvar. init may
 * be empty. unroll[TKS_ASM_UNROLLS] copies per loop, for the snippet and for the reference (a
 * chain of `add rax, rax`, one core cycle a copy). TKS_ENOMEM. */
int tks__asm_harness_build(tks__asm_harness *h, const unsigned char *code, const size_t *off,
                           size_t nvar, const unsigned char *init, size_t init_len,
                           const uint32_t *unroll, uint32_t align);
void tks__asm_harness_free(tks__asm_harness *h);

/* ---- the child: windows in rounds, each round every unroll of the snippet and of the
 * reference once. */
/* An adaptive stop: windows end once the snippet's interval (core cycles, against the
 * reference) is narrow enough, after min_budget seconds; all zero: the whole budget is spent. */
typedef struct tks__asm_adaptive {
    double min_budget; /* seconds before the first check */
    double rel_width;  /* half-width / value below this ... */
    double abs_width;  /* ... or the half-width below this, in core cycles: stop */
} tks__asm_adaptive;

typedef struct tks__asm_plan {
    const tks__asm_harness *h;
    const uint32_t *unroll;
    const size_t *off;         /* the snippet's variants (to say which copy faulted) */
    size_t nvar;
    void *scratch;             /* R14 at each window's start */
    int chase;                 /* 1: R14 starts where the last window left it (a pointer chase
                                * continues instead of walking the same lines again) */
    double budget, timeout;
    uint64_t quantum;
    int pin_cpu;
    tks__asm_adaptive adaptive;
} tks__asm_plan;

typedef struct tks__asm_windows {
    uint64_t loops, ref_loops;
    size_t rounds;
    uint64_t *snip, *ref;      /* rounds x TKS_ASM_UNROLLS each, malloc'd */
    tks__add_check check;      /* the child's add check (verdict NONE: none taken) */
} tks__asm_windows;

/* Run the plan in a child process. TKS_EINTR when the snippet raised a signal (err says which
 * and where), TKS_ETIME when a window outlived plan->timeout (killed). */
int tks__asm_child_run(const tks__asm_plan *plan, tks__asm_windows *w, char *err, size_t errsz);

/* Build the harness for nvar variants at code + off[v], take windows in a child (stopping early
 * as ad says, when not NULL), fit into r; disasm: also the loop's disassembly (objdump). */
int tks__asm_measure_code(const tks_asm_options *o, const tks__asm_adaptive *ad,
                          tks_asm_result *r, const unsigned char *code, const size_t *off,
                          size_t nvar, const unsigned char *init, size_t init_len, int disasm);
/* The same in two steps: the windows taken (w's arrays malloc'd, the quantum they were read
 * with in *quantum; r gets the unrolls and the disassembly), and what asm_fit.c makes of them:
 * the fit into r (0, or a code with r->error), then whether the unrolls lie on a line. */
int tks__asm_take_code(const tks_asm_options *o, const tks__asm_adaptive *ad,
                       tks_asm_result *r, const unsigned char *code, const size_t *off,
                       size_t nvar, const unsigned char *init, size_t init_len, int disasm,
                       tks__asm_windows *w, uint64_t *quantum);
int tks__asm_fit(tks_asm_result *r, const tks__asm_windows *w, uint64_t quantum);
void tks__asm_linear_check(tks_asm_result *r);
/* The same windows taken in ring 0 by the kernel module (o->where, o->kernel_device, o->budget
 * spent whole: the module has no early stop), fit into r; the errors of tks__asm_kernel_run. */
int tks__asm_measure_kernel(const tks_asm_options *o, tks_asm_result *r,
                            const unsigned char *code, const size_t *off, size_t nvar,
                            const unsigned char *init, size_t init_len, int disasm);

/* ---- --kernel: the same windows taken by the kernel module in ring 0 (kernel.c). One copy for
 * the module is the nvar variants back to back, so unroll[j] / nvar of them make unroll[j]. */
typedef struct tks__asm_kplan {
    const unsigned char *code; /* the variants, back to back */
    size_t code_len, nvar;
    const unsigned char *init;
    size_t init_len;
    const uint32_t *unroll;    /* TKS_ASM_UNROLLS, evenly spaced multiples of nvar */
    uint32_t align;
    uint64_t scratch_bytes;
    double budget;
    uint64_t quantum;
    enum tks_where where;      /* TKS_WHERE_KERNEL_IRQ_OFF or _PREEMPT_OFF */
    const char *device;        /* NULL: /dev/tickscope */
    int cpu;                   /* -1: the caller's */
} tks__asm_kplan;

typedef struct tks__asm_kinfo {
    int cpu_used;
    uint64_t section_max_ticks, tsc_khz;
    uint32_t section_us;
    const char *method;        /* the clock method the module read with */
} tks__asm_kinfo;

/* TKS_ENODEV, TKS_EPERM, TKS_EPROTO, TKS_EBUSY (the module), TKS_ERANGE (refused by the bound),
 * TKS_EINVAL (too long for the module), each with err saying what to do. */
int tks__asm_kernel_run(const tks__asm_kplan *p, tks__asm_windows *w, tks__asm_kinfo *info,
                        char *err, size_t errsz);
/* The loop the module runs for unroll[0] copies (without its harness), for the disassembly. */
size_t tks__asm_kernel_loop(const tks__asm_kplan *p, unsigned char *out, size_t size);

/* ports.c: two readings of one figure taken together (the fastest, and the hull of the
 * intervals); acc's value NAN: the first reading. */
void tks__ports_hull(tks_asm_interval *acc, tks_asm_interval v);

#endif
