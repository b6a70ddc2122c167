/* SPDX-License-Identifier: MIT */
/* tools.c: the binutils programs `tickscope asm` runs (as, objdump): spawning them with their
 * output captured, a private temporary directory, and the disassembly of what ran. */
#include "asm/asm_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int tks__asm_spawn(char *const *argv, char *out, size_t size)
{
    char path[] = "/tmp/tickscope-spawn-XXXXXX";
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int fd = mkstemp(path), st, e;
    ssize_t got;
    *out = 0;
    if (fd < 0)
        return -1;
    unlink(path);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    posix_spawn_file_actions_adddup2(&fa, fd, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    if (lseek(fd, 0, SEEK_SET) == 0 && (got = read(fd, out, size - 1)) > 0)
        out[got] = 0;
    close(fd);
    /* posix_spawnp reports a missing program as exit status 127 from the child on glibc. */
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !*out) {
        errno = ENOENT;
        return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -2;
}

int tks__asm_tmpdir(char *dir, size_t size)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if ((size_t)snprintf(dir, size, "%s/tickscope-asm-XXXXXX", base) >= size)
        return TKS_EINVAL;
    return mkdtemp(dir) ? 0 : TKS_EIO;
}

void tks__asm_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    if (d) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(dir);
}

/* "   1f:\t48 01 c0   \tadd    rax,rax" into "0x001f  48 01 c0   add rax,rax". */
static int parse_line(char *line, char *out, size_t size)
{
    char *colon = strchr(line, ':'), *tab1, *tab2, *p, ins[96];
    size_t o = 0;
    unsigned long offset;
    if (!colon || colon[1] != '\t')
        return 0;
    for (p = line; p < colon; p++)
        if (!isspace((unsigned char)*p) && !isxdigit((unsigned char)*p))
            return 0;
    offset = strtoul(line, NULL, 16);
    tab1 = colon + 1;
    tab2 = strchr(tab1 + 1, '\t');
    if (!tab2)
        return 0;
    *tab2 = 0;
    while (tab1[strlen(tab1) - 1] == ' ')
        tab1[strlen(tab1) - 1] = 0;
    /* Collapse the mnemonic's padding to one space. */
    for (p = tab2 + 1; *p && o + 1 < sizeof ins; p++)
        if (!(*p == ' ' && o > 0 && ins[o - 1] == ' '))
            ins[o++] = *p;
    ins[o] = 0;
    /* Long lines are cut: the instruction is what matters, and it fits. */
    if (snprintf(out, size, "0x%04lx  %-24.45s %.60s", offset, tab1 + 1, ins) < 0)
        return 0;
    return 1;
}

int tks__asm_disassemble(const unsigned char *code, size_t len, enum tks_asm_syntax syntax,
                         char (*lines)[128], size_t max, char *err, size_t errsz)
{
    char dir[256], bin[300], *text, *line, *save = NULL;
    char *argv[] = {"objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "--insn-width=15",
                    syntax == TKS_ASM_ATT ? "-Matt" : "-Mintel", bin, NULL};
    FILE *f;
    int st, n = 0;
    const size_t cap = 1 << 20;
    if (tks__asm_tmpdir(dir, sizeof dir) != 0)
        return TKS_EIO;
    snprintf(bin, sizeof bin, "%s/code.bin", dir);
    if (!(f = fopen(bin, "wb")) || fwrite(code, 1, len, f) != len || fclose(f) != 0) {
        tks__asm_rmdir(dir);
        return TKS_EIO;
    }
    if (!(text = malloc(cap))) {
        tks__asm_rmdir(dir);
        return TKS_ENOMEM;
    }
    st = tks__asm_spawn(argv, text, cap);
    tks__asm_rmdir(dir);
    if (st != 0) {
        int missing = st == -1 && errno == ENOENT;
        snprintf(err, errsz, missing ? "objdump is not installed: install binutils (Debian: "
                                       "apt-get install binutils)"
                                     : "objdump failed: %.200s", text);
        free(text);
        return missing ? TKS_EUNAVAIL : TKS_EIO;
    }
    for (line = strtok_r(text, "\n", &save); line && (size_t)n < max;
         line = strtok_r(NULL, "\n", &save))
        n += parse_line(line, lines[n], sizeof lines[0]);
    free(text);
    return n;
}
