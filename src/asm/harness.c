/* SPDX-License-Identifier: MIT */
/* harness.c: the machine code around a snippet: save the callee-saved registers and the stack
 * pointer, point R14 at the scratch area and R15 at the loop count, run the init code, read the
 * clock, loop over the unrolled copies, read the clock again and restore everything. Generated
 * as bytes, so nothing a compiler decides sits inside the window. */
#include "asm/asm_internal.h"

#include <string.h>

#if defined(__linux__) && defined(__x86_64__)
#include <sys/mman.h>
#include <unistd.h>

#include "stats/unroll_fit.h"

/* Slots in the data page after the code: what the window's edges keep out of the registers. */
enum { S_RSP, S_RAX, S_RCX, S_RDX, S_START, S_AUX, S_R14, S_COUNT };

struct emit {
    unsigned char *p;
    size_t pos, data; /* data: offset of the data page from p */
};

static void put(struct emit *e, const char *bytes, size_t n)
{
    if (!n) /* no init code: bytes may be NULL */
        return;
    memcpy(e->p + e->pos, bytes, n);
    e->pos += n;
}
#define PUT(e, s) put(e, s, sizeof(s) - 1)

static void put32(struct emit *e, int32_t v)
{
    memcpy(e->p + e->pos, &v, 4);
    e->pos += 4;
}

/* A REX.W instruction with a RIP-relative operand: slot in the data page. reg: 0 rax, 1 rcx,
 * 2 rdx, 4 rsp. */
static void riprel(struct emit *e, unsigned char op, int reg, int slot)
{
    unsigned char b[3] = {0x48, op, (unsigned char)(reg << 3 | 5)};
    put(e, (const char *)b, 3);
    put32(e, (int32_t)((long)e->data + slot * 8 - (long)(e->pos + 4)));
}

/* The machine code of the fences and reads a method's sequences may name. */
static const struct encoding {
    const char *mn;
    const char *code;
} encodings[] = {
    {"lfence", "\x0f\xae\xe8"},
    {"mfence", "\x0f\xae\xf0"},
    {"serialize", "\x0f\x01\xe8"},
    {"rdtscp", "\x0f\x01\xf9"},
};

/* The harness's clock reads: those of this architecture's first method (lfence), from the method
 * list, except that the begin reading is an RDTSCP too, for the TSC_AUX it compares with the
 * end's: the fences before the begin reading (begin_pre), after it (begin_post), and the end
 * sequence, which must start with RDTSCP. */
struct reads {
    char begin_pre[32], begin_post[32], end[32];
};

/* Appends the code of steps[from, to) to out; -1 for a step that has no encoding here. */
static int encode(char (*steps)[TKS__STEP_LEN], size_t from, size_t to, char *out, size_t size)
{
    size_t len = 0;
    for (size_t k = from; k < to; k++) {
        size_t e = 0;
        while (e < sizeof encodings / sizeof encodings[0] && strcmp(encodings[e].mn, steps[k]))
            e++;
        if (e == sizeof encodings / sizeof encodings[0] || len + strlen(encodings[e].code) >= size)
            return -1;
        memcpy(out + len, encodings[e].code, strlen(encodings[e].code));
        len += strlen(encodings[e].code);
    }
    out[len] = 0;
    return 0;
}

static int reads_of_first_method(struct reads *r)
{
    const struct tks_method_info *mi = tks_method_info(TKS__METHOD_FIRST);
    char begin[6][TKS__STEP_LEN], end[6][TKS__STEP_LEN];
    size_t nb = tks__method_steps(mi->begin, begin, 6), ne = tks__method_steps(mi->end, end, 6), at;
    for (at = 0; at < nb && strcmp(begin[at], "rdtsc") != 0; at++)
        ;
    if (at == nb || ne == 0 || strcmp(end[0], "rdtscp") != 0 ||
        encode(begin, 0, at, r->begin_pre, sizeof r->begin_pre) != 0 ||
        encode(begin, at + 1, nb, r->begin_post, sizeof r->begin_post) != 0 ||
        encode(end, 0, ne, r->end, sizeof r->end) != 0)
        return TKS_EINVAL; /* a sequence this harness cannot spell */
    return 0;
}

