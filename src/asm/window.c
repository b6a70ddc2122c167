/* SPDX-License-Identifier: MIT */
/* window.c: which instructions a benchmark's windows hold: a scan of objdump's text (window_find.c
 * gets it from the running program) that pairs every begin sequence (a fence or CPUID, RDTSC, the
 * reading combined) with the end sequence of its method. */
#include "asm/window.h"
#include "asm/asm_internal.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/clock.h"
#include "tickscope/common.h"


struct insn {
    char mn[24];
    char ops[96];
};

/* "  5a65:\trdtsc" / "  5a67:\tshl    $0x20,%rdx" into an insn; 0 when not an instruction. */
static int parse_insn(const char *line, struct insn *in, uint64_t *addr)
{
    const char *p = line, *tab;
    char *end;
    size_t k = 0;
    while (*p == ' ')
        p++;
    *addr = strtoull(p, &end, 16);
    if (end == p || end[0] != ':' || end[1] != '\t')
        return 0;
    p = end + 2;
    tab = p;
    while (*tab && !isspace((unsigned char)*tab) && k + 1 < sizeof in->mn)
        in->mn[k++] = *tab++;
    in->mn[k] = 0;
    while (*tab == ' ')
        tab++;
    snprintf(in->ops, sizeof in->ops, "%s", tab);
    /* objdump's comments (# ...) are dropped, the <symbol> of a call or jump kept. */
    if ((end = strstr(in->ops, " #")))
        *end = 0;
    for (k = strlen(in->ops); k > 0 && isspace((unsigned char)in->ops[k - 1]); k--)
        in->ops[k - 1] = 0;
    return k > 0 || in->mn[0];
}

static int is(const struct insn *in, const char *mn)
{
    return strcmp(in->mn, mn) == 0;
}

/* ---- the methods' sequences, read from the method list (tickscope/clock.h): "MFENCE; LFENCE;
 * RDTSC; LFENCE" is what precedes the begin reading (mfence, lfence), the reading, and what
 * follows it (lfence); the end sequence's first instruction marks the window's end. */

#define SEQ_MAX 6

struct seq {
    size_t n;
    char mn[SEQ_MAX][TKS__STEP_LEN]; /* lower case, as objdump prints them */
};

struct method_seqs {
    struct seq pre[TKS_METHOD_COUNT], post[TKS_METHOD_COUNT];
    char end[TKS_METHOD_COUNT][TKS__STEP_LEN];
    int user_x86[TKS_METHOD_COUNT]; /* a method of the programs this scans */
};

static void method_seqs_read(struct method_seqs *t)
{
    memset(t, 0, sizeof *t);
    for (int m = 0; m < TKS_METHOD_COUNT; m++) {
        const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
        struct seq begin, end;
        size_t r;
        t->user_x86[m] = (mi->flags & TKS_MF_X86) && !(mi->flags & TKS_MF_RING0);
        begin.n = tks__method_steps(mi->begin, begin.mn, SEQ_MAX);
        end.n = tks__method_steps(mi->end, end.mn, SEQ_MAX);
        for (r = 0; r < begin.n && strcmp(begin.mn[r], "rdtsc") != 0; r++)
            memcpy(t->pre[m].mn[t->pre[m].n++], begin.mn[r], sizeof begin.mn[r]);
        for (r++; r < begin.n; r++)
            memcpy(t->post[m].mn[t->post[m].n++], begin.mn[r], sizeof begin.mn[r]);
        if (end.n)
            memcpy(t->end[m], end.mn[0], sizeof t->end[m]);
    }
}

/* Whether instruction in is mnemonic mn of a method's sequence. SERIALIZE is "(bad)" to
 * objdumps that predate it. */
static int is_step(const struct insn *in, const char *mn)
{
    return is(in, mn) || (!strcmp(mn, "serialize") && is(in, "(bad)"));
}

/* Whether the instructions just before v[at] (v[at - 1] back) end with seq s. */
static int ends_with(const struct insn *v, size_t at, const struct seq *s)
{
    if (s->n > at)
        return 0;
    for (size_t k = 0; k < s->n; k++)
        if (!is_step(&v[at - 1 - k], s->mn[s->n - 1 - k]))
            return 0;
    return 1;
}

/* The method of the begin RDTSC at i: the longest pre-RDTSC sequence that ends at the nearest of
 * the 4 instructions before (moves may follow a CPUID); else the one whose begin is RDTSC alone;
 * -1 when the list has none. cpuid and rdtscp begin alike: one_window tells them by the end. */
