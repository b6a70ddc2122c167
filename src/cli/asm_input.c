/* SPDX-License-Identifier: MIT */
/* asm_input.c: what `tickscope asm` reads from its options (asm_input.h): sizes and files. */
#include "cli/asm_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "32K", "1M", "4096" in bytes; 0 when not a size. */
uint64_t cli_asm_size(const char *t)
{
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(t, &end, 10);
    if (end == t || errno)
        return 0;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    else if (*end == 'G' || *end == 'g')
        v <<= 30, end++;
    return *end ? 0 : v;
}

/* The whole of a file (or stdin for "-"), NUL-terminated; NULL with errno on failure. */
char *cli_asm_slurp(const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    size_t n = 0, cap = 4096;
    char *buf = NULL, *grown;
    if (!f)
        return NULL;
    while ((grown = realloc(buf, cap))) {
        buf = grown;
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        cap *= 2;
    }
    if (!grown || ferror(f)) {
        free(buf);
        buf = NULL;
        errno = errno ? errno : EIO;
    } else {
        buf[n] = 0;
    }
    if (f != stdin)
        fclose(f);
    return buf;
}

