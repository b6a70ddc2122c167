/* SPDX-License-Identifier: MIT */
/* catalog.c: the catalogue's rows (catalog_rows.c) expanded into instruction forms, only those
 * the CPU has; each form's measurements (throughput, and the latency of every operand pair that
 * can be chained) and the snippet text of each, in Intel syntax. */
#include "asm/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIT(f) ((uint64_t)1 << (f))

/* ---- expansion */

/* Size character to bits: b w d q x y z. */
static unsigned size_bits(char s)
{
    switch (s) {
    case 'b': return 8;
    case 'w': return 16;
    case 'd': return 32;
    case 'q': return 64;
    case 'x': return 128;
    case 'y': return 256;
    case 'z': return 512;
    default: return 0;
    }
}

static int gpr_class(unsigned bits)
{
    return bits == 8 ? TKS__OP_R8 : bits == 16 ? TKS__OP_R16 : bits == 32 ? TKS__OP_R32
                                                                        : TKS__OP_R64;
}

static int vec_class(unsigned bits)
{
    return bits == 512 ? TKS__OP_ZMM : bits == 256 ? TKS__OP_YMM : TKS__OP_XMM;
}

static const char *const class_names[TKS__OP_COUNT] = {"r8", "r16", "r32", "r64", "imm8",
                                                       "imm32", "m", "xmm", "ymm", "zmm", "k",
                                                       "cl"};

/* One operand token of a row for size sz into f's operand k and its name; -1: not valid. */
static int operand(const char *tok, char sz, tks__asm_form *f, int k, char *name, size_t size)
{
    unsigned bits = size_bits(sz);
    int masked = strstr(tok, "{k}") != NULL;
    f->acc[k] = TKS__ACC_R;
    if (strcmp(tok, "R") == 0 && bits && bits <= 64) {
        f->op[k] = (uint8_t)gpr_class(bits);
    } else if (tok[0] == 'r' && (tok[1] == '8' || tok[1] == '1' || tok[1] == '3' || tok[1] == '6')) {
        f->op[k] = (uint8_t)gpr_class((unsigned)atoi(tok + 1));
    } else if (strcmp(tok, "i") == 0) {
        f->op[k] = TKS__OP_IMM8;
    } else if (strcmp(tok, "I") == 0) {
        f->op[k] = bits == 8 ? TKS__OP_IMM8 : TKS__OP_IMM32;
        snprintf(name, size, "imm%u", bits == 8 ? 8 : bits == 16 ? 16 : 32);
        return 0;
    } else if (tok[0] == 'M' || (tok[0] == 'm' && tok[1] >= '0' && tok[1] <= '9')) {
        f->op[k] = TKS__OP_MEM;
        f->mem_bits = (uint16_t)(tok[0] == 'M' ? bits : (unsigned)atoi(tok + 1));
        snprintf(name, size, "m%u%s", tok[0] == 'M' ? bits : (unsigned)atoi(tok + 1),
                 masked ? "{k}" : "");
        f->masked |= (uint8_t)masked;
        return 0;
    } else if (tok[0] == 'V' && bits >= 128) {
        f->op[k] = (uint8_t)vec_class(bits);
    } else if (tok[0] == 'X') {
        f->op[k] = TKS__OP_XMM;
    } else if (tok[0] == 'K') {
        f->op[k] = TKS__OP_K;
    } else if (strcmp(tok, "c") == 0) {
        f->op[k] = TKS__OP_CL;
    } else {
        return -1;
    }
    f->masked |= (uint8_t)masked;
    snprintf(name, size, "%s%s", class_names[f->op[k]], masked ? "{k}" : "");
    return 0;
}

/* The features of row r at size sz for a form with or without a mask: 0, or -1 when the row
 * has no such size. */
static int features(const tks__asm_catrow *r, char sz, int evex, int *feat, int *feat2)
{
    int i = sz == 'x' ? 0 : sz == 'y' ? 1 : sz == 'z' ? 2 : -1;
    *feat2 = TKS__F_BASE;
    if (i < 0) {
        *feat = r->feat[0];
        return 0;
    }
    if (r->feat[i] == TKS__ROW_NONE)
        return -1;
    if (r->feat[i] == TKS__ROW_EVEX || evex) {
        if (r->feat[2] < 0)
            return -1; /* no EVEX form at all */
        *feat = r->feat[2];
        *feat2 = i < 2 ? TKS__F_AVX512VL : TKS__F_BASE;
        return 0;
    }
    *feat = r->feat[i];
    /* A VEX form needs AVX's state and a 512-bit one AVX-512's, whatever its own extension
     * (vgf2p8mulb ymm has GFNI's bit, which a CPU without AVX may set for the SSE form). */
    if (r->mnemonic[0] == 'v')
        *feat2 = i == 2 ? TKS__F_AVX512F : TKS__F_AVX;
    return 0;
}

