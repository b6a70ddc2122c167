/* SPDX-License-Identifier: MIT */
/* snippet_check.c: a snippet is what it says before it is measured. Its text is in the syntax
 * asked for (AT&T registers carry a %, Intel's do not: the other one is named with the flag to
 * add or drop); its copies decode with instruction boundaries at the copy boundaries (`nop;
 * .byte 0x0f` unrolled runs as `nop; seto [rdi]`, not as what one copy shows); and it touches
 * no memory but the scratch area R14 points to. */
#include "asm/asm_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the word [w, w + n) is a register name: the general registers in each width, the
 * vector and mask registers. */
static int register_word(const char *w, size_t n)
{
    static const char *const names[] = {
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "eax", "ebx", "ecx", "edx",
        "esi", "edi", "ebp", "esp", "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "al", "bl",
        "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "bpl", "spl", "rip"};
    char low[8];
    if (n == 0 || n >= sizeof low)
        return 0;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)w[i]);
    low[n] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(low, names[i]) == 0)
            return 1;
    if (low[0] == 'r' && isdigit((unsigned char)low[1])) { /* r8 .. r15, r8d, r8w, r8b */
        int num = atoi(low + 1);
        const char *s = low + 1 + strspn(low + 1, "0123456789");
        return num >= 8 && num <= 15 && (!*s || ((*s == 'd' || *s == 'w' || *s == 'b') && !s[1]));
    }
    if ((low[0] == 'x' || low[0] == 'y' || low[0] == 'z') && strncmp(low + 1, "mm", 2) == 0 &&
        low[3])
        return strspn(low + 3, "0123456789") == strlen(low + 3);
    return low[0] == 'k' && low[1] >= '0' && low[1] <= '7' && !low[2];
}

int tks__asm_check_syntax(const char *code, enum tks_asm_syntax syntax, const char *what,
                          char *err, size_t errsz)
{
    const char *p = code;
    if (syntax == TKS_ASM_HEX)
        return 0;
    while (*p) {
        size_t n;
        if (*p == '#' || (*p == '/' && p[1] == '/')) { /* a comment, to the end of its line */
            p += strcspn(p, "\n");
            continue;
        }
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '%' && *p != '$') {
            p++;
            continue;
        }
        if (syntax == TKS_ASM_INTEL && ((*p == '%' && register_word(p + 1, strcspn(p + 1,
                                                       " \t,;)\n"))) ||
                                        (*p == '$' && (isdigit((unsigned char)p[1]) ||
                                                       p[1] == '-')))) {
            snprintf(err, errsz, "%s is AT&T syntax (`%.*s`: %s), and tickscope reads Intel "
                     "syntax by default: add --att", what, (int)strcspn(code, ";\n"), code,
                     *p == '%' ? "a %register" : "a $immediate");
            return TKS_EINVAL;
        }
        n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_%$");
        if (syntax == TKS_ASM_ATT && *p != '%' && *p != '$' && register_word(p, n) &&
            p != code && (p[-1] == ' ' || p[-1] == ',' || p[-1] == '\t' || p[-1] == '[')) {
            snprintf(err, errsz, "%s is Intel syntax (`%.*s`: the register %.*s without %%), "
                     "but --att was given: drop --att", what, (int)strcspn(code, ";\n"), code,
                     (int)n, p);
            return TKS_EINVAL;
        }
        p += n ? n : 1;
    }
    return 0;
}

/* The offsets of the instructions objdump finds in lines[0..n) ("0x001f  ..."). */
static size_t offset_of(const char *line)
{
    return (size_t)strtoul(line, NULL, 16);
}

/* "0x0003  0f 90 07   seto BYTE PTR [rdi]" -> "seto BYTE PTR [rdi]" */
const char *tks__asm_insn_text(const char *line)
{
    const char *p = line + strcspn(line, " ");
    p += strspn(p, " ");
    /* the bytes: pairs of hex digits separated by single spaces, then the padding */
    while (isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
           (p[2] == ' ' || !p[2]))
        p += 3;
    return p + strspn(p, " ");
}

