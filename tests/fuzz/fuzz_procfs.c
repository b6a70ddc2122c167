/* SPDX-License-Identifier: MIT */
/* fuzz_procfs.c: every reader of /proc, /sys and /dev/kmsg, through the root directory they all
 * take: the environment checks (tks_env_check), the declared TSC rates (the kernel log), the
 * real-time limits, the cache key (the boot id) and the small-file readers under them.
 * The input's first byte picks the reader (one environment check, the kernel log, the real-time
 * limits, the boot id, or every check together), so that each input costs a few file operations;
 * the rest is the files of a tree: records of [path index][length, 2 bytes LE][bytes], where an
 * index with its high bit set makes that path a directory instead (a reader must cope). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>

#include "base/procfs.h"
#include "fuzz.h"
#include "platform/cache.h"
#include "platform/env_internal.h"
#include "platform/tsc_sources.h"
#include "tickscope.h"

static const char *const paths[] = {
    "/proc/cmdline", "/proc/loadavg", "/proc/stat",
    "/proc/sys/kernel/nmi_watchdog", "/proc/sys/kernel/perf_event_paranoid",
    "/proc/sys/kernel/random/boot_id", "/proc/sys/kernel/randomize_va_space",
    "/proc/sys/kernel/sched_rt_period_us", "/proc/sys/kernel/sched_rt_runtime_us",
    "/sys/hypervisor/type",
    "/sys/devices/system/clocksource/clocksource0/current_clocksource",
    "/sys/devices/system/clocksource/clocksource0/available_clocksource",
    "/sys/devices/system/cpu/online", "/sys/devices/system/cpu/isolated",
    "/sys/devices/system/cpu/nohz_full", "/sys/devices/system/cpu/smt/control",
    "/sys/devices/system/cpu/intel_pstate/no_turbo", "/sys/devices/system/cpu/cpufreq/boost",
    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq",
    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq",
    "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq",
    "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
    "/sys/devices/system/cpu/cpu0/cpufreq/boost",
    "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
    "/sys/devices/system/cpu/cpu1/topology/thread_siblings_list",
    "/sys/bus/event_source/devices/cpu/rdpmc", "/sys/bus/event_source/devices/cpu/type",
    "/sys/bus/event_source/devices/cpu_core/rdpmc", "/sys/bus/event_source/devices/software/type",
    "/dev/kmsg"};
#define NPATHS (sizeof paths / sizeof paths[0])

/* As fuzz_write, without stdio: this harness writes several files per input. */
static void fuzz_write_fd(const char *path, const uint8_t *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len) || close(fd) != 0)
        abort();
}

/* Every directory the paths need, parents first; removed in reverse after each input. */
static char dirs[64][160];
static size_t ndirs;

static void add_dirs(const char *path)
{
    char d[160];
    for (const char *p = path + 1; (p = strchr(p, '/')) != NULL; p++) {
        size_t i;
        if (p - path >= (long)sizeof d)
            abort();
        memcpy(d, path, (size_t)(p - path));
        d[p - path] = 0;
        for (i = 0; i < ndirs && strcmp(dirs[i], d) != 0; i++)
            ;
        if (i == ndirs && ndirs < 64)
            snprintf(dirs[ndirs++], sizeof dirs[0], "%s", d);
    }
}

static void tree_path(char *buf, size_t size, const char *rel)
{
    int n = snprintf(buf, size, "%s/root%s", fuzz_dir(), rel);
    if (n < 0 || (size_t)n >= size)
        abort();
}

typedef void (*check_fn)(const struct tks__env_ctx *, tks_env_finding *);
static const check_fn checks[] = {
    tks__env_check_hypervisor, tks__env_check_invariant_tsc, tks__env_check_clocksource,
    tks__env_check_governor,   tks__env_check_frequency,     tks__env_check_turbo,
    tks__env_check_smt,        tks__env_check_isolation,     tks__env_check_nmi_watchdog,
    tks__env_check_perf_counters, tks__env_check_aslr,       tks__env_check_load,
    tks__env_check_rt_throttling, tks__env_check_build};
#define NCHECKS (sizeof checks / sizeof checks[0])

