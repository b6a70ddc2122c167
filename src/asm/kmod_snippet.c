/* SPDX-License-Identifier: MIT */
/* kmod_snippet.c: `tickscope asm --kernel`: the snippet's windows taken by the kernel module in ring 0
 * (the snippet workload of tickscope/kmod.h), the four unrolls as four ensembles of one request,
 * alternating with the add-chain reference, laid out as the child's rounds so that the same fit
 * reads them. */
#include "asm/asm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample/kmod_ensembles.h"
#include "tickscope/kmod.h"
#include "tickscope/sample.h"

#define SAMPLES 64      /* windows per unroll and request */
#define ROUNDS_MIN 32   /* as the child: four per block at least */
#define ROUNDS_MAX 8192
#define TARGET_MIN_TICKS 30000.0
#define TARGET_QUANTA 1000.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Why the module refuses snippets (enum tks_kmod_refusal), in the words of its README. */
static const char *refusal(uint32_t why)
{
    switch (why) {
    case TKS_KREFUSE_LOCKDOWN:
        return "the kernel is locked down (/sys/kernel/security/lockdown), and the module refuses "
               "snippets then, as the msr driver refuses MSR writes";
    case TKS_KREFUSE_PARAM:
        return "the module was loaded without allow_snippets=1, so it refuses snippets (rmmod "
               "tickscope; modprobe tickscope allow_snippets=1; see kmod/README.md)";
    case TKS_KREFUSE_ONE_CPU:
        return "only one CPU is online, and the module needs a second one to stop a snippet that "
               "does not return";
    case TKS_KREFUSE_KERNEL:
        return "this kernel (before 5.16) lacks the exception-table types the module catches a "
               "snippet's faults with, so it refuses snippets";
    case TKS_KREFUSE_MODULES:
        return "kernel.modules_disabled is set, and the module refuses snippets then: code in "
               "ring 0 is what loading a module gives";
    case TKS_KREFUSE_CAP:
        return "the module runs snippets only for a caller with CAP_SYS_MODULE besides "
               "CAP_SYS_RAWIO: code in ring 0 is what loading a module gives";
    default:
        return NULL;
    }
}

/* An exception's vector, as the SDM names it. */
static const char *vector_name(uint32_t v)
{
    static const char *const names[] = {
        [0] = "#DE (divide error)",   [1] = "#DB (debug)",
        [3] = "#BP (breakpoint, int3)", [4] = "#OF (overflow)",
        [5] = "#BR (bound range)",    [6] = "#UD (invalid opcode)",
        [7] = "#NM (device not available)", [12] = "#SS (stack fault)",
        [13] = "#GP (general protection)", [14] = "#PF (page fault)",
        [16] = "#MF (x87 floating point)", [17] = "#AC (alignment check)",
        [19] = "#XM (SIMD floating point)", [21] = "#CP (control protection)",
    };
    return v < sizeof names / sizeof names[0] && names[v] ? names[v] : "an exception";
}

/* The snippet's fault, as the module caught it (s->fault_*). */
static void fault_text(const struct tks__kernel_session *s, char *err, size_t errsz)
{
    if (s->fault_where == TKS_KFAULT_FLAGS) {
        snprintf(err, errsz, "--kernel: the snippet left RFLAGS changed (bits 0x%x: AC 0x40000, "
                 "NT 0x4000, DF 0x400, IF 0x200, TF 0x100) past the module's restore; the module "
                 "put them back and stopped the run", s->fault_offset);
        return;
    }
    snprintf(err, errsz, "--kernel: the snippet raised %s, vector %u, at byte %u of %s; the "
             "module caught it and stopped the run", vector_name(s->fault_vector),
             s->fault_vector, s->fault_offset,
             s->fault_where == TKS_KFAULT_CODE      ? "the code (one copy)"
             : s->fault_where == TKS_KFAULT_INIT    ? "the init code"
             : s->fault_where == TKS_KFAULT_OUTSIDE ? "an address outside the module's area "
                                                      "(after a jump out of the snippet)"
                                                    : "the module's harness around it (a jump "
                                                      "out of the snippet?)");
}

