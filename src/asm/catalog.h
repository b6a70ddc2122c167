/* SPDX-License-Identifier: MIT */
/* catalog.h: the instruction catalogue of `tickscope asm --table` and the batch measurement it
 * runs on. The catalogue is data (catalog_rows.c: a mnemonic, its operand patterns, the operand
 * sizes it comes in and the CPUID feature each size needs); catalog.c expands its rows into
 * instruction forms ("add r64, m64", "vaddpd zmm{k}, zmm, zmm"), keeps those the CPU at hand
 * has, and writes each form's snippets: the throughput snippet (registers rotated copy by copy,
 * so copies are independent) and one latency snippet per operand pair that can be chained.
 * batch.c measures a list of snippets in one assembler run and one child process each, with an
 * adaptive stop: the API other parts (port inference, --explain) build on. */
#ifndef TKS_ASM_CATALOG_H
#define TKS_ASM_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/asm.h"

/* ---- CPUID features a form may need (asm_cpuid.c reads them, XCR0 included). */
enum tks__asm_feat {
    TKS__F_BASE = 0, /* x86-64 baseline: always present */
    TKS__F_SSE3, TKS__F_SSSE3, TKS__F_SSE41, TKS__F_SSE42, TKS__F_POPCNT, TKS__F_LZCNT,
    TKS__F_BMI1, TKS__F_BMI2, TKS__F_ADX, TKS__F_AVX, TKS__F_AVX2, TKS__F_FMA, TKS__F_F16C,
    TKS__F_AES, TKS__F_PCLMUL, TKS__F_SHA, TKS__F_MOVBE,
    TKS__F_AVX512F, TKS__F_AVX512VL, TKS__F_AVX512BW, TKS__F_AVX512DQ, TKS__F_AVX512CD,
    TKS__F_AVX512VBMI, TKS__F_AVX512VNNI, TKS__F_AVX512BITALG, TKS__F_AVX512VPOPCNTDQ,
    TKS__F_AVX512IFMA, TKS__F_GFNI, TKS__F_VAES, TKS__F_VPCLMUL,
    TKS__F_COUNT
};
/* The feature's name as CPUID documentation spells it ("AVX512F"). */
const char *tks__asm_feat_name(int feat);
/* Bit f set when the CPU at hand (and its OS, for vector state) offers feature f. */
uint64_t tks__asm_cpu_feats(void);

/* ---- the catalogue's rows (catalog_rows.c): one mnemonic and the forms it comes in.
 *   forms: space-separated operand lists, operands separated by ','; an operand is
 *     R (a general register of the row's size), r8 r16 r32 r64 (one of that width),
 *     i (an 8-bit immediate), I (a full one: imm8 for 8-bit, imm16, else imm32),
 *     M (memory of the row's size), m8 m16 m32 m64 m128 (memory of that width),
 *     V (a vector register of the row's length), X (an xmm register), K (a mask register),
 *     c (cl); a first operand V{k} or M{k} is written under the mask k1.
 *   sizes: general-register widths "bwdq" (b: 8 bits .. q: 64), vector lengths "xyz", or "-"
 *     (the operands name their own).
 *   access: the first operand is 'w'ritten, 'm'odified (read and written) or only 'r'ead; then
 *     'F' when the flags are written, 'f' when they are read.
 *   feat: general rows: feat[0] for every size; vector rows: feat[0..2] for x, y, z, where
 *     TKS__ROW_NONE means no such length and TKS__ROW_EVEX "EVEX only": feat[2] and AVX512VL.
 *     A masked form needs feat[2] too (and AVX512VL below zmm). */
#define TKS__ROW_NONE (-2)
#define TKS__ROW_EVEX (-1)
typedef struct tks__asm_catrow {
    const char *mnemonic, *forms, *sizes, *access;
    signed char feat[3];
} tks__asm_catrow;
extern const tks__asm_catrow tks__asm_catrows[];
extern const size_t tks__asm_n_catrows;

/* ---- operand classes */
enum tks__asm_opclass {
    TKS__OP_R8, TKS__OP_R16, TKS__OP_R32, TKS__OP_R64, /* general registers */
    TKS__OP_IMM8, TKS__OP_IMM32,                      /* immediates (imm32: 16 bits for r16) */
    TKS__OP_MEM,                                      /* memory, [r14 + displacement] */
    TKS__OP_XMM, TKS__OP_YMM, TKS__OP_ZMM,            /* vector registers */
    TKS__OP_K,                                        /* AVX-512 mask registers */
    TKS__OP_CL,                                       /* the shift count in cl */
    TKS__OP_COUNT
};
#define TKS__ACC_R 1u /* the operand is read */
#define TKS__ACC_W 2u /* ... written */

#define TKS__FORM_OPS 4
typedef struct tks__asm_form {
    char name[64];        /* "add r64, m64", "vaddpd zmm{k}, zmm, zmm": unique in the catalogue */
    const char *mnemonic;
    int feat, feat2;      /* the CPUID features it needs (feat2 TKS__F_BASE when one is enough) */
    uint8_t nops;
    uint8_t op[TKS__FORM_OPS];     /* enum tks__asm_opclass */
    uint8_t acc[TKS__FORM_OPS];    /* TKS__ACC_* */
    uint16_t mem_bits;             /* the memory operand's width (8..512), 0 when none */
    uint8_t masked;                /* the destination carries a write mask {k1} */
    uint8_t flags_in, flags_out;   /* reads / writes the arithmetic flags */
} tks__asm_form;

