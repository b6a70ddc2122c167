/* SPDX-License-Identifier: MIT */
/* run.c: tks_asm_run: a snippet from text to cost per copy: variants assembled, the harness
 * built, windows taken in a child, the snippet and the add-chain reference fitted over the
 * unrolls, and the loop that ran disassembled. */
#include "asm/asm_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "base/diag.h"
#include "tickscope/kmod.h"

/* The smallest unroll holds at least this much code in user space: with 16 copies of a
 * five-byte andn (80 bytes a loop) the unrolls did not lie on a line and read 0.145 cycles a
 * copy, below the six ALUs' 0.167, and 16 copies of mov r64, imm 0.1653, where 64 copies read
 * 0.1667 for both (Zen 5 guest): the loop's own edges are not a constant cost per iteration
 * when an iteration lasts a few cycles. */
#define UNROLL_BYTES 256

/* Copies per loop iteration for nvar variants of len bytes in all: multiples of nvar, so every
 * unroll holds each register's copies equally often, the smallest at least 16 copies and, with
 * wide (throughput mode in user space), UNROLL_BYTES of code. Latency mode's iterations last
 * a chain of 16 copies already; the module builds its own copies, 16 a step as before. */
static void choose_unrolls(size_t nvar, size_t len, int wide, uint32_t u[TKS_ASM_UNROLLS])
{
    size_t per = len / (nvar ? nvar : 1), want = 16, m;
    if (wide && per > 0 && (UNROLL_BYTES + per - 1) / per > want)
        want = (UNROLL_BYTES + per - 1) / per;
    nvar = nvar ? nvar : 1;
    m = (want + nvar - 1) / nvar * nvar;
    for (int j = 0; j < TKS_ASM_UNROLLS; j++)
        u[j] = (uint32_t)(m * (size_t)(j + 1));
}

void tks_asm_options_init(tks_asm_options *o)
{
    memset(o, 0, sizeof *o);
    o->syntax = TKS_ASM_INTEL;
    o->mode = TKS_ASM_LATENCY;
    o->align = 64;
    o->budget = 0.3;
    o->timeout = 2;
    o->pin_cpu = -1;
    o->quantum = 1;
}

static int fail(tks_asm_result *r, int rc, const char *msg)
{
    if (!r->error[0])
        snprintf(r->error, sizeof r->error, "%s", msg);
    return rc;
}

/* --chain: a general register the harness leaves free, or xmmN / ymmN. */
static int parse_chain(const char *chain, const char **gpr, int *xmm)
{
    static const char *const ok[] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp",
                                     "r8",  "r9",  "r10", "r11", "r12", "r13"};
    const char *c = chain[0] == '%' ? chain + 1 : chain;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcasecmp(c, ok[i]) == 0) {
            *gpr = ok[i];
            return 0;
        }
    if ((strncasecmp(c, "xmm", 3) == 0 || strncasecmp(c, "ymm", 3) == 0) && c[3]) {
        char *end;
        long n = strtol(c + 3, &end, 10);
        if (!*end && n >= 0 && n < 16) {
            *xmm = (int)n;
            return 0;
        }
    }
    return TKS_EINVAL;
}

void tks_asm_result_free(tks_asm_result *r)
{
    if (r)
        tks_diags_free(&r->diags);
}

/* The snippet's bytes: nvar variants at off[]. */
static int snippet_bytes(const tks_asm_options *o, tks_asm_result *r, unsigned char **bytes,
                         size_t *off, size_t *nvar)
{
    const char *gpr = "rax";
    int xmm = 0, rc = 0;
    char *text[TKS__ASM_VARIANTS] = {0};
    if (o->chain && parse_chain(o->chain, &gpr, &xmm) != 0) {
        snprintf(r->error, sizeof r->error, "--chain: '%s' is not a register the snippet may "
                 "chain through (rax..r13 but r14, r15 and rsp, or xmm0..xmm15)", o->chain);
        return TKS_EINVAL;
    }
    if (o->syntax == TKS_ASM_HEX) {
        *nvar = 1;
        rc = tks__asm_hex(o->code, bytes, &off[1], r->error, sizeof r->error);
        off[0] = 0;
        return rc;
    }
    *nvar = o->mode == TKS_ASM_THROUGHPUT && tks__asm_has_placeholder(o->code)
                ? (o->where == TKS_WHERE_USER ? tks__asm_variant_count(o->code)
                                              : TKS__ASM_VARIANTS) : 1;
    for (size_t v = 0; v < *nvar && !rc; v++) {
        if (*nvar > 1)
            tks__asm_variant_regs(o->code, (unsigned)v, &gpr, &xmm);
        if (!(text[v] = tks__asm_expand(o->code, o->syntax, gpr, xmm)))
            rc = TKS_ENOMEM;
    }
    if (!rc)
        rc = tks__asm_assemble((const char *const *)text, *nvar, o->syntax, "snippet", bytes,
                               off, r->error, sizeof r->error);
    for (size_t v = 0; v < *nvar; v++)
        free(text[v]);
    return rc;
}

