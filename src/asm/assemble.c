/* SPDX-License-Identifier: MIT */
/* assemble.c: snippet text to bytes: placeholders expanded per copy, the system's `as` run once
 * over every variant, its errors mapped back to the user's line, the sections read from the ELF
 * object; and hex given directly. */
#include "asm/asm_internal.h"
#include "asm/asm_regs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <elf.h>
#endif

static const char *const gpr_pool[TKS__ASM_GPR_POOL] = {
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "rbp"};

const char *tks__asm_pool_gpr(unsigned v)
{
    return gpr_pool[v % TKS__ASM_GPR_POOL];
}

/* The pools' entries code does not name itself: general ones in g (*ng), vector ones in x (*nx);
 * the whole pool where it names all of it. */
static void free_pools(const char *code, unsigned *g, unsigned *ng, unsigned *x, unsigned *nx)
{
    tks__asm_regset named, one;
    tks__asm_regs_named(code, &named);
    *ng = *nx = 0;
    for (unsigned i = 0; i < TKS__ASM_GPR_POOL; i++) {
        tks__asm_regs_named(gpr_pool[i], &one);
        if (!(one.named & named.named))
            g[(*ng)++] = i;
    }
    for (unsigned i = 0; i < TKS__ASM_XMM_POOL; i++)
        if (!(named.named & ((uint64_t)1 << (16 + i))))
            x[(*nx)++] = i;
    for (unsigned i = 0; !*ng && i < TKS__ASM_GPR_POOL; i++)
        g[i] = i;
    for (unsigned i = 0; !*nx && i < TKS__ASM_XMM_POOL; i++)
        x[i] = i;
    *ng = *ng ? *ng : TKS__ASM_GPR_POOL;
    *nx = *nx ? *nx : TKS__ASM_XMM_POOL;
}

void tks__asm_variant_regs(const char *code, unsigned v, const char **gpr, int *xmm)
{
    unsigned g[TKS__ASM_GPR_POOL], x[TKS__ASM_XMM_POOL], ng, nx;
    free_pools(code, g, &ng, x, &nx);
    *gpr = gpr_pool[g[v % ng]];
    *xmm = (int)x[v % nx];
}

size_t tks__asm_variant_count(const char *code)
{
    unsigned g[TKS__ASM_GPR_POOL], x[TKS__ASM_XMM_POOL], ng, nx;
    free_pools(code, g, &ng, x, &nx);
    return strstr(code, "{r}") ? ng : nx;
}

int tks__asm_has_placeholder(const char *code)
{
    return strstr(code, "{r}") || strstr(code, "{x}") || strstr(code, "{y}");
}

char *tks__asm_expand(const char *code, enum tks_asm_syntax syntax, const char *gpr, int xmm)
{
    size_t n = strlen(code), cap = n * 3 + 16, o = 0;
    char *out = malloc(cap);
    const char *pct = syntax == TKS_ASM_ATT ? "%" : "";
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        char reg[16] = "";
        if (code[i] == '{' && i + 2 < n && code[i + 2] == '}') {
            if (code[i + 1] == 'r')
                snprintf(reg, sizeof reg, "%s%s", pct, gpr);
            else if (code[i + 1] == 'x' || code[i + 1] == 'y')
                snprintf(reg, sizeof reg, "%s%cmm%d", pct, code[i + 1], xmm);
        }
        if (*reg) {
            o += (size_t)snprintf(out + o, cap - o, "%s", reg);
            i += 3;
        } else {
            out[o++] = code[i++];
        }
    }
    out[o] = 0;
    return out;
}

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