/* The instructions of lines[from, to) as "`a`, `b`, ..." into buf. */
static void list(char (*lines)[128], int from, int to, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = from; i < to && len + 4 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s`%s`", i > from ? ", " : "",
                                tks__asm_insn_text(lines[i]));
}

/* Whether one instruction's text touches memory that is not the scratch area: a memory operand
 * ("[...]", or "PTR seg:addr") whose base is not r14. LEA and the long NOPs compute an address
 * without touching it. */
static int foreign_memory(const char *insn)
{
    const char *b;
    if (strncmp(insn, "lea", 3) == 0 || strncmp(insn, "nop", 3) == 0 ||
        strncmp(insn, "data16", 6) == 0 || strncmp(insn, "cs nop", 6) == 0)
        return 0;
    for (b = strchr(insn, '['); b; b = strchr(b + 1, '['))
        if (strncmp(b + 1, "r14", 3) != 0 || isalnum((unsigned char)b[4]))
            return 1;
    return strstr(insn, "PTR ") && !strchr(insn, '[');
}

int tks__asm_check_copies(const unsigned char *code, const size_t *off, size_t nvar,
                          int check_memory, char *err, size_t errsz)
{
    enum { MAXL = 1024 };
    size_t body_len = 0, bound[TKS__ASM_VARIANTS + 2], nb = 0;
    unsigned char *body;
    char (*lines)[128], one[200], two[300], why[256];
    int n, rc = 0;
    /* the body: every variant, then the first again, as the unrolled loop lays them out */
    for (size_t v = 0; v <= nvar; v++)
        body_len += off[v % nvar + 1] - off[v % nvar];
    if (!(body = malloc(body_len)) || !(lines = malloc(MAXL * sizeof *lines))) {
        free(body);
        return TKS_ENOMEM;
    }
    body_len = 0;
    for (size_t v = 0; v <= nvar; v++) {
        size_t len = off[v % nvar + 1] - off[v % nvar];
        bound[nb++] = body_len;
        memcpy(body + body_len, code + off[v % nvar], len);
        body_len += len;
    }
    n = tks__asm_disassemble(body, body_len, TKS_ASM_INTEL, lines, MAXL, why, sizeof why);
    if (n < 0) {
        /* without objdump the checks cannot be made: the snippet is measured as before */
        free(body);
        free(lines);
        return 0;
    }
    for (size_t k = 1; k < nb && !rc; k++) {
        int i = 0, found = 0, first_of_copy = 0;
        for (i = 0; i < n && offset_of(lines[i]) <= bound[k]; i++) {
            found |= offset_of(lines[i]) == bound[k];
            if (offset_of(lines[i]) <= bound[k - 1])
                first_of_copy = i;
        }
        if (!found) {
            /* one copy alone, then the same bytes unrolled */
            char (*alone)[128] = malloc(64 * sizeof *alone);
            size_t v = (k - 1) % nvar;
            int m = alone ? tks__asm_disassemble(code + off[v], off[v + 1] - off[v],
                                                 TKS_ASM_INTEL, alone, 64, why, sizeof why)
                          : -1;
            list(alone, 0, m > 0 ? m : 0, one, sizeof one);
            list(lines, first_of_copy, i < n ? i + 1 : n, two, sizeof two);
            snprintf(err, errsz, "the snippet's copies do not decode at their own boundaries "
                     "(its last instruction runs into the next copy), so the loop would not "
                     "run what one copy is: one copy alone is %s; unrolled, copy %zu and the "
                     "next run as %s", one, k, two);
            free(alone);
            rc = TKS_EINVAL;
        }
    }
    for (int i = 0; i < n && !rc && check_memory; i++)
        if (offset_of(lines[i]) < bound[nb - 1] && foreign_memory(tks__asm_insn_text(lines[i]))) {
            snprintf(err, errsz, "the snippet touches memory it was not given: `%s` (byte %zu "
                     "of the copies): address memory through r14, which points to the scratch "
                     "area (--scratch SIZE)",
                     tks__asm_insn_text(lines[i]), offset_of(lines[i]));
            rc = TKS_EINVAL;
        }
    free(body);
    free(lines);
    return rc;
}
