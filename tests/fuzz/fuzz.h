/* SPDX-License-Identifier: MIT */
/* fuzz.h: what the fuzz harnesses share: argv and strings cut from the fuzzer's bytes, and a
 * scratch directory of this process for the harnesses that parse files. Each harness defines
 * LLVMFuzzerTestOneInput; libFuzzer drives it (make fuzz), replay_main.c replays saved inputs. */
#ifndef TKS_FUZZ_H
#define TKS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ARGS_MAX 32

/* The bytes as a NUL-terminated copy (malloc'd: ASan sees a read past the end). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Cut the bytes at each NUL or newline into argv[1..] (argv[0] is the program's name), each
 * argument its own allocation so that a read past one is caught. Returns argc; free with
 * fuzz_argv_free. */
static inline int fuzz_argv(const uint8_t *data, size_t size, char **argv)
{
    int argc = 0;
    size_t start = 0;
    argv[argc++] = fuzz_string((const uint8_t *)"tickscope", 9);
    for (size_t i = 0; i <= size && argc < FUZZ_ARGS_MAX; i++)
        if (i == size || data[i] == 0 || data[i] == '\n') {
            if (i == size && i == start && argc > 1)
                break;
            argv[argc++] = fuzz_string(data + start, i - start);
            start = i + 1;
        }
    argv[argc] = NULL;
    return argc;
}

static inline void fuzz_argv_free(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        free(argv[i]);
}

/* A directory of this process's own, made once: in /dev/shm when it is there (a file system in
 * memory: the harnesses write files on every input), else $TMPDIR or /tmp. Removed at exit. */
static char fuzz_dir_path[256];
static void fuzz_dir_remove(void)
{
    char cmd[300];
    if (fuzz_dir_path[0] && snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_path) < (int)sizeof cmd)
        if (system(cmd) != 0)
            fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_path);
}
static inline const char *fuzz_dir(void)
{
    if (!fuzz_dir_path[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
        snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/tks_fuzz.XXXXXX", base ? base : "/tmp");
        if (!mkdtemp(fuzz_dir_path)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_dir_remove);
    }
    return fuzz_dir_path;
}

/* Write size bytes to path (created or truncated). */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        abort();
    }
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
}

#endif