static void emit_function(struct emit *e, const struct reads *r, const unsigned char *code,
                          const size_t *off, size_t nvar, const unsigned char *init,
                          size_t init_len, uint32_t copies, uint32_t align, size_t *loop_start,
                          size_t *loop_end)
{
    size_t top;
    PUT(e, "\x53\x55\x41\x54\x41\x55\x41\x56\x41\x57"); /* push rbx rbp r12 r13 r14 r15 */
    PUT(e, "\x48\x83\xec\x08");                         /* sub rsp, 8: a 16-byte aligned stack */
    riprel(e, 0x89, 4, S_RSP);                          /* mov [S_RSP], rsp */
    PUT(e, "\x49\x89\xfe\x49\x89\xf7");                 /* mov r14, rdi; mov r15, rsi */
    put(e, (const char *)init, init_len);
    /* The clock read needs rax, rcx and rdx: what init left there is put back after it. */
    riprel(e, 0x89, 0, S_RAX);
    riprel(e, 0x89, 1, S_RCX);
    riprel(e, 0x89, 2, S_RDX);
    if (tks_cpu_features_get()->rdtscp) {
        put(e, r->begin_pre, strlen(r->begin_pre)); /* lfence */
        PUT(e, "\x0f\x01\xf9");                     /* rdtscp */
    } else {
        /* no RDTSCP: the lfence_rdtsc method's read, and no CPU number (ecx 0 at both ends: a
         * migration is then not seen) */
        PUT(e, "\x0f\xae\xe8\x0f\x31\x31\xc9"); /* lfence; rdtsc; xor ecx, ecx */
    }
    PUT(e, "\x48\xc1\xe2\x20\x48\x09\xd0");             /* shl rdx, 32; or rax, rdx */
    riprel(e, 0x89, 0, S_START);
    riprel(e, 0x89, 1, S_AUX);
    riprel(e, 0x8b, 0, S_RAX);
    riprel(e, 0x8b, 1, S_RCX);
    riprel(e, 0x8b, 2, S_RDX);
    put(e, r->begin_post, strlen(r->begin_post)); /* lfence: nothing of the loop starts before */
    while (e->pos % align)
        PUT(e, "\x90");
    top = *loop_start = e->pos;
    for (uint32_t i = 0; i < copies; i++) {
        size_t v = i % nvar;
        put(e, (const char *)code + off[v], off[v + 1] - off[v]);
    }
    PUT(e, "\x49\xff\xcf\x0f\x85"); /* dec r15; jnz top */
    put32(e, (int32_t)((long)top - (long)(e->pos + 4)));
    *loop_end = e->pos;
    if (tks_cpu_features_get()->rdtscp)
        put(e, r->end, strlen(r->end)); /* rdtscp; lfence */
    else
        PUT(e, "\x0f\xae\xe8\x0f\x31\x31\xc9\x0f\xae\xe8"); /* lfence; rdtsc; xor ecx, ecx; lfence */
    PUT(e, "\x48\xc1\xe2\x20\x48\x09\xd0"); /* shl rdx, 32; or rax, rdx */
    riprel(e, 0x2b, 0, S_START);            /* sub rax, [S_START] */
    riprel(e, 0x3b, 1, S_AUX);              /* cmp rcx, [S_AUX]: another CPU, no sample */
    PUT(e, "\x74\x07\x48\xc7\xc0\xff\xff\xff\xff");
    PUT(e, "\x4c\x89\x35"); /* mov [S_R14], r14: where a pointer chase got to */
    put32(e, (int32_t)((long)e->data + S_R14 * 8 - (long)(e->pos + 4)));
    riprel(e, 0x8b, 4, S_RSP); /* mov rsp, [S_RSP]: whatever the snippet did to the stack */
    PUT(e, "\x48\x83\xc4\x08\x41\x5f\x41\x5e\x41\x5d\x41\x5c\x5d\x5b\xfc\xc3"); /* ...; cld; ret */
    PUT(e, "\xcc\xcc\xcc\xcc"); /* a snippet jumping past its end traps */
}