static int expand_form(const tks__asm_catrow *r, char sz, const char *pat, size_t plen,
                       tks__asm_form *f)
{
    char buf[96], *save = NULL, *tok, names[TKS__FORM_OPS][24];
    int evex = 0;
    size_t len;
    memset(f, 0, sizeof *f);
    if (plen >= sizeof buf)
        return -1;
    memcpy(buf, pat, plen);
    buf[plen] = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (f->nops == TKS__FORM_OPS || operand(tok, sz, f, f->nops, names[f->nops],
                                                sizeof names[0]) != 0)
            return -1;
        f->nops++;
    }
    if (!f->nops)
        return -1;
    for (int k = 0; k < f->nops; k++)
        evex |= f->op[k] == TKS__OP_K && strchr("xyz", sz) && sz;
    evex |= f->masked;
    if (features(r, sz, evex, &f->feat, &f->feat2) != 0)
        return -1;
    f->acc[0] = r->access[0] == 'w' ? TKS__ACC_W : r->access[0] == 'm' ? TKS__ACC_R | TKS__ACC_W
                                                                       : TKS__ACC_R;
    if (f->masked) /* merge masking keeps the unselected lanes: the destination is read too */
        f->acc[0] |= TKS__ACC_R;
    f->flags_in = strchr(r->access, 'f') != NULL;
    f->flags_out = strchr(r->access, 'F') != NULL;
    f->mnemonic = r->mnemonic;
    len = (size_t)snprintf(f->name, sizeof f->name, "%s", r->mnemonic);
    for (int k = 0; k < f->nops && len < sizeof f->name; k++)
        len += (size_t)snprintf(f->name + len, sizeof f->name - len, "%s%s", k ? ", " : " ",
                                names[k]);
    return 0;
}

static int name_seen(const tks__asm_form *v, size_t n, const char *name)
{
    for (size_t i = n; i-- > 0;) /* duplicates come from the same row: look back */
        if (strcmp(v[i].name, name) == 0)
            return 1;
    return 0;
}

int tks__asm_catalog_forms(uint64_t feats, tks__asm_form **forms, size_t *n)
{
    size_t cap = 2048, count = 0;
    tks__asm_form *v = malloc(cap * sizeof *v), f;
    if (!v)
        return TKS_ENOMEM;
    for (size_t i = 0; i < tks__asm_n_catrows; i++) {
        const tks__asm_catrow *r = &tks__asm_catrows[i];
        for (const char *sz = r->sizes; *sz; sz++) {
            const char *p = r->forms;
            while (*p) {
                size_t plen = strcspn(p, " ");
                char s = *sz == '-' ? 0 : *sz;
                if (plen && expand_form(r, s, p, plen, &f) == 0 && (feats >> f.feat & 1) &&
                    (feats >> f.feat2 & 1) && !name_seen(v, count, f.name)) {
                    if (count == cap) {
                        tks__asm_form *g = realloc(v, (cap *= 2) * sizeof *v);
                        if (!g) {
                            free(v);
                            return TKS_ENOMEM;
                        }
                        v = g;
                    }
                    v[count++] = f;
                }
                p += plen;
                p += strspn(p, " ");
            }
        }
    }
    *forms = v;
    *n = count;
    return 0;
}

/* ---- measurements */

static int family(int cls)
{
    return cls <= TKS__OP_R64 ? 1 : cls >= TKS__OP_XMM && cls <= TKS__OP_ZMM ? 2
                                  : cls == TKS__OP_K ? 3 : 0;
}

