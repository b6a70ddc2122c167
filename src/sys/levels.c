/* SPDX-License-Identifier: MIT */
/* levels.c: the memory hierarchy as the machine declares it (/sys's cache directories) and as a
 * latency curve shows it (its knees). Both pure of measurement, so tests give them fixture trees
 * and synthetic curves. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/procfs.h"
#include "sys/sys_internal.h"

/* "48K", "1024K", "32M", "4096" (bytes) into bytes; 0 when unreadable. */
static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    switch (toupper((unsigned char)*end)) {
    case 'K': v <<= 10; break;
    case 'M': v <<= 20; break;
    case 'G': v <<= 30; break;
    default: break;
    }
    return (size_t)v;
}

size_t tks_sys_cache_levels(const char *root, tks_sys_cache_level *out, size_t max)
{
    size_t n = 0;
    for (int i = 0; i < 16 && n < max; i++) {
        char path[128], type[16], size[32];
        long level;
        tks_sys_cache_level c;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (tks__proc_read_text(root, path, type, sizeof type) != 0)
            continue;
        if (strcmp(type, "Data") && strcmp(type, "Unified"))
            continue; /* instruction caches hold no data the chase could touch */
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (tks__proc_read_long(root, path, &level) != 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (tks__proc_read_text(root, path, size, sizeof size) != 0)
            continue;
        memset(&c, 0, sizeof c);
        c.level = (int)level;
        snprintf(c.type, sizeof c.type, "%s", type);
        c.bytes = parse_size(size);
        if (!c.bytes)
            continue;
        /* sorted by level: the directories are usually in order, but nothing promises it */
        size_t j = n;
        while (j > 0 && out[j - 1].level > c.level) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = c;
        n++;
    }
    return n;
}

size_t tks_sys_level_bytes(const char *root, uint64_t *out, size_t max)
{
    tks_sys_cache_level lv[TKS_SYS_LEVEL_MAX];
    size_t found = tks_sys_cache_levels(root, lv, TKS_SYS_LEVEL_MAX), n = 0;
    for (size_t i = 0; i < found && n < max; i++)
        if (!n || lv[i].level != lv[i - 1].level)
            out[n++] = lv[i].bytes;
    return n;
}

/* Walk the curve keeping the level of the current plateau. A knee is the last working set before
 * the cost leaves the plateau by `rise` and the next point stays up too (one noisy point is not
 * a level); the new plateau is where the climb flattens (a step rising by less than CLIMB), so
 * one transition spread over several points counts once. */
#define CLIMB 1.2
size_t tks_sys_knees(const size_t *bytes, const double *cost, size_t n, double rise, size_t *out,
                     size_t max)
{
    size_t k = 0, i = 0;
    double plateau;
    if (!bytes || !cost || n < 2 || rise <= 1)
        return 0;
    plateau = cost[0];
    while (i + 1 < n && k < max) {
        int up = cost[i + 1] > rise * plateau && (i + 2 >= n || cost[i + 2] > rise * plateau);
        if (!up) {
            /* a plateau drifts a little (noise, a partial level): follow its low side */
            if (cost[i + 1] < plateau)
                plateau = cost[i + 1];
            i++;
            continue;
        }
        out[k++] = bytes[i];
        i++;
        while (i + 1 < n && cost[i + 1] > CLIMB * cost[i])
            i++;
        plateau = cost[i];
    }
    return k;
}

/* A knee within one point of the curve from the first working set at or past bytes. */
int tks__sys_knee_near(const tks_sys_result *r, size_t bytes)
{
    size_t at = r->n_curve;
    for (size_t i = 0; i < r->n_curve && at == r->n_curve; i++)
        if (r->curve[i].bytes >= bytes)
            at = i;
    for (size_t k = 0; k < r->n_knees; k++)
        for (size_t i = 0; i < r->n_curve; i++)
            if (r->curve[i].bytes == r->knees[k] && (i + 1 >= at && i <= at + 1))
                return 1;
    return 0;
}

/* Where the curve ends /sys's level c when no knee is near its size: the largest knee below
 * that size and past the level before it (0: none). A guest can get less of a shared cache than
 * /sys declares. */
size_t tks__sys_shown_level(const tks_sys_result *r, size_t c)
{
    size_t below = c ? r->caches[c - 1].bytes : 0, got = 0;
    if (tks__sys_knee_near(r, r->caches[c].bytes))
        return 0;
    for (size_t k = 0; k < r->n_knees; k++)
        if (r->knees[k] < r->caches[c].bytes && r->knees[k] > below &&
            !(c && tks__sys_knee_near(r, below) && r->knees[k] <= 2 * below))
            got = r->knees[k];
    return got;
}
