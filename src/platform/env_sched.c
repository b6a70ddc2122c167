/* SPDX-License-Identifier: MIT */
/* env_sched.c: the environment checks of what else runs on, or interrupts, the measuring CPU:
 * isolation, the NMI watchdog, the run queue and real-time throttling. */
#include <stdio.h>
#include <string.h>

#include "platform/cpulist.h"
#include "platform/env_internal.h"
#include "base/procfs.h"
#include "tickscope.h"

/* ---------------------------------------------------------------- 8. isolation */

/* The isolcpus= and nohz_full= words of the kernel command line, or a note that there are none,
 * after what was found. */
static void cmdline_isolation(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char line[4096], buf[160] = "", *w, *save = NULL;
    int rc = tks__env_read_text(c, "/proc/cmdline", line, sizeof line);
    if (rc && rc != TKS_ERANGE)
        return;
    for (w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "--") == 0) /* what follows belongs to init */
            break;
        if (strncmp(w, "isolcpus=", 9) == 0 || strncmp(w, "nohz_full=", 10) == 0)
            tks__env_append(buf, sizeof buf, "%s%s", buf[0] ? " " : "", w);
    }
    if (buf[0])
        DETAIL(f, ENV_CMDLINE_ISOLATION, TKS__DS(buf));
    else
        DETAIL0(f, ENV_CMDLINE_NO_ISOLCPUS);
}

/* Isolating cpu0 is unwise (it does housekeeping the others cannot), so suggest the last CPU. */
static long isolation_target(const struct tks__env_ctx *c)
{
    char online[256];
    long last;
    if (c->cpu != 0 || tks__env_read_text(c, CPU_DIR "/online", online, sizeof online))
        return c->cpu;
    last = tks__cpulist_last(online);
    return last > 0 ? last : c->cpu;
}

static void isolation_finding(const struct tks__env_ctx *c, tks_env_finding *f, const char *iso,
                              const char *nohz)
{
    long n_iso = tks__cpulist_count(iso);
    int in_iso = tks__cpulist_has(iso, c->cpu), in_nohz = tks__cpulist_has(nohz, c->cpu);
    if (in_iso && in_nohz) {
        FINDING(f, TKS_ENV_OK, ENV_ISOLATED, TKS__DN(c->cpu), TKS__DS(iso), TKS__DS(nohz));
    } else if (in_iso) {
        FINDING(f, TKS_ENV_INFO, ENV_ISOLATED_TICKING, TKS__DN(c->cpu));
        ADVICE(f, ENV_ISOLATED_TICKING_FIX, TKS__DN(c->cpu));
    } else if (n_iso > 0) {
        FINDING(f, TKS_ENV_WARN, ENV_ISOLATED_ELSEWHERE, TKS__DS(iso), TKS__DN(c->cpu));
        ADVICE(f, ENV_ISOLATED_ELSEWHERE_FIX, TKS__DN(tks__cpulist_first(iso)));
    } else if (in_nohz) {
        FINDING(f, TKS_ENV_INFO, ENV_TICKLESS_SHARED, TKS__DN(c->cpu));
        ADVICE(f, ENV_TICKLESS_SHARED_FIX, TKS__DN(c->cpu));
    } else {
        FINDING(f, TKS_ENV_INFO, ENV_NOT_ISOLATED, TKS__DN(c->cpu));
        ADVICE(f, ENV_NOT_ISOLATED_FIX, TKS__DN(isolation_target(c)));
    }
}