size_t tks__asm_form_specs(const tks__asm_form *f, tks__asm_measure_spec *out, size_t max)
{
    size_t n = 0;
    int fam0 = family(f->op[0]), same = 0;
#define ADD(k, s, d, ...)                                                                         \
    do {                                                                                          \
        if (n < max) {                                                                            \
            out[n].kind = (k), out[n].src = (s), out[n].dst = (d);                                \
            snprintf(out[n].key, sizeof out[n].key, __VA_ARGS__);                                 \
            n++;                                                                                  \
        }                                                                                         \
    } while (0)
    ADD(TKS__KIND_THROUGHPUT, -1, -1, "T");
    for (int k = 0; k < f->nops; k++)
        same += fam0 && family(f->op[k]) == fam0;
    if (fam0 && (f->acc[0] & TKS__ACC_W)) {
        for (int j = 0; j < f->nops; j++) {
            if (!(f->acc[j] & TKS__ACC_R) || family(f->op[j]) != fam0)
                continue;
            /* A read-modify-write destination with one source of its kind: that source as
             * the destination's own register would be the destination alone (or a zeroing
             * idiom): the pair is not measured. */
            if (j != 0 && (f->acc[0] & TKS__ACC_R) && same == 2)
                continue;
            ADD(TKS__KIND_LATENCY, j, 0, "L%d-0", j);
        }
        for (int j = 0; j < f->nops; j++)
            if (f->op[j] == TKS__OP_MEM && (f->acc[j] & TKS__ACC_R) && fam0 == 1)
                ADD(TKS__KIND_LATENCY_ADDR, j, 0, "LA%d-0", j);
    }
    if (f->op[0] == TKS__OP_MEM && (f->acc[0] & TKS__ACC_R) && (f->acc[0] & TKS__ACC_W))
        ADD(TKS__KIND_LATENCY_MEM, 0, 0, "LM");
#undef ADD
    return n;
}

/* ---- snippet text */

static const char *const gpr64[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const gpr32[16] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
                                      "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d",
                                      "r15d"};
static const char *const gpr16[16] = {"ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w",
                                      "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
static const char *const gpr8[16] = {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b",
                                     "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};
/* General registers a snippet may use (rcx is the shift count, r14 the scratch area, r15 the
 * loop counter): destinations from the front, fixed sources from the back. */
static const int gpr_pool[] = {0, 3, 2, 8, 9, 10, 11, 12, 13, 5, 7, 6};
#define GPR_POOL 12
#define VEC_POOL 16
/* Mask registers: k1 is the write mask; destinations k2.., sources from k7 down. */
#define K_FIRST 2
#define K_POOL 6

static void reg_name(int cls, int num, char *buf, size_t size)
{
    switch (cls) {
    case TKS__OP_R8: snprintf(buf, size, "%s", gpr8[num]); break;
    case TKS__OP_R16: snprintf(buf, size, "%s", gpr16[num]); break;
    case TKS__OP_R32: snprintf(buf, size, "%s", gpr32[num]); break;
    case TKS__OP_R64: snprintf(buf, size, "%s", gpr64[num]); break;
    case TKS__OP_XMM: snprintf(buf, size, "xmm%d", num); break;
    case TKS__OP_YMM: snprintf(buf, size, "ymm%d", num); break;
    case TKS__OP_ZMM: snprintf(buf, size, "zmm%d", num); break;
    case TKS__OP_K: snprintf(buf, size, "k%d", num); break;
    default: snprintf(buf, size, "?");
    }
}

static const char *ptr_word(unsigned bits)
{
    switch (bits) {
    case 8: return "BYTE";
    case 16: return "WORD";
    case 32: return "DWORD";
    case 64: return "QWORD";
    case 128: return "XMMWORD";
    case 256: return "YMMWORD";
    default: return "ZMMWORD";
    }
}

/* The register number a family's pool gives at index i (destinations from the front) or as
 * the k-th fixed source (from the back). */
static int pool_reg(int fam, int i)
{
    return fam == 1 ? gpr_pool[i] : fam == 2 ? i : K_FIRST + i;
}

static int pool_size(int fam)
{
    return fam == 1 ? GPR_POOL : fam == 2 ? VEC_POOL : K_POOL;
}

/* How many register sources of family fam a form has besides operand `skip`. */
static int sources_of(const tks__asm_form *f, int fam, int skip)
{
    int n = 0;
    for (int k = 0; k < f->nops; k++)
        n += k != skip && family(f->op[k]) == fam;
    return n;
}

/* Copy v's memory operand: a line of its own, at an offset within it that puts consecutive
 * copies in different 8-byte banks of the first-level cache where the operand's size leaves
 * room (naturally aligned: m8-m64 at 8(v mod 8), m128 at 16(v mod 4), m256 at 32(v mod 2)). */
static unsigned line_disp(const tks__asm_form *f, size_t v)
{
    unsigned step = f->mem_bits > 64 ? (unsigned)f->mem_bits / 8 : 8;
    return 64u * (unsigned)v + (unsigned)(v % (64 / step)) * step;
}

/* The text of one copy: dst_num the destination's register (family of operand 0), chained
 * operand `same` (-1: none) takes it too, disp the memory operand's displacement, addr_index:
 * the memory operand is [r14+rax] (the address latency). */
static int copy_text(const tks__asm_form *f, int dst_num, int same, unsigned disp,
                     int addr_index, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "%s", f->mnemonic);
    int next_src[4] = {0, 0, 0, 0};
    for (int k = 0; k < f->nops; k++) {
        char o[64];
        int cls = f->op[k], fam = family(cls);
        if (fam && (k == 0 || k == same)) {
            reg_name(cls, dst_num, o, sizeof o);
        } else if (fam) {
            /* fixed sources from the back of the pool, k-th source of its family */
            int idx = pool_size(fam) - 1 - next_src[fam]++;
            reg_name(cls, pool_reg(fam, idx), o, sizeof o);
        } else if (cls == TKS__OP_IMM8) {
            snprintf(o, sizeof o, "3");
        } else if (cls == TKS__OP_IMM32) {
            snprintf(o, sizeof o, "%s", f->op[0] == TKS__OP_R16 || f->op[1] == TKS__OP_R16 ||
                                            f->mem_bits == 16 ? "0x1234" : "0x12345");
        } else if (cls == TKS__OP_CL) {
            snprintf(o, sizeof o, "cl");
        } else if (addr_index) {
            snprintf(o, sizeof o, "%s PTR [r14+rax]", ptr_word(f->mem_bits));
        } else {
            snprintf(o, sizeof o, "%s PTR [r14+%u]", ptr_word(f->mem_bits), disp);
        }
        if (k == 0 && f->masked)
            strncat(o, "{k1}", sizeof o - strlen(o) - 1);
        len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s", k ? ", " : " ",
                                o);
    }
    return len < size ? 0 : TKS_ERANGE;
}

