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

/* The isolcpus= and nohz_full= words of the kernel command line, or a note that there are none. */
static void cmdline_isolation(const struct tks__env_ctx *c, char *buf, size_t size)
{
    char line[4096], *w, *save = NULL;
    int rc = tks__env_read_text(c, "/proc/cmdline", line, sizeof line);
    buf[0] = 0;
    if (rc && rc != TKS_ERANGE)
        return;
    for (w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "--") == 0) /* what follows belongs to init */
            break;
        if (strncmp(w, "isolcpus=", 9) == 0 || strncmp(w, "nohz_full=", 10) == 0)
            tks__env_append(buf, size, "%s%s", buf[0] ? " " : "; cmdline ", w);
    }
    if (!buf[0])
        tks__env_put(buf, size, "; no isolcpus= on the kernel command line");
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
                              const char *nohz, const char *cmd)
{
    long n_iso = tks__cpulist_count(iso), t;
    int in_iso = tks__cpulist_has(iso, c->cpu), in_nohz = tks__cpulist_has(nohz, c->cpu);
    char who[140];
    if (in_iso && in_nohz) {
        FINDING(f, TKS_ENV_OK, "cpu%d is isolated and tickless (isolated %s, nohz_full %s)%s",
                c->cpu, iso, nohz, cmd);
    } else if (in_iso) {
        FINDING(f, TKS_ENV_INFO, "cpu%d is isolated but not tickless: the timer tick still "
                "interrupts it%s", c->cpu, cmd);
        ADVICE(f, "add nohz_full=%d rcu_nocbs=%d to the kernel command line", c->cpu, c->cpu);
    } else if (n_iso > 0) {
        tks__env_cpus_phrase(who, sizeof who, iso, n_iso);
        FINDING(f, TKS_ENV_WARN, "%s %s isolated but measuring on cpu%d%s", who,
                n_iso == 1 ? "is" : "are", c->cpu, cmd);
        ADVICE(f, "--pin %ld (an isolated CPU)", tks__cpulist_first(iso));
    } else if (in_nohz) {
        FINDING(f, TKS_ENV_INFO, "cpu%d is tickless (nohz_full) but not isolated: the scheduler "
                "can run other tasks on it%s", c->cpu, cmd);
        ADVICE(f, "boot with isolcpus=%d as well and measure with --pin %d", c->cpu, c->cpu);
    } else {
        t = isolation_target(c);
        FINDING(f, TKS_ENV_INFO, "cpu%d is not isolated: the scheduler and timer ticks can "
                "interrupt it%s", c->cpu, cmd);
        ADVICE(f, "boot with isolcpus=%ld nohz_full=%ld rcu_nocbs=%ld and measure with --pin %ld",
               t, t, t, t);
    }
}

void tks__env_check_isolation(const struct tks__env_ctx *c, tks_env_finding *f)
{
    static const char iso_path[] = CPU_DIR "/isolated", nohz_path[] = CPU_DIR "/nohz_full";
    char iso[256], nohz[256] = "", cmd[160];
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
    cmdline_isolation(c, cmd, sizeof cmd);
    isolation_finding(c, f, tks__cpulist_text(iso), tks__cpulist_text(nohz), cmd);
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
        FINDING(f, TKS_ENV_OK, "NMI watchdog off");
        return;
    }
    FINDING(f, TKS_ENV_WARN, "NMI watchdog on: a periodic non-maskable interrupt lands in some "
            "samples (and holds a performance counter)");
    ADVICE(f, "echo 0 > %s (or sysctl kernel.nmi_watchdog=0)", path);
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
    char avg[128], load[48] = "";
    long running, others;
    double one;
    if (procs_running(c, &running)) {
        tks__env_unknown(f, "read procs_running from", "/proc/stat");
        return;
    }
    if (tks__env_read_text(c, "/proc/loadavg", avg, sizeof avg) == 0 &&
        sscanf(avg, "%lf", &one) == 1)
        tks__env_put(load, sizeof load, " (1-minute load average %.2f)", one);
    /* The thread asking is running, and counts itself. */
    others = running > 0 ? running - 1 : 0;
    if (others == 0) {
        FINDING(f, TKS_ENV_OK, "no other runnable tasks%s", load);
        return;
    }
    FINDING(f, TKS_ENV_WARN, "%ld other runnable task%s%s", others, others == 1 ? "" : "s", load);
    ADVICE(f, "measure on an idle machine (see top), or isolate a CPU and --pin to it");
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
        FINDING(f, TKS_ENV_OK, "real-time throttling off");
        return;
    }
    FINDING(f, TKS_ENV_INFO, "SCHED_FIFO tasks limited to %ld of every %ld us", runtime, period);
    ADVICE(f, "--fifo paces itself around it; or sysctl kernel.sched_rt_runtime_us=-1 (with care)");
}