static int begin_method(const struct method_seqs *t, const struct insn *v, size_t i)
{
    for (size_t back = 1; back <= 4 && back <= i; back++) {
        const struct insn *p = &v[i - back];
        int best = -1;
        for (int m = 0; m < TKS_METHOD_COUNT; m++)
            if (t->user_x86[m] && t->pre[m].n && ends_with(v, i - back + 1, &t->pre[m]) &&
                (best < 0 || t->pre[m].n > t->pre[best].n))
                best = m;
        if (best >= 0)
            return best;
        if (is(p, "rdtsc") || is(p, "rdtscp") || p->mn[0] == 'j' || is(p, "call") || is(p, "ret"))
            break;
    }
    for (int m = 0; m < TKS_METHOD_COUNT; m++)
        if (t->user_x86[m] && !t->pre[m].n)
            return m;
    return -1;
}

/* Methods whose begin sequences are the same (cpuid, rdtscp). */
static int same_begin(int a, int b)
{
    return !strcmp(tks_method_info((enum tks_method)a)->begin,
                   tks_method_info((enum tks_method)b)->begin);
}

/* Whether in ends a window that a begin of method m opened: the end sequence's first instruction
 * of m or of a method that begins alike, or an RDTSCP. */
static int ends_window(const struct method_seqs *t, int m, const struct insn *in)
{
    if (is(in, "rdtscp"))
        return 1;
    for (int o = 0; o < TKS_METHOD_COUNT; o++)
        if (t->user_x86[o] && same_begin(m, o) && is_step(in, t->end[o]))
            return 1;
    return 0;
}