/* The scratch area; with chase_bytes, a random cycle through its cache lines, each line's first
 * word the next line's address (a fixed seed: the same chain every run). Returns R14's value. */
static void *scratch_make(const tks_asm_options *o, void **base, size_t *size)
{
    size_t bytes = o->scratch_bytes ? o->scratch_bytes : (size_t)1 << 20;
    size_t lines = o->chase_bytes / 64;
    unsigned char *s;
    if (o->chase_bytes > bytes)
        bytes = o->chase_bytes;
    s = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED)
        return NULL;
    *base = s;
    *size = bytes;
#ifdef MADV_HUGEPAGE
    /* Huge pages where the kernel offers them: a chase over 4 KiB pages would time the page
     * walks (two-dimensional in a guest) as much as the caches. */
    if (o->chase_bytes >= ((size_t)2 << 20))
        madvise(s, bytes, MADV_HUGEPAGE);
#endif
    if (lines >= 2) {
        size_t *perm = malloc(lines * sizeof *perm);
        uint64_t x = 0x9e3779b97f4a7c15u;
        if (!perm) {
            munmap(s, bytes);
            return NULL;
        }
        for (size_t i = 0; i < lines; i++)
            perm[i] = i;
        for (size_t i = lines - 1; i > 1; i--) { /* Sattolo: one cycle through every line */
            size_t j;
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            j = (size_t)(x % i);
            size_t t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (size_t i = 0; i < lines; i++) {
            void *next = s + 64 * perm[i];
            memcpy(s + 64 * i, &next, sizeof next);
        }
        free(perm);
    }
    return s;
}

/* The loop that ran (len bytes at code), into r->disasm: its start and end when it is long. */
static void disassemble(const unsigned char *code, size_t len, enum tks_asm_syntax syntax,
                        tks_asm_result *r)
{
    enum { MAXL = 2048 };
    char (*all)[128] = malloc(MAXL * sizeof *all), err[256];
    int n;
    if (!all)
        return;
    n = tks__asm_disassemble(code, len, syntax == TKS_ASM_ATT ? TKS_ASM_ATT : TKS_ASM_INTEL, all, MAXL,
                             err, sizeof err);
    if (n <= TKS_ASM_DISASM_MAX) {
        for (int i = 0; i < n; i++)
            memcpy(r->disasm[i], all[i], sizeof all[i]);
        r->n_disasm = n > 0 ? (size_t)n : 0;
    } else {
        size_t keep = TKS_ASM_DISASM_MAX - 3;
        for (size_t i = 0; i < keep; i++)
            memcpy(r->disasm[i], all[i], sizeof all[i]);
        snprintf(r->disasm[keep], sizeof r->disasm[0], "... %d more instructions",
                 n - (int)keep - 2);
        memcpy(r->disasm[keep + 1], all[n - 2], sizeof all[0]);
        memcpy(r->disasm[keep + 2], all[n - 1], sizeof all[0]);
        r->n_disasm = TKS_ASM_DISASM_MAX;
    }
    if (n < 0)
        tks__diag(&r->diags, TKS_DIAG_ASM_NO_DISASM, TKS__DS(err));
    free(all);
}