/* The module's word for what went wrong, and what to do; s is the open session (or NULL). */
static int explain(int rc, const char *device, const struct tks__kernel_session *s,
                   uint64_t sample_ticks, const tks__asm_kinfo *in, char *err, size_t errsz)
{
    const char *dev = device ? device : TKS_KMOD_DEVICE;
    if (s && (rc == TKS_EPERM || rc == TKS_EUNAVAIL) && refusal(s->snippet_refused)) {
        snprintf(err, errsz, "--kernel: %s", refusal(s->snippet_refused));
        return rc;
    }
    if (s && rc == TKS_EIO && s->fault_where) {
        fault_text(s, err, errsz);
        return rc;
    }
    switch (rc) {
    case TKS_ENODEV:
        snprintf(err, errsz, "--kernel: %s is missing: the kernel module is not loaded (modprobe "
                 "tickscope allow_snippets=1, or make kmod && insmod build/kmod/tickscope.ko "
                 "allow_snippets=1; see kmod/README.md)", dev);
        break;
    case TKS_EPERM:
        snprintf(err, errsz, "--kernel: %s: permission denied: the module wants CAP_SYS_RAWIO "
                 "(run as root)", dev);
        break;
    case TKS_EPROTO:
        snprintf(err, errsz, "--kernel: %s does not answer as this version's module (protocol "
                 "%d, with the snippet workload): rmmod tickscope, make kmod, insmod "
                 "build/kmod/tickscope.ko", dev, TKS_KMOD_ABI);
        break;
    case TKS_EBUSY:
        snprintf(err, errsz, "--kernel: %s is busy: another process has it open, or a run "
                 "that was given up is still finishing", dev);
        break;
    case TKS_ERANGE: {
        double us = in->tsc_khz ? (double)sample_ticks * 1000.0 / (double)in->tsc_khz : 0;
        snprintf(err, errsz, "--kernel: the module refused the snippet: one window took %llu "
                 "ticks (%.0f us), past the %u us interrupts-off bound (a snippet that does not "
                 "return is stopped at that bound, %u ms at least in a virtual machine, and "
                 "refused so)",
                 (unsigned long long)sample_ticks, us, in->section_us, TKS_KMOD_ESCAPE_MS);
        break;
    }
    case TKS_ETIME:
        snprintf(err, errsz, "--kernel: the run reached the module's max_run_ms, or a window did "
                 "not return and the module stopped it at its %u us interrupts-off bound (%u ms "
                 "at least in a virtual machine)", in->section_us, TKS_KMOD_ESCAPE_MS);
        break;
    default:
        snprintf(err, errsz, "--kernel: %s: %s", dev, tks_strerror(rc));
        break;
    }
    return rc;
}

/* The method the module reads the clock with: the fenced one user space's harness uses. */
static int pick_method(uint32_t methods, enum tks_method *m)
{
    static const enum tks_method pref[] = {TKS_METHOD_LFENCE, TKS_METHOD_RDTSCP,
                                           TKS_METHOD_SERIALIZE, TKS_METHOD_MFENCE,
                                           TKS_METHOD_CPUID};
    for (size_t i = 0; i < sizeof pref / sizeof pref[0]; i++)
        if (methods & (1u << pref[i])) {
            *m = pref[i];
            return 0;
        }
    return TKS_EUNAVAIL;
}

/* The shortest of a request's windows. */
static uint64_t shortest(const uint64_t *t, size_t n)
{
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (t[i] < best)
            best = t[i];
    return best;
}

struct job {
    struct tks__kernel_session *s;
    struct tks__kernel_snippet q;
    uint64_t *buf, sample_ticks;
    struct tks__ensemble_counts counts;
};

/* Loops per window for the largest unroll: 1 and 9 iterations differenced, as the child, and
 * the window kept within a quarter of the interrupts-off bound. */
