/* SPDX-License-Identifier: MIT */
/* quiet.c: was the machine quiet while we calibrated? Other runnable tasks or time stolen by the
 * hypervisor make the figures suspect, so they are used for this run but not cached for the boot. */
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/procfs.h"
#include "platform/cache.h"

/* procs_running and the steal column of the "cpu " line, from /proc/stat. Its "intr" line can be
 * kilobytes long, so it is read line by line, looking only at the starts of lines. */
static void read_stat(const char *root, long *running, long long *steal)
{
    char full[4096], line[512];
    int at_start = 1;
    FILE *fp;
    *running = -1;
    *steal = -1;
    if (tks__proc_path(full, sizeof full, root, "/proc/stat") || !(fp = fopen(full, "r")))
        return;
    while (fgets(line, sizeof line, fp)) {
        unsigned long long v[8];
        if (at_start && strncmp(line, "cpu ", 4) == 0 &&
            sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]) == 8)
            *steal = (long long)v[7]; /* user nice system idle iowait irq softirq steal */
        if (at_start && strncmp(line, "procs_running ", 14) == 0 &&
            sscanf(line + 14, "%ld", running) != 1)
            *running = -1;
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(fp);
}

void tks__load_sample_read(const char *root, tks__load_sample *s)
{
    char avg[128];
    long running, r, total;
    read_stat(root, &running, &s->steal);
    /* /proc/loadavg's fourth field, "running/total", is a second look at the same moment. */
    if (tks__proc_read_text(root, "/proc/loadavg", avg, sizeof avg) == 0 &&
        sscanf(avg, "%*f %*f %*f %ld/%ld", &r, &total) == 2 && r > running)
        running = r;
    /* The thread asking is running, and counts itself. */
    s->others = running > 0 ? running - 1 : running < 0 ? -1 : 0;
}

int tks__load_was_busy(const tks__load_sample *before, const tks__load_sample *after,
                       tks_diags *why)
{
    long others = before->others > after->others ? before->others : after->others;
    if (others > 0) {
        if (why)
            (void)tks__diag(why, TKS_DIAG_PLATFORM_CACHE_BUSY_TASKS, TKS__DN(others));
        return 1;
    }
    if (before->steal >= 0 && after->steal > before->steal) {
        if (why)
            (void)tks__diag(why, TKS_DIAG_PLATFORM_CACHE_BUSY_STEAL,
                            TKS__DN(after->steal - before->steal));
        return 1;
    }
    return 0;
}