int tks__asm_take_code(const tks_asm_options *o, const tks__asm_adaptive *ad,
                       tks_asm_result *r, const unsigned char *code, const size_t *off,
                       size_t nvar, const unsigned char *init, size_t init_len, int disasm,
                       tks__asm_windows *w, uint64_t *quantum)
{
    tks__asm_harness h;
    tks__asm_plan plan;
    void *base = NULL;
    size_t size = 0;
    int rc;
    choose_unrolls(nvar, off[nvar] - off[0], o->mode == TKS_ASM_THROUGHPUT, r->unroll);
    rc = tks__asm_harness_build(&h, code, off, nvar, init, init_len, r->unroll, o->align);
    if (rc)
        return fail(r, rc, "cannot build the harness (executable memory refused?)");
    memset(&plan, 0, sizeof plan);
    plan.h = &h;
    plan.unroll = r->unroll;
    plan.off = off;
    plan.nvar = nvar;
    plan.budget = o->budget > 0 ? o->budget : 0.3;
    plan.timeout = o->timeout > 0 ? o->timeout : 2;
    plan.quantum = o->quantum ? o->quantum : 1;
    plan.pin_cpu = o->pin_cpu;
    plan.chase = o->chase_bytes >= 128;
    if (ad)
        plan.adaptive = *ad;
    if (!(plan.scratch = scratch_make(o, &base, &size))) {
        tks__asm_harness_free(&h);
        return fail(r, TKS_ENOMEM, "cannot allocate the scratch area");
    }
    memset(w, 0, sizeof *w);
    rc = tks__asm_child_run(&plan, w, r->error, sizeof r->error);
    munmap(base, size);
    if (!rc && disasm) {
        disassemble(h.mem + h.loop_start[0], h.loop_end[0] - h.loop_start[0], o->syntax, r);
    }
    *quantum = plan.quantum;
    tks__asm_harness_free(&h);
    return rc;
}

int tks__asm_measure_code(const tks_asm_options *o, const tks__asm_adaptive *ad,
                          tks_asm_result *r, const unsigned char *code, const size_t *off,
                          size_t nvar, const unsigned char *init, size_t init_len, int disasm)
{
    tks__asm_windows w;
    uint64_t quantum;
    int rc = tks__asm_take_code(o, ad, r, code, off, nvar, init, init_len, disasm, &w, &quantum);
    if (!rc)
        rc = tks__asm_fit(r, &w, quantum);
    free(w.snip);
    free(w.ref);
    return rc;
}

/* --kernel: the variants back to back are the module's one copy. */
int tks__asm_measure_kernel(const tks_asm_options *o, tks_asm_result *r,
                            const unsigned char *code, const size_t *off, size_t nvar,
                            const unsigned char *init, size_t init_len, int disasm)
{
    tks__asm_kplan p;
    tks__asm_kinfo info;
    tks__asm_windows w;
    unsigned char *loop;
    size_t n;
    int rc;
    if (o->chase_bytes)
        return fail(r, TKS_EINVAL, "--chase is not offered with --kernel (the module's scratch "
                                   "area is zeroed and its own)");
    memset(&p, 0, sizeof p);
    p.code = code;
    p.code_len = off[nvar] - off[0];
    p.nvar = nvar;
    p.init = init;
    p.init_len = init_len;
    choose_unrolls(nvar, p.code_len, 0, r->unroll);
    p.unroll = r->unroll;
    if ((rc = tks__asm_check_stack(code + off[0], p.code_len,
                                   r->unroll[TKS_ASM_UNROLLS - 1] / (uint32_t)nvar, init, init_len,
                                   r->error, sizeof r->error)) != 0)
        return rc;
    p.align = o->align;
    p.scratch_bytes = o->scratch_bytes ? o->scratch_bytes : (uint64_t)1 << 20;
    p.budget = o->budget > 0 ? o->budget : 0.3;
    p.quantum = o->quantum ? o->quantum : 1;
    p.where = o->where;
    p.device = o->kernel_device;
    p.cpu = o->pin_cpu;
    rc = tks__asm_kernel_run(&p, &w, &info, r->error, sizeof r->error);
    if (rc)
        return rc;
    r->ring = 0;
    r->kernel_cpu = info.cpu_used;
    r->section_max_ticks = info.section_max_ticks;
    if (disasm && (loop = malloc(TKS_KMOD_SNIPPET_BODY_MAX + 16)) != NULL) {
        n = tks__asm_kernel_loop(&p, loop, TKS_KMOD_SNIPPET_BODY_MAX + 16);
        disassemble(loop, n, o->syntax, r);
        free(loop);
    }
    rc = tks__asm_fit(r, &w, p.quantum);
    free(w.snip);
    free(w.ref);
    return rc;
}