int tks__asm_hex(const char *text, unsigned char **bytes, size_t *len, char *err, size_t errsz)
{
    size_t n = 0, cap = strlen(text) / 2 + 1;
    unsigned char *b = malloc(cap);
    const char *p = text;
    if (!b)
        return TKS_ENOMEM;
    while (*p) {
        if (isspace((unsigned char)*p) || *p == ',' || *p == ';') {
            p++;
            continue;
        }
        if ((p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) || (p[0] == '\\' && p[1] == 'x'))
            p += 2;
        if (hexval((unsigned char)p[0]) < 0 || hexval((unsigned char)p[1]) < 0) {
            snprintf(err, errsz, "--hex: '%.12s' at offset %zu is not a pair of hex digits", p,
                     (size_t)(p - text));
            free(b);
            return TKS_EINVAL;
        }
        b[n++] = (unsigned char)(hexval((unsigned char)p[0]) * 16 + hexval((unsigned char)p[1]));
        p += 2;
    }
    if (!n) {
        free(b);
        snprintf(err, errsz, "--hex: no bytes given");
        return TKS_EINVAL;
    }
    *bytes = b;
    *len = n;
    return 0;
}

#if defined(__linux__) && defined(__x86_64__)
/* The user's line `line` of text (1-based), into buf. */
static void user_line(const char *text, long line, char *buf, size_t size)
{
    const char *p = text, *e;
    for (long l = 1; l < line && p; l++)
        if ((p = strchr(p, '\n')))
            p++;
    if (!p) {
        *buf = 0;
        return;
    }
    e = strchr(p, '\n');
    snprintf(buf, size, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
}

static size_t count_lines(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The assembler's first error (or first message) as "WHAT line N: MESSAGE (`TEXT`)". */
static void map_error(const char *msgs, const char *src_path, const char *variant0, size_t nlines,
                      size_t preamble, const char *what, char *err, size_t errsz)
{
    const char *p = strstr(msgs, "Error:"), *line_start, *nl;
    char text[160];
    long line = 0;
    size_t plen = strlen(src_path);
    if (!p)
        p = strstr(msgs, "Warning:");
    if (!p) {
        snprintf(err, errsz, "%s: the assembler failed: %.200s", what, msgs);
        return;
    }
    for (line_start = p; line_start > msgs && line_start[-1] != '\n'; line_start--)
        ;
    if (strncmp(line_start, src_path, plen) == 0 && line_start[plen] == ':')
        line = strtol(line_start + plen + 1, NULL, 10);
    nl = strchr(p, '\n');
    /* Lines: the preamble, then per variant a section line and the snippet's lines. */
    if (line > (long)preamble) {
        long rel = (line - (long)preamble - 1) % (long)(nlines + 1);
        if (rel > 0) {
            user_line(variant0, rel, text, sizeof text);
            snprintf(err, errsz, "%s line %ld: %.*s (`%s`)", what, rel,
                     (int)(nl ? nl - p : (long)strlen(p)), p, text);
            return;
        }
    }
    snprintf(err, errsz, "%s: %.*s", what, (int)(nl ? nl - p : (long)strlen(p)), p);
}

/* The index of section `want` in an object, or -1. */
static int find_section(const Elf64_Ehdr *eh, const Elf64_Shdr *sh, const char *names,
                        const char *want)
{
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (strcmp(names + sh[i].sh_name, want) == 0)
            return (int)i;
    return -1;
}

/* Copy the sections .tks.0 .. .tks.(nvar-1) of the ELF64 object o (size bytes) back to back. */
static int copy_sections(const unsigned char *o, size_t size, size_t nvar, unsigned char **bytes,
                         size_t *off, const char *what, char *err, size_t errsz)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o;
    const Elf64_Shdr *sh;
    const char *names;
    unsigned char *b;
    size_t total = 0;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof *sh > size || eh->e_shstrndx >= eh->e_shnum)
        return TKS_EIO;
    sh = (const Elf64_Shdr *)(o + eh->e_shoff);
    names = (const char *)o + sh[eh->e_shstrndx].sh_offset;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_RELA && strncmp(names + sh[i].sh_name, ".rela.tks.", 10) == 0 &&
            sh[i].sh_size > 0) {
            snprintf(err, errsz, "%s refers to a symbol or an absolute address (it needs a "
                     "relocation): address memory through r14 instead", what);
            return TKS_EINVAL;
        }
    for (size_t v = 0; v < nvar; v++) {
        char want[32];
        int i;
        snprintf(want, sizeof want, ".tks.%zu", v);
        i = find_section(eh, sh, names, want);
        if (i < 0 || sh[i].sh_size == 0) {
            snprintf(err, errsz, "%s assembled to no instructions", what);
            return TKS_EINVAL;
        }
        if (sh[i].sh_offset + sh[i].sh_size > size)
            return TKS_EIO;
        total += sh[i].sh_size;
    }
    if (!(b = malloc(total)))
        return TKS_ENOMEM;
    off[0] = 0;
    for (size_t v = 0; v < nvar; v++) {
        char want[32];
        int i;
        snprintf(want, sizeof want, ".tks.%zu", v);
        i = find_section(eh, sh, names, want);
        memcpy(b + off[v], o + sh[i].sh_offset, sh[i].sh_size);
        off[v + 1] = off[v] + sh[i].sh_size;
    }
    *bytes = b;
    return 0;
}