static int choose_loops(struct job *j, const tks__asm_kplan *p, const tks__asm_kinfo *in,
                        uint32_t *loops)
{
    struct tks__kernel_snippet q = j->q;
    double target = TARGET_QUANTA * (double)p->quantum, bound, iter;
    uint64_t t1, t9;
    int rc;
    q.copies_start = p->unroll[TKS_ASM_UNROLLS - 1] / (uint32_t)p->nvar;
    q.copies_step = 0;
    q.ensembles = 1;
    q.samples = 16;
    q.loops = 1;
    if ((rc = tks__kernel_snippet(j->s, &q, j->buf, &j->counts, &j->sample_ticks)) != 0)
        return rc;
    t1 = shortest(j->buf, 16);
    q.loops = 9;
    if ((rc = tks__kernel_snippet(j->s, &q, j->buf, &j->counts, &j->sample_ticks)) != 0)
        return rc;
    t9 = shortest(j->buf, 16);
    iter = t9 > t1 ? (double)(t9 - t1) / 8 : (double)t9 / 9;
    if (target < TARGET_MIN_TICKS)
        target = TARGET_MIN_TICKS;
    bound = (double)(in->tsc_khz ? in->tsc_khz : 100000) * in->section_us / 1000.0 / 4;
    if (target > bound)
        target = bound;
    target /= iter > 1 ? iter : 1;
    *loops = target < 1 ? 1 : target > TKS_KMOD_SNIPPET_LOOPS_MAX ? TKS_KMOD_SNIPPET_LOOPS_MAX
                                                                  : (uint32_t)target;
    return 0;
}

/* One request of the four unrolls into rounds [base, base + SAMPLES) of out. */
static int take(struct job *j, uint64_t *out, size_t base)
{
    int rc = tks__kernel_snippet(j->s, &j->q, j->buf, &j->counts, &j->sample_ticks);
    for (size_t k = 0; !rc && k < TKS_ASM_UNROLLS; k++)
        for (size_t s = 0; s < SAMPLES; s++)
            out[(base + s) * TKS_ASM_UNROLLS + k] = j->buf[k * SAMPLES + s];
    return rc;
}

static void job_init(struct job *j, struct tks__kernel_session *s, const tks__asm_kplan *p,
                     const unsigned char *code, size_t len, size_t nvar, uint64_t *buf)
{
    memset(j, 0, sizeof *j);
    j->s = s;
    j->buf = buf;
    j->q.code = code;
    j->q.code_len = (uint32_t)len;
    j->q.init = code == p->code ? p->init : NULL;
    j->q.init_len = code == p->code ? (uint32_t)p->init_len : 0;
    j->q.scratch_bytes = (uint32_t)p->scratch_bytes;
    j->q.align = p->align;
    j->q.copies_start = p->unroll[0] / (uint32_t)nvar;
    j->q.copies_step = (p->unroll[1] - p->unroll[0]) / (uint32_t)nvar;
    j->q.ensembles = TKS_ASM_UNROLLS;
    j->q.samples = SAMPLES;
}

static int check_sizes(const tks__asm_kplan *p, char *err, size_t errsz)
{
    if (p->code_len > TKS_KMOD_SNIPPET_CODE_MAX) {
        snprintf(err, errsz, "--kernel: the snippet is %zu bytes a copy%s; the module takes at "
                 "most %u", p->code_len, p->nvar > 1 ? " (16 register variants in throughput "
                 "mode)" : "", TKS_KMOD_SNIPPET_CODE_MAX);
        return TKS_EINVAL;
    }
    if (p->init_len > TKS_KMOD_SNIPPET_INIT_MAX) {
        snprintf(err, errsz, "--kernel: the init code is %zu bytes; the module takes at most %u",
                 p->init_len, TKS_KMOD_SNIPPET_INIT_MAX);
        return TKS_EINVAL;
    }
    if (p->scratch_bytes > TKS_KMOD_SCRATCH_MAX) {
        snprintf(err, errsz, "--kernel: --scratch is at most %uM in the module",
                 TKS_KMOD_SCRATCH_MAX >> 20);
        return TKS_EINVAL;
    }
    return 0;
}

