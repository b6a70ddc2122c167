/* SPDX-License-Identifier: MIT */
/* window_find.c: where a function's windows are in the running program: the function's extent
 * from its ELF symbol table, its code from objdump, handed to the scan of window.c. */
#include "asm/window.h"
#include "asm/asm_internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/common.h"

#if defined(__linux__) && defined(__x86_64__)
#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>
#endif

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