void tks__env_check_isolation(const struct tks__env_ctx *c, tks_env_finding *f)
{
    static const char iso_path[] = CPU_DIR "/isolated", nohz_path[] = CPU_DIR "/nohz_full";
    char iso[256], nohz[256] = "";
    if (tks__env_read_text(c, iso_path, iso, sizeof iso)) {
        tks__env_unknown(f, "read", iso_path);
        return;
    }
    /* Only kernels built with NO_HZ_FULL have the file: missing means no tickless CPUs. */
    if (tks__env_exists(c, nohz_path) && tks__env_read_text(c, nohz_path, nohz, sizeof nohz)) {
        tks__env_unknown(f, "read", nohz_path);
        return;
    }
    if (tks__cpulist_count(iso) < 0 || tks__cpulist_count(nohz) < 0) {
        tks__env_unknown(f, "parse", tks__cpulist_count(iso) < 0 ? iso_path : nohz_path);
        return;
    }
    isolation_finding(c, f, tks__cpulist_text(iso), tks__cpulist_text(nohz));
    cmdline_isolation(c, f);
}

/* ---------------------------------------------------------------- 9. NMI watchdog */

void tks__env_check_nmi_watchdog(const struct tks__env_ctx *c, tks_env_finding *f)
{
    static const char path[] = "/proc/sys/kernel/nmi_watchdog";
    long v;
    if (tks__env_read_long(c, path, &v)) {
        tks__env_unknown(f, "read", path);
        return;
    }
    if (v == 0) {
        FINDING0(f, TKS_ENV_OK, ENV_NMI_WATCHDOG_OFF);
        return;
    }
    FINDING0(f, TKS_ENV_WARN, ENV_NMI_WATCHDOG);
    ADVICE(f, ENV_NMI_WATCHDOG_FIX, TKS__DS(path));
}

/* ---------------------------------------------------------------- 12. load */

/* procs_running from /proc/stat. Its "intr" line can be kilobytes long, so read line by line and
 * look only at the starts of lines. */
static int procs_running(const struct tks__env_ctx *c, long *n)
{
    char full[4096], line[256];
    int at_start = 1, found = 0;
    FILE *fp;
    if (tks__proc_path(full, sizeof full, c->root, "/proc/stat") || !(fp = fopen(full, "r")))
        return TKS_EIO;
    while (!found && fgets(line, sizeof line, fp)) {
        if (at_start && strncmp(line, "procs_running ", 14) == 0)
            found = sscanf(line + 14, "%ld", n) == 1;
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(fp);
    return found ? 0 : TKS_EINVAL;
}

void tks__env_check_load(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char avg[128];
    long running, others;
    double one;
    int have_load;
    if (procs_running(c, &running)) {
        tks__env_unknown(f, "read procs_running from", "/proc/stat");
        return;
    }
    have_load = tks__env_read_text(c, "/proc/loadavg", avg, sizeof avg) == 0 &&
                sscanf(avg, "%lf", &one) == 1;
    /* The thread asking is running, and counts itself. */
    others = running > 0 ? running - 1 : 0;
    if (others == 0) {
        FINDING0(f, TKS_ENV_OK, ENV_NO_OTHER_TASKS);
    } else {
        FINDING(f, TKS_ENV_WARN, ENV_OTHER_TASKS, TKS__DN(others));
        ADVICE0(f, ENV_OTHER_TASKS_FIX);
    }
    if (have_load)
        DETAIL(f, ENV_LOAD_AVERAGE, TKS__DN(one));
}

/* ---------------------------------------------------------------- 13. real-time throttling */

void tks__env_check_rt_throttling(const struct tks__env_ctx *c, tks_env_finding *f)
{
    long runtime, period;
    static const char runtime_path[] = "/proc/sys/kernel/sched_rt_runtime_us",
                      period_path[] = "/proc/sys/kernel/sched_rt_period_us";
    if (tks__rt_limits(c->root, &runtime, &period)) {
        tks__env_unknown(f, "read",
                        tks__env_read_long(c, runtime_path, &runtime) ? runtime_path : period_path);
        return;
    }
    if (runtime < 0) {
        FINDING0(f, TKS_ENV_OK, ENV_RT_UNTHROTTLED);
        return;
    }
    FINDING(f, TKS_ENV_INFO, ENV_RT_THROTTLED, TKS__DN(runtime), TKS__DN(period));
    ADVICE0(f, ENV_RT_THROTTLED_FIX);
}