char *tks__asm_catalog_init(uint64_t feats, int sse)
{
    char *s = malloc(4096);
    size_t n = 0;
    if (!s)
        return NULL;
    /* general registers: 1 (copied from eax: two or three bytes each, where an immediate takes
     * five or six; the kernel module takes 256 bytes of init), and the shift count in cl */
    n += (size_t)snprintf(s + n, 4096 - n, "mov eax, 1\n");
    for (int i = 0; i < GPR_POOL; i++)
        if (gpr_pool[i] != 0)
            n += (size_t)snprintf(s + n, 4096 - n, "mov %s, eax\n", gpr32[gpr_pool[i]]);
    /* MXCSR: the defaults (exceptions masked, round to nearest) with DAZ and FTZ, so that no
     * floating-point chain slows down on denormals (a quotient of 1.875-valued lanes decays
     * towards them) */
    n += (size_t)snprintf(s + n, 4096 - n, "mov ecx, 3\nsub rsp, 8\nmov DWORD PTR [rsp], 0x9fc0\n"
                                           "ldmxcsr DWORD PTR [rsp]\nadd rsp, 8\n"
                                           "mov rax, 0x3ff0000000000000\n");
    if (feats & BIT(TKS__F_AVX512F)) {
        /* the vector registers the catalogue uses (VEC_POOL: zmm16-31 are never named) */
        n += (size_t)snprintf(s + n, 4096 - n, "vpbroadcastq zmm0, rax\n");
        for (int i = 1; i < VEC_POOL; i++)
            n += (size_t)snprintf(s + n, 4096 - n, "vmovdqa64 zmm%d, zmm0\n", i);
        for (int i = 1; i < 8; i++)
            n += (size_t)snprintf(s + n, 4096 - n, "kxnor%c k%d, k%d, k%d\n",
                                  feats & BIT(TKS__F_AVX512BW) ? 'q' : 'w', i, i, i);
    } else if (feats & BIT(TKS__F_AVX)) {
        n += (size_t)snprintf(s + n, 4096 - n, "vmovq xmm0, rax\nvmovddup xmm0, xmm0\n"
                                               "vinsertf128 ymm0, ymm0, xmm0, 1\n");
        for (int i = 1; i < VEC_POOL; i++)
            n += (size_t)snprintf(s + n, 4096 - n, "vmovaps ymm%d, ymm0\n", i);
    } else {
        n += (size_t)snprintf(s + n, 4096 - n, "movq xmm0, rax\npunpcklqdq xmm0, xmm0\n");
        for (int i = 1; i < VEC_POOL; i++)
            n += (size_t)snprintf(s + n, 4096 - n, "movdqa xmm%d, xmm0\n", i);
    }
    n += (size_t)snprintf(s + n, 4096 - n, "mov eax, 1%s", sse && (feats & BIT(TKS__F_AVX))
                                                               ? "\nvzeroupper" : "");
    return s;
}