/* Windows taken in user space, recorded (sink not NULL) before they are fitted. */
static int measure_recorded(const tks_asm_options *o, const tks__rec_sink *sink,
                            tks_asm_result *r, const unsigned char *code, const size_t *off,
                            size_t nvar, const unsigned char *init, size_t init_len)
{
    tks__asm_windows w;
    uint64_t quantum;
    int rc = tks__asm_take_code(o, NULL, r, code, off, nvar, init, init_len, 1, &w, &quantum);
    if (!rc && tks__asm_record(sink, o, r, &w, quantum) != 0)
        rc = fail(r, TKS_EIO, "--record: cannot write the recording");
    if (!rc)
        rc = tks__asm_fit(r, &w, quantum);
    free(w.snip);
    free(w.ref);
    return rc;
}

int tks__asm_run_recorded(const tks_asm_options *o, const tks__rec_sink *sink, tks_asm_result *r)
{
    unsigned char *code = NULL, *init = NULL;
    size_t off[TKS__ASM_VARIANTS + 1], ioff[2] = {0, 0}, nvar = 0;
    int rc;
    if (!r)
        return TKS_EINVAL;
    memset(r, 0, sizeof *r);
    if (!o || !o->code || !*o->code)
        return fail(r, TKS_EINVAL, "no snippet given");
    if (o->align & (o->align - 1) || o->align > 4096)
        return fail(r, TKS_EINVAL, "--align must be a power of two up to 4096");
    r->mode = o->mode;
    if ((rc = tks__asm_check_syntax(o->code, o->syntax, "the snippet", r->error,
                                    sizeof r->error)) != 0 ||
        (o->init && (rc = tks__asm_check_syntax(o->init, o->syntax == TKS_ASM_ATT ? TKS_ASM_ATT
                                                                                : TKS_ASM_INTEL,
                                                "the init code", r->error,
                                                sizeof r->error)) != 0))
        return rc;
    if ((rc = snippet_bytes(o, r, &code, off, &nvar)) != 0)
        return fail(r, rc, "cannot assemble the snippet");
    if ((rc = tks__asm_check_copies(code, off, nvar, o->where == TKS_WHERE_USER, r->error,
                                    sizeof r->error)) != 0) {
        free(code);
        return rc;
    }
    if (o->init && *o->init) {
        char *text = tks__asm_expand(o->init, o->syntax == TKS_ASM_ATT ? TKS_ASM_ATT
                                                                      : TKS_ASM_INTEL, "rax", 0);
        const char *v[1] = {text};
        rc = text ? tks__asm_assemble(v, 1, o->syntax == TKS_ASM_ATT ? TKS_ASM_ATT
                                                                    : TKS_ASM_INTEL,
                                      "init", &init, ioff, r->error, sizeof r->error)
                  : TKS_ENOMEM;
        free(text);
        if (rc) {
            free(code);
            return fail(r, rc, "cannot assemble the init code");
        }
    }
    r->code_bytes = off[1] - off[0];
    if (o->chain && !tks__asm_has_placeholder(o->code))
        tks__diag0(&r->diags, TKS_DIAG_ASM_CHAIN_UNUSED);
    if (o->mode == TKS_ASM_THROUGHPUT && nvar == 1)
        tks__diag0(&r->diags, TKS_DIAG_ASM_SAME_COPIES);
    r->ring = 3;
    r->kernel_cpu = -1;
    if (sink && o->where != TKS_WHERE_USER)
        rc = fail(r, TKS_EINVAL, "--record records user-space runs only, not --kernel");
    else
        rc = o->where != TKS_WHERE_USER
                 ? tks__asm_measure_kernel(o, r, code, off, nvar, init, ioff[1], 1)
             : sink ? measure_recorded(o, sink, r, code, off, nvar, init, ioff[1])
                    : tks__asm_measure_code(o, NULL, r, code, off, nvar, init, ioff[1], 1);
    free(code);
    free(init);
    if (!rc)
        tks__asm_linear_check(r);
    return rc;
}

int tks_asm_run(const tks_asm_options *o, tks_asm_result *r)
{
    return tks__asm_run_recorded(o, NULL, r);
}
