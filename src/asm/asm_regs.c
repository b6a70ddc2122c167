/* SPDX-License-Identifier: MIT */
/* asm_regs.c: which registers an Intel-syntax body names, reads and writes, from its text: for
 * --ports (registers a mix may not take) and --explain (registers free for added work, and the
 * ones carrying a chain from copy to copy). Explicit operands only: implicit ones (mul's rdx,
 * flags) are not seen. */
#include "asm/asm_regs.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tickscope/asm_explain.h"

static const char *const gpr64[16] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const gpr32[16] = {"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp",
                                      "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d",
                                      "r15d"};
static const char *const gpr16[16] = {"ax", "bx", "cx", "dx", "si", "di", "bp", "sp",
                                      "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w",
                                      "r15w"};
static const char *const gpr8[16] = {"al", "bl", "cl", "dl", "sil", "dil", "bpl", "spl",
                                     "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b",
                                     "r15b"};

/* "12" -> 12; -1 when not all digits. */
static int atoi_digits(const char *s)
{
    int n = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s) || n > 100)
            return -1;
        n = n * 10 + (*s - '0');
    }
    return n;
}

/* The register word w (lower case) as an id: 0..15 general, 16..47 vector (16 + n), with its
 * width in *bits (vector: 128, 256, 512); -1 when w is no register. */
static int reg_id(const char *w, int *bits)
{
    for (int i = 0; i < 16; i++) {
        if (!strcmp(w, gpr64[i]) || !strcmp(w, gpr32[i]) || !strcmp(w, gpr16[i]) ||
            !strcmp(w, gpr8[i]) || (i < 4 && w[0] == "abcd"[i] && w[1] == 'h' && !w[2])) {
            *bits = 64;
            return i;
        }
    }
    if ((w[0] == 'x' || w[0] == 'y' || w[0] == 'z') && w[1] == 'm' && w[2] == 'm' &&
        isdigit((unsigned char)w[3])) {
        int n = atoi_digits(w + 3);
        if (n >= 0 && n < 32) {
            *bits = w[0] == 'x' ? 128 : w[0] == 'y' ? 256 : 512;
            return 16 + n;
        }
    }
    return -1;
}

/* Calls fn for each register word in text[0..len). */
static void each_reg(const char *text, size_t len, void (*fn)(void *, int, int), void *arg)
{
    for (size_t i = 0; i < len;) {
        if (isalpha((unsigned char)text[i]) && (i == 0 || !isalnum((unsigned char)text[i - 1]))) {
            char w[16];
            size_t n = 0;
            int bits, id;
            while (i < len && isalnum((unsigned char)text[i]) && n < sizeof w - 1)
                w[n++] = (char)tolower((unsigned char)text[i++]);
            w[n] = 0;
            while (i < len && isalnum((unsigned char)text[i]))
                i++;
            if ((id = reg_id(w, &bits)) >= 0)
                fn(arg, id, bits);
        } else {
            i++;
        }
    }
}

static void mark(void *arg, int id, int bits)
{
    tks__asm_regset *s = arg;
    s->named |= (uint64_t)1 << id;
    if (id >= 16 && bits > s->width[id - 16])
        s->width[id - 16] = bits;
}

void tks__asm_regs_named(const char *code, tks__asm_regset *s)
{
    memset(s, 0, sizeof *s);
    each_reg(code, strlen(code), mark, s);
}

const char *tks__asm_gpr_name(int id)
{
    return id >= 0 && id < 16 ? gpr64[id] : "?";
}

/* Mnemonics whose first operand is written without being read. */
static int writes_only(const char *mn, int nops)
{
    static const char *const pre[] = {"mov", "lea", "set", "pop", "cvt", "vmov", "vcvt", "vbroadcast",
                                      "vpbroadcast", "pext", "pdep", "andn", "shlx", "shrx", "sarx",
                                      "rorx", "bzhi", "bls", "popcnt", "lzcnt", "tzcnt", "vextract",
                                      "vperm", "vpshuf", "pshuf", "vshuf", "sqrt", "rcp", "rsqrt"};
    if (!strncmp(mn, "vfm", 3) || !strncmp(mn, "vfnm", 4) || !strncmp(mn, "vpdp", 4) ||
        !strncmp(mn, "vpermi2", 7) || !strncmp(mn, "vpermt2", 7))
        return 0; /* FMA and friends accumulate into their destination */
    if (!strcmp(mn, "imul") && nops == 3)
        return 1;
    if (mn[0] == 'v' && nops >= 3)
        return 1; /* VEX three-operand forms: the destination is not a source */
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (!strncmp(mn, pre[i], strlen(pre[i])))
            return 1;
    return 0;
}