static int legacy_sse(const tks__asm_form *f)
{
    return f->mnemonic[0] != 'v' && f->mnemonic[0] != 'k' &&
           (f->op[0] == TKS__OP_XMM || f->op[1] == TKS__OP_XMM);
}

void tks__asm_snippet_free(tks__asm_snippet *s)
{
    for (size_t v = 0; v < s->nvar; v++)
        free(s->variant[v]);
    free(s->init);
    memset(s, 0, sizeof *s);
}

int tks__asm_form_snippet(const tks__asm_form *f, const tks__asm_measure_spec *spec,
                          tks__asm_snippet *s)
{
    char text[256];
    int fam0 = family(f->op[0]), rc = 0;
    memset(s, 0, sizeof *s);
    s->init = tks__asm_catalog_init(tks__asm_cpu_feats(), legacy_sse(f));
    if (!s->init)
        return TKS_ENOMEM;
    if (spec->kind == TKS__KIND_THROUGHPUT) {
        /* Copies independent: the destination rotates over the registers the fixed sources
         * leave, the memory operand over cache lines; with memory, as many variants as fit
         * TKS__BATCH_VARIANTS in whole rounds of the registers, so that each register carries
         * as many copies as the next (16 over 12 registers gave four of them two) */
        int has_mem = 0, rotate;
        for (int k = 0; k < f->nops; k++)
            has_mem |= f->op[k] == TKS__OP_MEM;
        rotate = fam0 && (f->acc[0] & TKS__ACC_W) ? pool_size(fam0) - sources_of(f, fam0, 0) : 1;
        s->mode = TKS_ASM_THROUGHPUT;
        s->nvar = (size_t)(rotate >= TKS__BATCH_VARIANTS ? TKS__BATCH_VARIANTS
                           : has_mem ? TKS__BATCH_VARIANTS / rotate * rotate : rotate);
        for (size_t v = 0; v < s->nvar && !rc; v++) {
            int num = fam0 ? pool_reg(fam0, (int)(v % (size_t)rotate)) : 0;
            rc = copy_text(f, num, -1, line_disp(f, v), 0, text, sizeof text);
            if (!rc && !(s->variant[v] = strdup(text)))
                rc = TKS_ENOMEM;
        }
    } else if (spec->kind == TKS__KIND_LATENCY || spec->kind == TKS__KIND_LATENCY_MEM) {
        s->nvar = 1;
        rc = copy_text(f, fam0 ? pool_reg(fam0, 0) : 0, spec->src, 0, 0, text, sizeof text);
        if (!rc && !(s->variant[0] = strdup(text)))
            rc = TKS_ENOMEM;
    } else if (spec->kind == TKS__KIND_LATENCY_ADDR && fam0 == 1) {
        /* the destination is rax, the address [r14+rax], and the AND keeps it in the area */
        char both[320];
        s->nvar = 1;
        rc = copy_text(f, 0, -1, 0, 1, text, sizeof text);
        snprintf(both, sizeof both, "%s\n%s", text, TKS__ADDR_CHAIN);
        if (!rc && !(s->variant[0] = strdup(both)))
            rc = TKS_ENOMEM;
    } else {
        rc = TKS_EINVAL;
    }
    if (rc)
        tks__asm_snippet_free(s);
    return rc;
}

int tks__asm_addr_chain_snippet(uint64_t feats, tks__asm_snippet *s)
{
    memset(s, 0, sizeof *s);
    s->nvar = 1;
    s->init = tks__asm_catalog_init(feats, 0);
    s->variant[0] = strdup(TKS__ADDR_CHAIN);
    if (!s->init || !s->variant[0]) {
        tks__asm_snippet_free(s);
        return TKS_ENOMEM;
    }
    return 0;
}