int tks__asm_kernel_run(const tks__asm_kplan *p, tks__asm_windows *w, tks__asm_kinfo *info,
                        char *err, size_t errsz)
{
    static const unsigned char ref_code[] = {0x48, 0x01, 0xc0}; /* add rax, rax */
    struct tks__kernel_session s;
    tks_kernel_info ki;
    enum tks_method m;
    struct job snip, ref;
    uint64_t *buf = NULL;
    size_t rounds = 0;
    uint32_t loops = 1, ref_loops = 1;
    double start;
    int rc;
    memset(w, 0, sizeof *w);
    memset(info, 0, sizeof *info);
    memset(&snip, 0, sizeof snip);
    memset(&ref, 0, sizeof ref);
    info->cpu_used = -1;
    if ((rc = check_sizes(p, err, errsz)) != 0)
        return rc;
    if ((rc = tks_kernel_probe(p->device, &ki)) != 0)
        return explain(rc, p->device, NULL, 0, info, err, errsz);
    info->tsc_khz = ki.tsc_khz;
    info->section_us = ki.section_us;
    if (pick_method(ki.methods, &m) != 0)
        return explain(TKS_EUNAVAIL, p->device, NULL, 0, info, err, errsz);
    info->method = tks_method_info(m)->name;
    if ((rc = tks__kernel_open(&s, p->device, p->where, m, p->cpu)) != 0)
        return explain(rc, p->device, NULL, 0, info, err, errsz);
    if (p->where == TKS_WHERE_USER) {
        rc = TKS_EINVAL;
        goto out;
    }
    if (s.snippet_refused) { /* said before any request, in the module's words */
        rc = s.snippet_refused == TKS_KREFUSE_ONE_CPU || s.snippet_refused == TKS_KREFUSE_KERNEL
                 ? TKS_EUNAVAIL
                 : TKS_EPERM;
        goto out;
    }
    buf = malloc(TKS_ASM_UNROLLS * SAMPLES * sizeof *buf);
    w->snip = malloc(ROUNDS_MAX * TKS_ASM_UNROLLS * sizeof *w->snip);
    w->ref = malloc(ROUNDS_MAX * TKS_ASM_UNROLLS * sizeof *w->ref);
    if (!buf || !w->snip || !w->ref) {
        rc = TKS_ENOMEM;
        goto out;
    }
    job_init(&snip, &s, p, p->code, p->code_len, p->nvar, buf);
    job_init(&ref, &s, p, ref_code, sizeof ref_code, 1, buf);
    if ((rc = choose_loops(&snip, p, info, &loops)) != 0 ||
        (rc = choose_loops(&ref, p, info, &ref_loops)) != 0)
        goto out;
    snip.q.loops = loops;
    ref.q.loops = ref_loops;
    start = now();
    while (rounds + SAMPLES <= ROUNDS_MAX) {
        if ((rc = take(&snip, w->snip, rounds)) != 0 || (rc = take(&ref, w->ref, rounds)) != 0)
            goto out;
        rounds += SAMPLES;
        if (rounds >= ROUNDS_MIN && now() - start >= p->budget)
            break;
    }
    w->rounds = rounds;
    w->loops = loops;
    w->ref_loops = ref_loops;
    info->cpu_used = s.cpu_used;
    info->section_max_ticks = s.section_max_ticks;
out:
    if (rc) {
        explain(rc, p->device, &s,
                snip.sample_ticks > ref.sample_ticks ? snip.sample_ticks : ref.sample_ticks, info,
                err, errsz);
        free(w->snip);
        free(w->ref);
        memset(w, 0, sizeof *w);
    }
    free(buf);
    tks__kernel_close(&s);
    return rc;
}

size_t tks__asm_kernel_loop(const tks__asm_kplan *p, unsigned char *out, size_t size)
{
    size_t copies = p->unroll[0] / p->nvar, n = 0;
    int32_t rel;
    if (copies * p->code_len + 9 > size)
        return 0;
    for (size_t i = 0; i < copies; i++, n += p->code_len)
        memcpy(out + n, p->code, p->code_len);
    memcpy(out + n, "\x49\xff\xcf\x0f\x85", 5); /* dec r15; jnz top, as the module writes it */
    n += 5;
    rel = -(int32_t)(n + 4);
    memcpy(out + n, &rel, 4);
    return n + 4;
}