typedef struct flow {
    uint64_t written, live_in, all_written;
    int width[32];
} flow;

static void read_reg(void *arg, int id, int bits)
{
    flow *f = arg;
    if (!(f->written & ((uint64_t)1 << id)))
        f->live_in |= (uint64_t)1 << id;
    if (id >= 16 && bits > f->width[id - 16])
        f->width[id - 16] = bits;
}

static void write_reg(void *arg, int id, int bits)
{
    flow *f = arg;
    f->written |= (uint64_t)1 << id;
    f->all_written |= (uint64_t)1 << id;
    if (id >= 16 && bits > f->width[id - 16])
        f->width[id - 16] = bits;
}

/* One instruction text (no ';'): its reads, then its write. */
static void one_instruction(const char *s, size_t len, flow *f)
{
    char mn[24];
    size_t i = 0, n = 0, start, ops[8][2], nops = 0;
    int depth = 0, zero_idiom;
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    if (i == len || s[i] == '.' || s[i] == '#')
        return;
    while (i < len && !isspace((unsigned char)s[i]) && n < sizeof mn - 1)
        mn[n++] = (char)tolower((unsigned char)s[i++]);
    mn[n] = 0;
    if (!strcmp(mn, "lock") || !strcmp(mn, "rep"))
        return one_instruction(s + i, len - i, f);
    for (start = i; i <= len && nops < 8; i++) {
        if (i < len && s[i] == '[')
            depth++;
        else if (i < len && s[i] == ']')
            depth--;
        else if (i == len || (s[i] == ',' && depth == 0)) {
            ops[nops][0] = start, ops[nops][1] = i;
            nops++;
            start = i + 1;
        }
    }
    if (nops == 1 && ops[0][1] - ops[0][0] == 0)
        nops = 0;
    /* xor r, r and friends: no input */
    zero_idiom = nops == 2 && (strstr(mn, "xor") || !strcmp(mn, "sub") || !strcmp(mn, "psubd")) &&
                 ops[0][1] - ops[0][0] == ops[1][1] - ops[1][0] &&
                 !strncmp(s + ops[0][0], s + ops[1][0], ops[0][1] - ops[0][0]);
    if (nops >= 3 && mn[0] == 'v' && strstr(mn, "xor") &&
        ops[1][1] - ops[1][0] == ops[2][1] - ops[2][0] &&
        !strncmp(s + ops[1][0], s + ops[2][0], ops[1][1] - ops[1][0]))
        zero_idiom = 1;
    for (size_t k = 0; k < nops; k++) {
        const char *o = s + ops[k][0];
        size_t ol = ops[k][1] - ops[k][0];
        int memory = memchr(o, '[', ol) != NULL;
        if (zero_idiom)
            break;
        if (k == 0 && !memory && writes_only(mn, (int)nops))
            continue;
        each_reg(o, ol, read_reg, f);
    }
    if (nops > 0 && !memchr(s + ops[0][0], '[', ops[0][1] - ops[0][0]) && strcmp(mn, "cmp") &&
        strcmp(mn, "test") && strcmp(mn, "bt") && strcmp(mn, "push"))
        each_reg(s + ops[0][0], ops[0][1] - ops[0][0], write_reg, f);
}

size_t tks_explain_carried(const char *code, char (*out)[8], size_t max)
{
    flow f;
    size_t n = 0;
    uint64_t carried;
    memset(&f, 0, sizeof f);
    for (const char *p = code; *p;) {
        size_t len = strcspn(p, ";\n");
        one_instruction(p, len, &f);
        p += len;
        if (*p)
            p++;
    }
    carried = f.live_in & f.all_written;
    for (int id = 0; id < 48 && n < max; id++)
        if (carried & ((uint64_t)1 << id)) {
            if (id < 16)
                snprintf(out[n++], 8, "%s", gpr64[id]);
            else
                snprintf(out[n++], 8, "%cmm%d", f.width[id - 16] == 512 ? 'z'
                                                : f.width[id - 16] == 256 ? 'y' : 'x', id - 16);
        }
    return n;
}