static int foreign_call(const char *ops, char *name, size_t size)
{
    static const char *const prefixes[] = {"tks_", "__asan", "__ubsan", "__tsan", "__sanitizer",
                                           "mcount", "__fentry__", "__cyg_profile", "__stack_chk",
                                           "__gcov", "__llvm"};
    const char *lt = strchr(ops, '<');
    size_t k = 0;
    if (!lt)
        return 0;
    for (lt++; *lt && *lt != '>' && *lt != '+' && *lt != '@' && k + 1 < size; lt++)
        name[k++] = *lt;
    name[k] = 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* A store of reg: "mov %REG,MEM" (MEM has a parenthesis). */
static int stores(const struct insn *in, const char *reg)
{
    size_t n = strlen(reg);
    return !strncmp(in->mn, "mov", 3) && !strncmp(in->ops, reg, n) && in->ops[n] == ',' &&
           strchr(in->ops + n, '(') != NULL;
}

static int add_window(tks__window **w, size_t *n, size_t *cap, const tks__window *one)
{
    if (*n == *cap) {
        tks__window *g = realloc(*w, (*cap = *cap ? 2 * *cap : 8) * sizeof *g);
        if (!g)
            return TKS_ENOMEM;
        *w = g;
    }
    (*w)[(*n)++] = *one;
    return 0;
}

/* Whether the 64-bit register of a (rax) or d (rdx) appears in ops, whatever its width. */
static int names_ad(const char *ops, char r)
{
    char l[5] = {'%', 'r', r, 'x', 0}, e[5] = {'%', 'e', r, 'x', 0};
    return strstr(ops, l) || strstr(ops, e);
}

/* Whether the RDTSCP at v[k] only reads TSC_AUX (tks_cpu_aux, after an end reading whose
 * method's end has none) rather than ending a window: an end reading's counter in EDX:EAX is
 * read on some path after it (branches followed, 12 instructions each); TSC_AUX's read leaves
 * both to be overwritten unread. lfence_rdtsc's end reading begins like lfence's: what follows
 * it is the bookkeeping, and that RDTSCP, which ends no window. Such a read is the one a
 * branch skips when TSC_AUX is not compared. */
static int aux_only(const struct insn *v, const uint64_t *addr, size_t count, size_t k)
{
    struct path { size_t at; unsigned live; } todo[16];
    size_t n = 0, steps = 0;
    /* Only a read that a branch skips (if (check_aux) ...): an end reading follows the work. */
    if (k == 0 || v[k - 1].mn[0] != 'j' || is(&v[k - 1], "jmp") ||
        strtoull(v[k - 1].ops, NULL, 16) <= addr[k])
        return 0;
    todo[n++] = (struct path){k + 1, 3u};
    while (n > 0) {
        struct path p = todo[--n];
        for (int depth = 0; depth < 12 && p.at < count && p.live && steps < 200; depth++, steps++) {
            const struct insn *in = &v[p.at];
            const char *comma = strrchr(in->ops, ',');
            char src[96];
            unsigned dst = 0, read = 0;
            if (is(in, "call") || is(in, "ret") || is(in, "rdtsc") || is(in, "rdtscp") || is(in, "cpuid"))
                break;
            snprintf(src, sizeof src, "%.*s", comma ? (int)(comma - in->ops) : 0, in->ops);
            for (int r = 0; r < 2; r++) {
                unsigned bit = 1u << r;
                if (!(p.live & bit))
                    continue;
                if (names_ad(src, "ad"[r]))
                    read |= bit;
                if (comma && names_ad(comma + 1, "ad"[r]))
                    dst |= bit;
            }
            /* xor %eax,%eax zeroes; a move, lea or set overwrites; anything else reads. */
            if (is(in, "xor") && comma && !strcmp(src, comma + 1))
                read = 0;
            else if (dst && strncmp(in->mn, "mov", 3) && strcmp(in->mn, "lea") && strncmp(in->mn, "set", 3))
                read |= dst;
            if (read)
                return 0;
            p.live &= ~dst;
            if (in->mn[0] == 'j') {
                uint64_t target = strtoull(in->ops, NULL, 16);
                for (size_t t = 0; t < count && n < sizeof todo / sizeof todo[0]; t++)
                    if (addr[t] == target) {
                        todo[n++] = (struct path){t, p.live};
                        break;
                    }
                if (is(in, "jmp"))
                    break;
            }
            p.at++;
        }
    }
    return 1;
}

/* Whether the direct jump v[k] leads, within a few instructions and before any end reading of
 * method m, to a jump table: --explain's perturbed kernel as clang lays it out, its switch over
 * the added work placed apart from the k-loop and jumped to (gcc keeps it in line). */
static int leads_to_table(const struct method_seqs *t, int m, const struct insn *v,
                          const uint64_t *addr, size_t count, size_t k)
{
    uint64_t target = strtoull(v[k].ops, NULL, 16);
    size_t i = 0;
    while (i < count && addr[i] != target)
        i++;
    for (size_t n = 0; i < count && n < 32; i++, n++) {
        if (ends_window(t, m, &v[i]))
            return 0;
        if (is(&v[i], "jmp") && v[i].ops[0] == '*')
            return 1;
    }
    return 0;
}

/* The window whose begin RDTSC is v[i]; its end marker's index in *end. */
static int one_window(const struct method_seqs *t, const struct insn *v, const uint64_t *addr,
                      size_t count, size_t i, tks__window *w, size_t *end)
{
    int method = begin_method(t, v, i);
    char reading[16] = "%rax";
    size_t j = i + 1, k, stop;
    memset(w, 0, sizeof *w);
    if (method < 0)
        return TKS_EINVAL; /* an RDTSC that begins no sequence of the method list */
    if (j < count && is(&v[j], "shl") && strstr(v[j].ops, "%rdx"))
        j++;
    if (j < count && is(&v[j], "or") && !strcmp(v[j].ops, "%rdx,%rax"))
        j++;
    if (j < count && is(&v[j], "mov") && !strncmp(v[j].ops, "%rax,", 5)) {
        snprintf(reading, sizeof reading, "%s", v[j].ops + 5);
        j++;
    }
    for (size_t r = 0; r < t->post[method].n && j < count && is_step(&v[j], t->post[method].mn[r]);
         r++)
        j++;
    for (k = j; k < count && !ends_window(t, method, &v[k]); k++) {
        /* Without a closing fence an end reading looks like a begin one (cpuid and rdtsc read
         * the clock the same way at both ends): what follows an end reading is the harness's
         * bookkeeping, with branches, so a branch means this reading ended a window. */
        if (!t->post[method].n)
            if (v[k].mn[0] == 'j' || is(&v[k], "call") || is(&v[k], "ret"))
                return 0;
        if (is(&v[k], "jmp") || is(&v[k], "ret"))
            break;
    }
    /* No end; or this reading ended a window (aux_only); or the window leaves through a jump
     * table: --explain's switch over its added work inside the k-loop of its own kernel
     * (bench_perturb.h), which runs only under --explain and which the straight line cannot
     * follow. */
    if (k == count || (is(&v[k], "rdtscp") && aux_only(v, addr, count, k)) ||
        (is(&v[k], "jmp") && (v[k].ops[0] == '*' || leads_to_table(t, method, v, addr, count, k))))
        return 0;
    stop = k;
    if (is(&v[k], "jmp") || is(&v[k], "ret")) {
        w->flags |= TKS__WIN_JUMPOUT;
        stop = k + 1;
    } else if (is(&v[k], "cpuid")) {
        /* CPUID's leaf and subleaf are set just before it: the end sequence's, not the work. */
        while (stop > j && (strstr(v[stop - 1].ops, ",%eax") || strstr(v[stop - 1].ops, ",%ecx")) &&
               (is(&v[stop - 1], "xor") || is(&v[stop - 1], "mov")))
            stop--;
    }
    /* Methods that begin alike (cpuid, rdtscp) are told apart by the instruction that ended. */
    if (!is_step(&v[k], t->end[method]))
        for (int o = 0; o < TKS_METHOD_COUNT; o++)
            if (t->user_x86[o] && same_begin(method, o) && is_step(&v[k], t->end[o]))
                method = o;
    snprintf(w->method, sizeof w->method, "%s", tks_method_info((enum tks_method)method)->name);
    w->address = j < count ? addr[j] : 0;
    w->n = stop - j;
    w->insn = w->n ? malloc(w->n * sizeof *w->insn) : NULL;
    if (w->n && !w->insn)
        return TKS_ENOMEM;
    for (size_t m = j; m < stop; m++) {
        const struct insn *in = &v[m];
        /* Cut at the line's width: operands longer than that are objdump's symbol comments. */
        snprintf(w->insn[m - j], sizeof w->insn[0], "%s%s%.70s", in->mn, in->ops[0] ? " " : "",
                 in->ops);
        if (is(in, "cpuid"))
            w->flags |= TKS__WIN_CPUID;
        if (stores(in, reading))
            w->flags |= TKS__WIN_STORE;
        if (is(in, "call") && !(w->flags & TKS__WIN_CALL) &&
            foreign_call(in->ops, w->call, sizeof w->call))
            w->flags |= TKS__WIN_CALL;
        if (in->mn[0] == 'j') {
            uint64_t target = strtoull(in->ops, NULL, 16);
            if (target >= addr[j] && target < addr[m])
                w->loop = 1;
        }
    }
    *end = k;
    return 1;
}

int tks__windows_parse(const char *text, tks__window **out, size_t *n)
{
    size_t count = 0, cap = 0, wcap = 0;
    struct method_seqs seqs;
    struct insn *v = NULL;
    uint64_t *addr = NULL;
    const char *p = text;
    int rc = 0;
    *out = NULL;
    *n = 0;
    while (*p) {
        const char *e = strchr(p, '\n');
        char line[256];
        size_t len = e ? (size_t)(e - p) : strlen(p);
        struct insn in;
        uint64_t a;
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        memset(&in, 0, sizeof in);
        if (parse_insn(line, &in, &a)) {
            if (count == cap) {
                struct insn *g = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof *g);
                uint64_t *h = g ? realloc(addr, cap * sizeof *h) : NULL;
                if (g)
                    v = g;
                if (!g || !h) {
                    rc = TKS_ENOMEM;
                    goto done;
                }
                addr = h;
            }
            addr[count] = a;
            v[count++] = in;
        }
        p += len + (e ? 1 : 0);
    }
    method_seqs_read(&seqs);
    for (size_t i = 0; i < count; i++) {
        tks__window w;
        size_t end = i;
        int found;
        if (!is(&v[i], "rdtsc"))
            continue;
        if ((found = one_window(&seqs, v, addr, count, i, &w, &end)) < 0) {
            rc = found;
            goto done;
        }
        if (!found)
            continue;
        if ((rc = add_window(out, n, &wcap, &w)) != 0) {
            free(w.insn);
            goto done;
        }
        /* An RDTSC that ended a window (lfence_rdtsc's follows its LFENCE) begins no other. */
        if (is(&v[end], "rdtsc") || (is(&v[end], "lfence") && end + 1 < count && is(&v[end + 1], "rdtsc")))
            i = is(&v[end], "rdtsc") ? end : end + 1;
    }
done:
    free(v);
    free(addr);
    if (rc) {
        tks__windows_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void tks__windows_free(tks__window *w, size_t n)
{
    for (size_t i = 0; w && i < n; i++)
        free(w[i].insn);
    free(w);
}