static void check_finding(const tks_env_finding *f)
{
    if (f->status < TKS_ENV_OK || f->status > TKS_ENV_UNKNOWN || f->found.n < 1 ||
        strncmp(tks_diag_info_of(f->found.items[0].code)->id, "env.", 4) != 0 ||
        (f->status == TKS_ENV_OK) != (f->advice.n == 0))
        abort(); /* every check says what it found with an env.* code, a remedy when not OK */
    for (size_t i = 0; i < f->found.n; i++) {
        char *msg = tks_diag_message(&f->found.items[i]);
        if (!msg)
            abort(); /* every value the template names is there */
        free(msg);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int made[NPATHS]; /* 1 file, 2 directory */
    char full[512], root[300], key[1024];
    tks_env_finding findings[TKS_ENV_MAX];
    tks_env_input in;
    tks_hz_reading rates[8];
    tks_cpu_identity id;
    struct tks__env_ctx ctx;
    long a, b;
    size_t n, i;
    unsigned which, cpu;

    if (size < 1)
        return 0;
    which = data[0] % (NCHECKS + 4);
    cpu = data[0] >> 7;
    data++, size--;

    /* The directories once (no path of the table lies under another, so they stay). */
    if (!ndirs) {
        snprintf(dirs[ndirs++], sizeof dirs[0], "%s", ""); /* the root itself */
        for (i = 0; i < NPATHS; i++)
            add_dirs(paths[i]);
        for (i = 0; i < ndirs; i++) {
            tree_path(full, sizeof full, dirs[i]);
            if (mkdir(full, 0700) != 0 && errno != EEXIST)
                abort();
        }
    }
    while (size >= 3) {
        unsigned idx = data[0] & 0x7f, as_dir = data[0] & 0x80;
        size_t len = (size_t)data[1] | (size_t)data[2] << 8;
        data += 3, size -= 3;
        if (len > size)
            len = size;
        idx %= NPATHS;
        tree_path(full, sizeof full, paths[idx]);
        if (!made[idx] && as_dir) {
            if (mkdir(full, 0700) == 0)
                made[idx] = 2;
        } else if (made[idx] != 2) {
            fuzz_write_fd(full, data, len);
            made[idx] = 1;
        }
        data += len, size -= len;
    }

    snprintf(root, sizeof root, "%s/root", fuzz_dir());
    memset(&in, 0, sizeof in);
    in.root = root;
    in.cpu = (int)cpu;
    in.hypervisor = (int)cpu;
    in.hypervisor_vendor = cpu ? "KVMKVMKVM" : NULL;
    in.invariant_tsc = 1;
    in.optimized_build = 1;
    if (which < NCHECKS) {
        ctx.in = &in;
        ctx.root = root;
        ctx.cpu = (int)cpu;
        memset(findings, 0, sizeof findings[0]);
        findings[0].status = TKS_ENV_UNKNOWN;
        checks[which](&ctx, &findings[0]);
        check_finding(&findings[0]);
        tks_env_findings_free(findings, 1);
    } else if (which == NCHECKS) {
        n = tks__tsc_declared(root, rates, 8);
        for (i = 0; i < n && i < 8; i++)
            if (!(rates[i].hz > 0) || !isfinite(rates[i].hz))
                abort(); /* a declared rate that is not a rate */
    } else if (which == NCHECKS + 1) {
        if (tks__rt_limits(root, &a, &b) == 0)
            (void)(a + b);
    } else if (which == NCHECKS + 2) {
        memset(&id, 0, sizeof id);
        if (tks__cache_key(root, &id, 0, key, sizeof key) == 0 && (!strstr(key, "boot=") || strchr(key, '\n')))
            abort(); /* a key that would not fit on its line of the cache file */
    } else {
        n = tks_env_check(&in, findings, TKS_ENV_MAX);
        if (n > TKS_ENV_MAX)
            abort();
        for (i = 0; i < n; i++)
            check_finding(&findings[i]);
        tks_env_findings_free(findings, n);
    }

    for (i = 0; i < NPATHS; i++) {
        if (!made[i])
            continue;
        tree_path(full, sizeof full, paths[i]);
        if ((made[i] == 1 ? unlink(full) : rmdir(full)) != 0 && errno != ENOENT)
            abort();
        made[i] = 0;
    }
    return 0;
}
