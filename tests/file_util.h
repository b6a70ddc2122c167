/* SPDX-License-Identifier: MIT */
/* file_util.h: what the output-file tests share: how many entries a directory holds (temporaries
 * left behind show up there) and the content of a small file. */
#ifndef TKS_TESTS_FILE_UTIL_H
#define TKS_TESTS_FILE_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* Entries in dir other than "." and ".."; -1 if it cannot be read. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* The whole content of a small file, or "(missing)". */
static const char *slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f)
        return "(missing)";
    n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#endif
