/* SPDX-License-Identifier: MIT */
/* baseline.c: named baselines beside the calibration cache, so that a CI job's "the figures of
 * main" live where tickscope already keeps what it learnt, and a path works everywhere else. */
#include "platform/baseline.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "platform/cache.h"

static int is_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') || (n >= 5 && !strcmp(name + n - 5, ".json"));
}

int tks__baseline_path(const char *name, char *path, size_t size)
{
    char cache[512];
    char *slash;
    int n, rc;
    if (!name || !*name || !path || !size)
        return TKS_EINVAL;
    if (is_path(name)) {
        n = snprintf(path, size, "%s", name);
        return n < 0 || (size_t)n >= size ? TKS_ERANGE : 0;
    }
    if (name[0] == '.' || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789._-") != strlen(name))
        return TKS_EINVAL;
    /* the calibration file's directory is the cache directory */
    if ((rc = tks__cache_path(NULL, cache, sizeof cache)) != 0)
        return rc;
    if ((slash = strrchr(cache, '/')) != NULL)
        *slash = 0;
    n = snprintf(path, size, "%s/baselines/%s.json", cache, name);
    return n < 0 || (size_t)n >= size ? TKS_ERANGE : 0;
}

int tks__baseline_make_dir(const char *path)
{
    char dir[1024];
    size_t n = strlen(path);
    if (n >= sizeof dir)
        return TKS_ERANGE;
    memcpy(dir, path, n + 1);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return TKS_EIO;
        *p = '/';
    }
    return 0;
}
