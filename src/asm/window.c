/* SPDX-License-Identifier: MIT */
/* window.c: which instructions a benchmark's windows hold, read back from the running program:
 * the function's extent from its ELF symbol table, its code from objdump, and a scan that pairs
 * every begin sequence (a fence or CPUID, RDTSC, the reading combined) with the end sequence of
 * its method. */
#include "asm/window.h"
#include "asm/asm_internal.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/clock.h"
#include "tickscope/common.h"

#if defined(__linux__) && defined(__x86_64__)
#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>
#endif

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
    if (k == count)
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

#if defined(__linux__) && defined(__x86_64__)
/* The function symbol of an ELF file named `want` (when not NULL) or covering vaddr: its name,
 * value and size. */
static int symbol_of(const char *file, uint64_t vaddr, const char *want, char *name,
                     size_t namesz, uint64_t *start, uint64_t *size)
{
    FILE *f = fopen(file, "rb");
    unsigned char *o = NULL;
    long len;
    int rc = TKS_EINVAL;
    if (!f)
        return TKS_EIO;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > (long)sizeof(Elf64_Ehdr) &&
        fseek(f, 0, SEEK_SET) == 0 && (o = malloc((size_t)len)) &&
        fread(o, 1, (size_t)len, f) == (size_t)len) {
        const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o;
        const Elf64_Shdr *sh = (const Elf64_Shdr *)(o + eh->e_shoff);
        if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
            eh->e_shoff + (uint64_t)eh->e_shnum * sizeof *sh > (uint64_t)len)
            goto out;
        for (int pass = 0; pass < 2 && rc; pass++)
            for (unsigned s = 0; s < eh->e_shnum && rc; s++) {
                const Elf64_Sym *sym;
                const char *strtab;
                if (sh[s].sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) || sh[s].sh_link >= eh->e_shnum)
                    continue;
                sym = (const Elf64_Sym *)(o + sh[s].sh_offset);
                strtab = (const char *)o + sh[sh[s].sh_link].sh_offset;
                for (size_t k = 0; k < sh[s].sh_size / sizeof *sym; k++) {
                    if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || !sym[k].st_size)
                        continue;
                    if (want ? strcmp(strtab + sym[k].st_name, want) != 0
                             : !(vaddr >= sym[k].st_value &&
                                 vaddr < sym[k].st_value + sym[k].st_size))
                        continue;
                    snprintf(name, namesz, "%s", strtab + sym[k].st_name);
                    *start = sym[k].st_value;
                    *size = sym[k].st_size;
                    rc = 0;
                    break;
                }
            }
    } else {
        rc = TKS_EIO;
    }
out:
    free(o);
    fclose(f);
    return rc;
}

/* The file holding code address fn, and its load address. */
static int file_of(const void *fn, char *file, size_t size, uint64_t *base, char *err,
                   size_t errsize)
{
    Dl_info info;
    if (!dladdr(fn, &info)) {
        snprintf(err, errsize, "the function at %p is in no loaded file", fn);
        return TKS_EINVAL;
    }
    *base = (uint64_t)(uintptr_t)info.dli_fbase;
    snprintf(file, size, "%s", info.dli_fname && *info.dli_fname ? info.dli_fname : "");
    if (!*file || access(file, R_OK) != 0 || strchr(file, '/') == NULL) {
        ssize_t k = readlink("/proc/self/exe", file, size - 1);
        if (k <= 0) {
            snprintf(err, errsize, "cannot find the program's file: %s", strerror(errno));
            return TKS_EIO;
        }
        file[k] = 0;
    }
    return 0;
}

static int disassemble_range(const char *file, uint64_t start, uint64_t size, tks__window **out,
                             size_t *n, char *err, size_t errsize)
{
    char a0[40], a1[40], path[4096], *text;
    char *argv[] = {"objdump", "-d", "--no-show-raw-insn", "-w", a0, a1, path, NULL};
    const size_t cap = 16 << 20;
    int st, rc;
    snprintf(path, sizeof path, "%s", file);
    snprintf(a0, sizeof a0, "--start-address=0x%llx", (unsigned long long)start);
    snprintf(a1, sizeof a1, "--stop-address=0x%llx", (unsigned long long)(start + size));
    if (!(text = malloc(cap)))
        return TKS_ENOMEM;
    st = tks__asm_spawn(argv, text, cap);
    if (st != 0) {
        int missing = st == -1 && errno == ENOENT;
        snprintf(err, errsize, missing ? "objdump is not installed: install binutils (Debian: "
                                         "apt-get install binutils)"
                                       : "objdump failed on %s", file);
        free(text);
        return missing ? TKS_EUNAVAIL : TKS_EIO;
    }
    rc = tks__windows_parse(text, out, n);
    free(text);
    return rc;
}

int tks__windows_find(const void *fn, tks__window **out, size_t *n, char *symbol,
                      size_t symsize, char *err, size_t errsize)
{
    char file[4096];
    uint64_t base, vaddr = (uint64_t)(uintptr_t)fn, start, size;
    int rc;
    *out = NULL;
    *n = 0;
    if ((rc = file_of(fn, file, sizeof file, &base, err, errsize)) != 0)
        return rc;
    /* A position-independent file's symbols are relative to its load address; a fixed one's
     * are the addresses themselves. */
    if (symbol_of(file, vaddr - base, NULL, symbol, symsize, &start, &size) != 0 &&
        symbol_of(file, vaddr, NULL, symbol, symsize, &start, &size) != 0) {
        snprintf(err, errsize, "no symbol covers the function in %s (a stripped program? build "
                 "without -s)", file);
        return TKS_EINVAL;
    }
    return disassemble_range(file, start, size, out, n, err, errsize);
}

int tks__windows_find_named(const void *anchor, const char *name, tks__window **out, size_t *n,
                            char *err, size_t errsize)
{
    char file[4096], sym[128];
    uint64_t base, start, size;
    int rc;
    *out = NULL;
    *n = 0;
    if ((rc = file_of(anchor, file, sizeof file, &base, err, errsize)) != 0)
        return rc;
    if (symbol_of(file, 0, name, sym, sizeof sym, &start, &size) != 0) {
        snprintf(err, errsize, "no function %s in %s (a stripped build?)", name, file);
        return TKS_EINVAL;
    }
    return disassemble_range(file, start, size, out, n, err, errsize);
}
#else
int tks__windows_find(const void *fn, tks__window **out, size_t *n, char *symbol,
                      size_t symsize, char *err, size_t errsize)
{
    (void)fn, (void)symbol, (void)symsize;
    *out = NULL;
    *n = 0;
    snprintf(err, errsize, "--disasm reads x86-64 code on Linux only");
    return TKS_EUNAVAIL;
}

int tks__windows_find_named(const void *anchor, const char *name, tks__window **out, size_t *n,
                            char *err, size_t errsize)
{
    (void)anchor, (void)name;
    *out = NULL;
    *n = 0;
    snprintf(err, errsize, "--disasm reads x86-64 code on Linux only");
    return TKS_EUNAVAIL;
}
#endif