static size_t function_bound(const size_t *off, size_t nvar, size_t init_len, uint32_t copies,
                             uint32_t align)
{
    size_t most = 0;
    for (size_t v = 0; v < nvar; v++)
        if (off[v + 1] - off[v] > most)
            most = off[v + 1] - off[v];
    return 256 + init_len + align + most * copies + 64;
}

int tks__asm_harness_build(tks__asm_harness *h, const unsigned char *code, const size_t *off,
                           size_t nvar, const unsigned char *init, size_t init_len,
                           const uint32_t *unroll, uint32_t align)
{
    static const unsigned char ref_code[] = {0x48, 0x01, 0xc0}; /* add rax, rax */
    static const size_t ref_off[] = {0, sizeof ref_code};
    size_t page = (size_t)sysconf(_SC_PAGESIZE), total = 0;
    struct emit e;
    struct reads r;
    memset(h, 0, sizeof *h);
    if (reads_of_first_method(&r) != 0)
        return TKS_EINVAL;
    if (!align)
        align = 64;
    for (int j = 0; j < TKS_ASM_UNROLLS; j++)
        total += function_bound(off, nvar, init_len, unroll[j], align) +
                 function_bound(ref_off, 1, 0, unroll[j], 64) + 128;
    h->code_size = (total + page - 1) / page * page;
    h->size = h->code_size + page;
    h->mem = mmap(NULL, h->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (h->mem == MAP_FAILED) {
        h->mem = NULL;
        return TKS_ENOMEM;
    }
    memset(h->mem, 0xcc, h->code_size);
    e.p = h->mem;
    e.pos = 0;
    e.data = h->code_size;
    for (int j = 0; j < 2 * TKS_ASM_UNROLLS; j++) {
        int ref = j >= TKS_ASM_UNROLLS;
        e.pos = (e.pos + 63) / 64 * 64;
        h->fn[j] = (uint64_t(*)(void *, uint64_t))(void *)(h->mem + e.pos);
        if (ref)
            emit_function(&e, &r, ref_code, ref_off, 1, NULL, 0, unroll[j - TKS_ASM_UNROLLS],
                          64, &h->loop_start[j], &h->loop_end[j]);
        else
            emit_function(&e, &r, code, off, nvar, init, init_len, unroll[j], align,
                          &h->loop_start[j], &h->loop_end[j]);
    }
    h->r14_out = (void *const volatile *)(void *)(h->mem + h->code_size + S_R14 * 8);
    if (mprotect(h->mem, h->code_size, PROT_READ | PROT_EXEC) != 0) {
        tks__asm_harness_free(h);
        return TKS_EPERM;
    }
    return 0;
}

void tks__asm_harness_free(tks__asm_harness *h)
{
    if (h->mem)
        munmap(h->mem, h->size);
    memset(h, 0, sizeof *h);
}
#else
int tks__asm_harness_build(tks__asm_harness *h, const unsigned char *code, const size_t *off,
                           size_t nvar, const unsigned char *init, size_t init_len,
                           const uint32_t *unroll, uint32_t align)
{
    (void)code, (void)off, (void)nvar, (void)init, (void)init_len, (void)unroll, (void)align;
    memset(h, 0, sizeof *h);
    return TKS_EUNAVAIL;
}

void tks__asm_harness_free(tks__asm_harness *h)
{
    memset(h, 0, sizeof *h);
}
#endif