static int read_sections(const char *path, size_t nvar, unsigned char **bytes, size_t *off,
                         const char *what, char *err, size_t errsz)
{
    FILE *f = fopen(path, "rb");
    long size;
    unsigned char *o = NULL;
    int rc = TKS_EIO;
    if (!f)
        return TKS_EIO;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (o = malloc((size_t)size)) && fread(o, 1, (size_t)size, f) == (size_t)size)
        rc = copy_sections(o, (size_t)size, nvar, bytes, off, what, err, errsz);
    free(o);
    fclose(f);
    return rc;
}
#endif

int tks__asm_assemble(const char *const *variants, size_t nvar, enum tks_asm_syntax syntax,
                      const char *what, unsigned char **bytes, size_t *off, char *err,
                      size_t errsz)
{
#if defined(__linux__) && defined(__x86_64__)
    char dir[256], src[300], obj[300], msgs[4096];
    char *argv[] = {"as", "--64", "-o", obj, src, NULL};
    FILE *f;
    int rc, st;
    size_t preamble = syntax == TKS_ASM_INTEL ? 1 : 0, nlines = count_lines(variants[0]);
    if ((rc = tks__asm_tmpdir(dir, sizeof dir)) != 0) {
        snprintf(err, errsz, "cannot create a temporary directory: %s", strerror(errno));
        return rc;
    }
    snprintf(src, sizeof src, "%s/%s.s", dir, what);
    snprintf(obj, sizeof obj, "%s/%s.o", dir, what);
    if (!(f = fopen(src, "w"))) {
        tks__asm_rmdir(dir);
        return TKS_EIO;
    }
    if (preamble)
        fputs(".intel_syntax noprefix\n", f);
    for (size_t v = 0; v < nvar; v++)
        fprintf(f, ".section .tks.%zu,\"ax\",@progbits\n%s\n", v, variants[v]);
    if (fclose(f) != 0) {
        tks__asm_rmdir(dir);
        return TKS_EIO;
    }
    st = tks__asm_spawn(argv, msgs, sizeof msgs);
    if (st == -1 && errno == ENOENT) {
        snprintf(err, errsz, "the assembler `as` is not installed: install binutils (Debian: "
                 "apt-get install binutils), or give the bytes with --hex");
        rc = TKS_EUNAVAIL;
    } else if (st != 0) {
        map_error(msgs, src, variants[0], nlines, preamble, what, err, errsz);
        rc = TKS_EINVAL;
    } else {
        rc = read_sections(obj, nvar, bytes, off, what, err, errsz);
        if (rc == TKS_EIO)
            snprintf(err, errsz, "cannot read the assembler's output %s", obj);
    }
    tks__asm_rmdir(dir);
    return rc;
#else
    (void)variants, (void)nvar, (void)syntax, (void)bytes, (void)off;
    snprintf(err, errsz, "%s: tickscope asm runs on x86-64 Linux only", what);
    return TKS_EUNAVAIL;
#endif
}
