/* SPDX-License-Identifier: MIT */
/* procfs.c: small numeric files under /proc and /sys, read relative to a root directory. */
#include "base/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tickscope.h"

int tks__proc_path(char *buf, size_t size, const char *root, const char *path)
{
    int n;
    if (!root || !*root || (root[0] == '/' && root[1] == 0))
        root = "";
    n = snprintf(buf, size, "%s%s", root, path);
    return n < 0 || (size_t)n >= size ? TKS_ERANGE : 0;
}

int tks__proc_read_long(const char *root, const char *path, long *out)
{
    char full[4096], text[64], *end;
    FILE *f;
    size_t got;
    long v;
    int rc = tks__proc_path(full, sizeof full, root, path);
    if (rc)
        return rc;
    f = fopen(full, "r");
    if (!f)
        return TKS_EIO;
    got = fread(text, 1, sizeof text - 1, f);
    if (ferror(f)) { /* a directory opens but cannot be read */
        fclose(f);
        return TKS_EIO;
    }
    fclose(f);
    text[got] = 0;
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || errno)
        return TKS_EINVAL;
    *out = v;
    return 0;
}

int tks__proc_read_text(const char *root, const char *path, char *buf, size_t size)
{
    char full[4096];
    FILE *f;
    size_t got;
    int rc, more;
    if (!buf || size < 2)
        return TKS_EINVAL;
    buf[0] = 0;
    if ((rc = tks__proc_path(full, sizeof full, root, path)) != 0)
        return rc;
    if (!(f = fopen(full, "r")))
        return TKS_EIO;
    got = fread(buf, 1, size - 1, f);
    if (ferror(f)) {
        fclose(f);
        buf[0] = 0;
        return TKS_EIO;
    }
    more = got == size - 1 && fgetc(f) != EOF;
    fclose(f);
    buf[got] = 0;
    while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
        buf[--got] = 0;
    return more ? TKS_ERANGE : 0;
}

int tks__rt_limits(const char *root, long *runtime_us, long *period_us)
{
    int rc = tks__proc_read_long(root, "/proc/sys/kernel/sched_rt_runtime_us", runtime_us);
    if (rc)
        return rc;
    return tks__proc_read_long(root, "/proc/sys/kernel/sched_rt_period_us", period_us);
}
