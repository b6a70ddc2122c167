/* SPDX-License-Identifier: MIT */
/* plot_util.h: what the plot tests share: a scratch directory, and reading back the files a
 * figure wrote. */
#ifndef TKS_TESTS_PLOT_UTIL_H
#define TKS_TESTS_PLOT_UTIL_H

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "report/common/report.h"
#include "tickscope.h"

#define EINVAL_U64 ((uint64_t)(int64_t)TKS_EINVAL)
#define EIO_U64 ((uint64_t)(int64_t)TKS_EIO)
#define EUNAVAIL_U64 ((uint64_t)(int64_t)TKS_EUNAVAIL)

#define MAX_ROWS 512
#define MAX_COLS 8

static char root[PATH_MAX];

/* ---- helpers */

static inline void path_of(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        exit(1);
    }
}

/* A fresh directory under the test's root. */
static inline void fresh_dir(char *out, const char *name)
{
    path_of(out, root, name);
    mkdir(out, 0777);
}

/* The whole file, NUL-terminated (free() it), or NULL. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static inline int exists(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    path_of(p, dir, name);
    return stat(p, &st) == 0;
}

static inline int contains(const char *dir, const char *name, const char *needle)
{
    char p[PATH_MAX];
    char *s;
    int found;
    path_of(p, dir, name);
    s = slurp(p);
    found = s && strstr(s, needle) != NULL;
    if (!found)
        fprintf(stderr, "  %s does not contain \"%s\"\n", p, needle);
    free(s);
    return found;
}

/* Entries of dir other than . and .. (-1 if unreadable); *temps counts the atomic writer's
 * temporaries (".NAME.tmp.XXXXXX"). */
static inline int count_entries(const char *dir, int *temps)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    *temps = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        *temps += e->d_name[0] == '.' && strstr(e->d_name, ".tmp.") != NULL;
    }
    closedir(d);
    return n;
}

/* A data file: the first line must be a '#' header naming the columns; the rest parsed as
 * numbers ("NaN" included). Returns the number of rows, -1 on a malformed file; *ncols is the
 * column count of every row (-1 if they differ). */
static inline int read_dat(const char *dir, const char *name, double rows[][MAX_COLS], int *ncols,
                    char *header, size_t header_size)
{
    char p[PATH_MAX], *text, *line, *save = NULL;
    int nrows = 0;

    path_of(p, dir, name);
    *ncols = 0;
    if (!(text = slurp(p)))
        return -1;
    line = strtok_r(text, "\n", &save);
    if (!line || line[0] != '#') {
        free(text);
        return -1;
    }
    snprintf(header, header_size, "%s", line);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL && nrows < MAX_ROWS) {
        char *tok, *tsave = NULL, *end;
        int c = 0;
        for (tok = strtok_r(line, " \t", &tsave); tok; tok = strtok_r(NULL, " \t", &tsave)) {
            double v = strtod(tok, &end);
            if (*end || c >= MAX_COLS) {
                free(text);
                return -1;
            }
            rows[nrows][c++] = v;
        }
        if (nrows == 0)
            *ncols = c;
        else if (c != *ncols)
            *ncols = -1;
        nrows++;
    }
    free(text);
    return nrows;
}

static inline int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

/* The scratch directory every test of a program writes under (root); 0, or 1 with the reason
 * printed. */
static inline int scratch_make(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/tks_plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    return 0;
}

static inline void scratch_remove(void) { nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

static inline int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* ---- histogram */

/* 80 x 44, 15 x 46, 4 x 48 and one preemption at 1000, quantum 2: the bins cover the bulk and the
 * 1000 is counted as not shown rather than stretching the axis. Q1 = Q3 = 44 (IQR taken as one
 * quantum), far fences 38 and 50, 99th percentile 48 + 0.01 * 952 = 57.52: the bulk is 44..48,
 * the samples inside, so the bins are 44-45, 46-47 and 48-49, as the terminal histogram's. */

static inline void fill_quantised(uint64_t *x)
{
    int i;
    for (i = 0; i < 100; i++)
        x[i] = i < 80 ? 44 : i < 95 ? 46 : i < 99 ? 48 : 1000;
}

#endif /* TKS_TESTS_PLOT_UTIL_H */