/* Every form of the catalogue the CPU with features `feats` has (all of them with ~0); *forms
 * malloc'd. TKS_ENOMEM. */
int tks__asm_catalog_forms(uint64_t feats, tks__asm_form **forms, size_t *n);

/* ---- the snippets of a form. A measurement is a form and a kind: throughput, or the latency
 * from source operand `src` to the destination operand (`dst`, the first written one). */
enum tks__asm_kind {
    TKS__KIND_THROUGHPUT = 0,
    TKS__KIND_LATENCY,       /* src -> dst through the form itself (src and dst the same register,
                              * or dst also a source) */
    TKS__KIND_LATENCY_ADDR,  /* the memory operand's address register -> dst, through the form and
                              * a masking AND, whose own latency (measured in the same batch) is
                              * subtracted */
    TKS__KIND_LATENCY_MEM    /* memory -> memory (a read-modify-write of the same address: the
                              * store forwarded to the next copy's load) */
};
typedef struct tks__asm_measure_spec {
    enum tks__asm_kind kind;
    int src, dst;            /* operand indices (latency), -1 for none */
    char key[96];            /* "T", "L1-0", "LA-0", "LM": the kind and the pair, for files */
} tks__asm_measure_spec;

/* The measurements form f can have: throughput always, one latency per chainable pair. */
size_t tks__asm_form_specs(const tks__asm_form *f, tks__asm_measure_spec *out, size_t max);

#define TKS__BATCH_VARIANTS 16
/* One snippet of a batch, ready to assemble: copy i of the unrolled loop is variant i % nvar. */
typedef struct tks__asm_snippet {
    enum tks_asm_mode mode;             /* throughput: loops of at least 256 bytes (asm/run.c) */
    size_t nvar;
    char *variant[TKS__BATCH_VARIANTS]; /* Intel syntax, malloc'd */
    char *init;                         /* run before each window (malloc'd; NULL: none) */
} tks__asm_snippet;

/* The snippet measuring spec of form f: TKS_EINVAL when the form has no such measurement. */
int tks__asm_form_snippet(const tks__asm_form *f, const tks__asm_measure_spec *spec,
                          tks__asm_snippet *s);
void tks__asm_snippet_free(tks__asm_snippet *s);
/* The init every catalogue snippet runs (malloc'd): general registers 1, rcx 3 (the shift
 * count), the 16 vector registers the catalogue names 1.0 in each double, MXCSR with denormals
 * as zero and flush to zero (no chain takes the slow denormal path), the mask registers all
 * ones; sse: then VZEROUPPER (legacy SSE forms, which some cores slow down on dirty upper
 * halves). It fits the kernel module's 256 bytes of init (about 205 with AVX-512). */
char *tks__asm_catalog_init(uint64_t feats, int sse);
/* The chaining instruction an address latency adds to each copy and subtracts: its own latency
 * is measured in the same batch, as the snippet tks__asm_addr_chain_snippet makes. */
#define TKS__ADDR_CHAIN "and rax, 0xfc0"
int tks__asm_addr_chain_snippet(uint64_t feats, tks__asm_snippet *s);

/* ---- the batch: several snippets, one assembler run, each in a child process of its own
 * (a snippet that faults costs only its own row), windows taken until the interval is narrow
 * enough or the budget is spent. */
typedef struct tks__asm_batch_options {
    double budget;        /* seconds per snippet at most (0: 0.1) */
    double min_budget;    /* seconds per snippet at least before the adaptive stop (0: 0.004) */
    double rel_width;     /* stop when the 95% interval's half-width is below this fraction of
                           * the value (0: 0.01) ... */
    double abs_width;     /* ... or below this many core cycles (0: 0.01) */
    double timeout;       /* a window longer than this is killed (0: 1 s) */
    int pin_cpu;          /* -1: not pinned */
    uint64_t quantum;     /* the timer's step (0: 1) */
    uint64_t scratch_bytes; /* R14's area (0: 1 MiB) */
    enum tks_where where; /* TKS_WHERE_USER (0): a child process each; else ring 0 through the
                           * kernel module (tks_asm_options.where), the budget spent whole */
    const char *kernel_device; /* NULL: /dev/tickscope */
} tks__asm_batch_options;

typedef struct tks__asm_batch_result {
    int rc;                   /* 0, or a TKS_E* code with error saying why */
    tks_asm_interval ticks;   /* per copy */
    tks_asm_interval cycles;  /* per copy, core cycles (NaN when no reference) */
    double r2;
    uint64_t windows;
    double seconds;           /* wall time this snippet took */
    char error[200];
} tks__asm_batch_result;

/* Measure n snippets; res[i] for snippet i. Returns 0 (each row's rc says how it went) or
 * TKS_EUNAVAIL (no `as`: every row fails alike), TKS_ENOMEM; in ring 0 also the module's
 * refusals (TKS_ENODEV, TKS_EPERM, TKS_EUNAVAIL, TKS_EPROTO: no module, not permitted, no
 * snippets allowed, another ABI), which every row then shares. done(ctx, k, n) after each. */
int tks__asm_measure_batch(const tks__asm_snippet *s, size_t n, const tks__asm_batch_options *o,
                           tks__asm_batch_result *res,
                           void (*done)(void *ctx, size_t k, size_t n), void *ctx);

#endif
