/* environment.c: what on this machine can disturb a cycle count (hypervisor, clocksource, frequency
 * scaling, SMT, isolation, interrupts, counters, load, build), each a finding with a remedy. */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "platform/cpulist.h"
#include "base/procfs.h"
#include "tickscope.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define PMU_DIR "/sys/bus/event_source/devices"
#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"

struct env_ctx {
    const tks_env_input *in;
    const char *root;
    int cpu;
};

typedef void (*env_check_fn)(const struct env_ctx *c, tks_env_finding *f);

const char *tks_env_status_name(int status)
{
    switch (status) {
    case TKS_ENV_OK: return "ok";
    case TKS_ENV_INFO: return "info";
    case TKS_ENV_WARN: return "warn";
    default: return "unknown";
    }
}

int tks_build_optimized(void)
{
#ifdef __OPTIMIZE__
    return 1;
#else
    return 0;
#endif
}

/* ---------------------------------------------------------------- writing findings */

/* vsnprintf truncates safely; going through one function also keeps GCC's truncation warnings,
 * which cannot know the values, off the many call sites. */
__attribute__((format(printf, 3, 4)))
static void put(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

#define FINDING(f, st, ...) \
    ((f)->status = (st), put((f)->finding, sizeof (f)->finding, __VA_ARGS__))
#define ADVICE(f, ...) put((f)->advice, sizeof (f)->advice, __VA_ARGS__)

/* Appends to a string being built, keeping it terminated when it no longer fits. */
__attribute__((format(printf, 3, 4)))
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    if (len + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static void unknown(tks_env_finding *f, const char *what, const char *path)
{
    FINDING(f, TKS_ENV_UNKNOWN, "%s unknown (cannot %s %s)", f->id, what, path);
    ADVICE(f, "check by hand: ls -l %s (a container may hide or mask /proc and /sys)", path);
}

/* ---------------------------------------------------------------- reading files */

static int exists(const struct env_ctx *c, const char *path)
{
    char full[4096];
    struct stat st;
    return tks_proc_path(full, sizeof full, c->root, path) == 0 && stat(full, &st) == 0;
}

/* The text of a small file, without the trailing blanks some sysfs lists end with. */
static int read_text(const struct env_ctx *c, const char *path, char *buf, size_t size)
{
    int rc = tks_proc_read_text(c->root, path, buf, size);
    size_t n = strlen(buf);
    while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = 0;
    return rc;
}

static int read_long(const struct env_ctx *c, const char *path, long *v)
{
    return tks_proc_read_long(c->root, path, v);
}

/* A file of this CPU's: /sys/devices/system/cpu/cpuN/<rest>. */
static void cpu_path(const struct env_ctx *c, const char *rest, char *buf, size_t size)
{
    put(buf, size, CPU_DIR "/cpu%d%s", c->cpu, rest);
}

/* A whole word of a space-separated list, so "tsc" does not match "tsc-early". */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while ((p = strstr(p, word)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ' || p[n] == '\n'))
            return 1;
        p += n;
    }
    return 0;
}

/* "cpu8" or "cpus 8-9", for a list of n CPUs. */
static void cpus_phrase(char *buf, size_t size, const char *list, long n)
{
    put(buf, size, n == 1 ? "cpu%s" : "cpus %s", list);
}

/* ---------------------------------------------------------------- 1. hypervisor */

static const char *hypervisor_name(const char *vendor)
{
    static const char *const names[][2] = {
        {"KVMKVMKVM", "KVM"},       {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
        {"XenVMMXenVMM", "Xen"},    {"TCGTCGTCGTCG", "QEMU TCG"}, {"VBoxVBoxVBox", "VirtualBox"},
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(vendor, names[i][0]) == 0)
            return names[i][1];
    return vendor;
}

static void check_hypervisor(const struct env_ctx *c, tks_env_finding *f)
{
    const char *name = c->in->hypervisor_vendor;
    char type[64];
    /* Xen PV guests can hide the CPUID bit, but the kernel still says where it runs. */
    int sys_type = read_text(c, "/sys/hypervisor/type", type, sizeof type) == 0 && type[0];
    if (name && name[0])
        name = hypervisor_name(name);
    else
        name = sys_type ? type : "vendor unknown";
    if (c->in->hypervisor > 0 || sys_type) {
        FINDING(f, TKS_ENV_WARN, "running under a hypervisor (%s): CPUID traps, the host may scale "
                "or offset the TSC, and other guests steal time", name);
        ADVICE(f, "prefer --method lfence or rdtscp (not cpuid); compare with bare metal before "
               "trusting differences under 10 cycles");
    } else if (c->in->hypervisor == 0) {
        FINDING(f, TKS_ENV_OK, "no hypervisor (CPUID hypervisor bit clear)");
    } else {
        FINDING(f, TKS_ENV_UNKNOWN, "hypervisor unknown (CPUID not read, no /sys/hypervisor/type)");
        ADVICE(f, "check with: systemd-detect-virt, or grep -wm1 hypervisor /proc/cpuinfo");
    }
}

/* ---------------------------------------------------------------- 2. invariant TSC */

static void check_invariant_tsc(const struct env_ctx *c, tks_env_finding *f)
{
    if (c->in->invariant_tsc == 1) {
        FINDING(f, TKS_ENV_OK, "invariant TSC: it ticks at one rate through frequency changes and "
                "sleep states");
    } else if (c->in->invariant_tsc == 0) {
        FINDING(f, TKS_ENV_WARN, "no invariant TSC: ticks are not time (the TSC rate follows "
                "frequency changes / stops in sleep states)");
        ADVICE(f, "fix the frequency (cpupower frequency-set -g performance), keep the CPU awake "
               "(boot with processor.max_cstate=1), and time long intervals with clock_gettime");
    } else {
        FINDING(f, TKS_ENV_UNKNOWN, "invariant TSC unknown (CPUID leaf 0x80000007 not read)");
        ADVICE(f, "check with: grep -wo -e constant_tsc -e nonstop_tsc /proc/cpuinfo | sort -u "
               "(both present: invariant)");
    }
}

/* ---------------------------------------------------------------- 3. clocksource */

static void clocksource_warn(tks_env_finding *f, const char *cur, const char *avail, int have_avail,
                             const char *want)
{
    static const char why[] = "clock_gettime is slower and its rate is not the TSC's";
    if (have_avail && !has_word(avail, want)) {
        FINDING(f, TKS_ENV_WARN, "clocksource %s: the kernel found the TSC unstable (%s is not in "
                "available '%s'); %s", cur, want, avail, why);
        ADVICE(f, "check dmesg for 'TSC unstable' (dmesg | grep -i tsc); boot with tsc=reliable "
               "only if you know it is");
    } else {
        FINDING(f, TKS_ENV_WARN, "clocksource %s, not %s: %s", cur, want, why);
        ADVICE(f, "echo %s > " CLOCKSOURCE_DIR "/current_clocksource%s", want,
               have_avail ? "" : " (if available_clocksource lists it)");
    }
}

static void check_clocksource(const struct env_ctx *c, tks_env_finding *f)
{
    static const char cur_path[] = CLOCKSOURCE_DIR "/current_clocksource";
    char cur[64], avail[160];
    int have_avail;
    const char *want;
    if (read_text(c, cur_path, cur, sizeof cur) || !cur[0]) {
        unknown(f, "read", cur_path);
        return;
    }
    have_avail = read_text(c, CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof avail) == 0;
    /* arm64's counterpart of the TSC is the generic timer's counter. */
    want = have_avail && has_word(avail, "arch_sys_counter") ? "arch_sys_counter" : "tsc";
    if (strcmp(cur, "tsc") == 0 || strcmp(cur, "arch_sys_counter") == 0) {
        if (have_avail)
            FINDING(f, TKS_ENV_OK, "clocksource %s (available: %s)", cur, avail);
        else
            FINDING(f, TKS_ENV_OK, "clocksource %s", cur);
        return;
    }
    clocksource_warn(f, cur, avail, have_avail, want);
}

/* ---------------------------------------------------------------- 4-5. governor and frequency */

/* Whether cpufreq can be judged: 1 yes, 0 after writing the finding (no driver, or no /sys). */
static int cpufreq_present(const struct env_ctx *c, tks_env_finding *f)
{
    char path[128];
    cpu_path(c, "", path, sizeof path);
    /* Without the CPU's own directory, /sys is missing or masked: absence proves nothing. */
    if (!exists(c, path)) {
        unknown(f, "find", path);
        return 0;
    }
    cpu_path(c, "/cpufreq", path, sizeof path);
    if (exists(c, path))
        return 1;
    FINDING(f, TKS_ENV_INFO, "no cpufreq driver for cpu%d (usual in a VM): the frequency is set by "
            "the host or firmware", c->cpu);
    ADVICE(f, "in a VM ask the host to fix the frequency; on bare metal set it in the BIOS, or "
           "load a cpufreq driver (intel_pstate, acpi-cpufreq) and rerun");
    return 0;
}

static long khz_to_mhz(long khz)
{
    return (khz + 500) / 1000;
}

/* A number from this CPU's cpufreq directory. With f, a failure becomes the UNKNOWN finding. */
static int cpufreq_long(const struct env_ctx *c, tks_env_finding *f, const char *name, long *v)
{
    char path[128], rest[64];
    put(rest, sizeof rest, "/cpufreq/%s", name);
    cpu_path(c, rest, path, sizeof path);
    if (read_long(c, path, v) == 0)
        return 0;
    if (f)
        unknown(f, "read", path);
    return -1;
}

static void check_governor(const struct env_ctx *c, tks_env_finding *f)
{
    char path[128], gov[64], range[64] = "";
    long lo, hi;
    if (!cpufreq_present(c, f))
        return;
    cpu_path(c, "/cpufreq/scaling_governor", path, sizeof path);
    if (read_text(c, path, gov, sizeof gov) || !gov[0]) {
        unknown(f, "read", path);
        return;
    }
    if (cpufreq_long(c, NULL, "scaling_min_freq", &lo) == 0 &&
        cpufreq_long(c, NULL, "scaling_max_freq", &hi) == 0)
        put(range, sizeof range, "; frequency %ld-%ld MHz", khz_to_mhz(lo), khz_to_mhz(hi));
    if (strcmp(gov, "performance") == 0) {
        FINDING(f, TKS_ENV_OK, "governor 'performance' on cpu%d%s", c->cpu, range);
        return;
    }
    FINDING(f, TKS_ENV_WARN, "governor '%s' on cpu%d%s", gov, c->cpu, range);
    ADVICE(f, "cpupower -c %d frequency-set -g performance (or echo performance > "
           CPU_DIR "/cpu%d/cpufreq/scaling_governor)", c->cpu, c->cpu);
}

static void check_frequency(const struct env_ctx *c, tks_env_finding *f)
{
    char hw[64] = "";
    long lo, hi, hw_lo, hw_hi;
    if (!cpufreq_present(c, f)) {
        /* Said in full by the governor check: here only what it means for the range. */
        if (f->status == TKS_ENV_INFO) {
            FINDING(f, TKS_ENV_INFO, "frequency range of cpu%d not visible (no cpufreq driver)",
                    c->cpu);
            ADVICE(f, "see the governor check; the core clock below is measured, not read");
        }
        return;
    }
    if (cpufreq_long(c, f, "scaling_min_freq", &lo) || cpufreq_long(c, f, "scaling_max_freq", &hi))
        return;
    if (cpufreq_long(c, NULL, "cpuinfo_min_freq", &hw_lo) == 0 &&
        cpufreq_long(c, NULL, "cpuinfo_max_freq", &hw_hi) == 0)
        put(hw, sizeof hw, " (hardware %ld-%ld MHz)", khz_to_mhz(hw_lo), khz_to_mhz(hw_hi));
    if (lo == hi) {
        FINDING(f, TKS_ENV_OK, "cpu%d frequency fixed at %ld MHz%s", c->cpu, khz_to_mhz(lo), hw);
        return;
    }
    FINDING(f, TKS_ENV_WARN, "cpu%d frequency may vary between %ld and %ld MHz%s", c->cpu,
            khz_to_mhz(lo), khz_to_mhz(hi), hw);
    ADVICE(f, "pin the frequency: cpupower -c %d frequency-set -d %ldMHz -u %ldMHz", c->cpu,
           khz_to_mhz(hi), khz_to_mhz(hi));
}

/* ---------------------------------------------------------------- 6. turbo */

/* A boost switch: `on` is the value that means turbo is enabled. 1 when the finding is written. */
static int turbo_switch(const struct env_ctx *c, tks_env_finding *f, const char *path, long on,
                        const char *label)
{
    long v;
    if (!exists(c, path))
        return 0;
    if (read_long(c, path, &v)) {
        unknown(f, "read", path);
        return 1;
    }
    if ((v != 0) == (on != 0)) {
        FINDING(f, TKS_ENV_WARN, "turbo boost on (%s %ld): the frequency rises above base when few "
                "cores are busy, and falls as the chip heats", label, v);
        ADVICE(f, "echo %ld > %s", on ? 0L : 1L, path);
    } else {
        FINDING(f, TKS_ENV_OK, "turbo boost off (%s %ld)", label, v);
    }
    return 1;
}

static void check_turbo(const struct env_ctx *c, tks_env_finding *f)
{
    char policy[128];
    if (!exists(c, CPU_DIR)) {
        unknown(f, "find", CPU_DIR);
        return;
    }
    cpu_path(c, "/cpufreq/boost", policy, sizeof policy);
    if (turbo_switch(c, f, CPU_DIR "/intel_pstate/no_turbo", 0, "intel_pstate no_turbo") ||
        turbo_switch(c, f, CPU_DIR "/cpufreq/boost", 1, "cpufreq boost") ||
        turbo_switch(c, f, policy, 1, "cpufreq policy boost"))
        return;
    FINDING(f, TKS_ENV_INFO, "no turbo control exposed (usual in a VM)");
    ADVICE(f, "in a VM ask the host to disable turbo; on bare metal disable it in the BIOS setup");
}

/* ---------------------------------------------------------------- 7. SMT */

static void check_smt(const struct env_ctx *c, tks_env_finding *f)
{
    char path[128], list[256], others[128], who[140];
    long n;
    cpu_path(c, "/topology/thread_siblings_list", path, sizeof path);
    if (read_text(c, path, list, sizeof list)) {
        unknown(f, "read", path);
        return;
    }
    if ((n = tks_cpulist_count(list)) < 1) {
        unknown(f, "parse", path);
        return;
    }
    n -= tks_cpulist_has(list, c->cpu);
    if (n == 0) {
        FINDING(f, TKS_ENV_OK, "cpu%d has its core to itself (thread siblings: %s)", c->cpu, list);
        return;
    }
    tks_cpulist_without(list, c->cpu, others, sizeof others);
    cpus_phrase(who, sizeof who, others, n);
    FINDING(f, TKS_ENV_WARN, "cpu%d shares its core with %s (SMT): work there slows this one",
            c->cpu, who);
    ADVICE(f, "keep %s idle, or disable SMT: echo off > " CPU_DIR "/smt/control", who);
}

/* ---------------------------------------------------------------- 8. isolation */

/* The isolcpus= and nohz_full= words of the kernel command line, or a note that there are none. */
static void cmdline_isolation(const struct env_ctx *c, char *buf, size_t size)
{
    char line[4096], *w, *save = NULL;
    int rc = read_text(c, "/proc/cmdline", line, sizeof line);
    buf[0] = 0;
    if (rc && rc != TKS_ERANGE)
        return;
    for (w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "--") == 0) /* what follows belongs to init */
            break;
        if (strncmp(w, "isolcpus=", 9) == 0 || strncmp(w, "nohz_full=", 10) == 0)
            append(buf, size, "%s%s", buf[0] ? " " : "; cmdline ", w);
    }
    if (!buf[0])
        put(buf, size, "; no isolcpus= on the kernel command line");
}

/* Isolating cpu0 is unwise (it does housekeeping the others cannot), so suggest the last CPU. */
static long isolation_target(const struct env_ctx *c)
{
    char online[256];
    long last;
    if (c->cpu != 0 || read_text(c, CPU_DIR "/online", online, sizeof online))
        return c->cpu;
    last = tks_cpulist_last(online);
    return last > 0 ? last : c->cpu;
}

static void isolation_finding(const struct env_ctx *c, tks_env_finding *f, const char *iso,
                              const char *nohz, const char *cmd)
{
    long n_iso = tks_cpulist_count(iso), t;
    int in_iso = tks_cpulist_has(iso, c->cpu), in_nohz = tks_cpulist_has(nohz, c->cpu);
    char who[140];
    if (in_iso && in_nohz) {
        FINDING(f, TKS_ENV_OK, "cpu%d is isolated and tickless (isolated %s, nohz_full %s)%s",
                c->cpu, iso, nohz, cmd);
    } else if (in_iso) {
        FINDING(f, TKS_ENV_INFO, "cpu%d is isolated but not tickless: the timer tick still "
                "interrupts it%s", c->cpu, cmd);
        ADVICE(f, "add nohz_full=%d rcu_nocbs=%d to the kernel command line", c->cpu, c->cpu);
    } else if (n_iso > 0) {
        cpus_phrase(who, sizeof who, iso, n_iso);
        FINDING(f, TKS_ENV_WARN, "%s %s isolated but measuring on cpu%d%s", who,
                n_iso == 1 ? "is" : "are", c->cpu, cmd);
        ADVICE(f, "--pin %ld (an isolated CPU)", tks_cpulist_first(iso));
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

static void check_isolation(const struct env_ctx *c, tks_env_finding *f)
{
    static const char iso_path[] = CPU_DIR "/isolated", nohz_path[] = CPU_DIR "/nohz_full";
    char iso[256], nohz[256] = "", cmd[160];
    if (read_text(c, iso_path, iso, sizeof iso)) {
        unknown(f, "read", iso_path);
        return;
    }
    /* Only kernels built with NO_HZ_FULL have the file: missing means no tickless CPUs. */
    if (exists(c, nohz_path) && read_text(c, nohz_path, nohz, sizeof nohz)) {
        unknown(f, "read", nohz_path);
        return;
    }
    if (tks_cpulist_count(iso) < 0 || tks_cpulist_count(nohz) < 0) {
        unknown(f, "parse", tks_cpulist_count(iso) < 0 ? iso_path : nohz_path);
        return;
    }
    cmdline_isolation(c, cmd, sizeof cmd);
    isolation_finding(c, f, tks_cpulist_text(iso), tks_cpulist_text(nohz), cmd);
}

/* ---------------------------------------------------------------- 9. NMI watchdog */

static void check_nmi_watchdog(const struct env_ctx *c, tks_env_finding *f)
{
    static const char path[] = "/proc/sys/kernel/nmi_watchdog";
    long v;
    if (read_long(c, path, &v)) {
        unknown(f, "read", path);
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

/* ---------------------------------------------------------------- 10. performance counters */

/* The core PMU's directory ("cpu", or "cpu_core" on hybrid Intel), NULL when none. */
static const char *core_pmu(const struct env_ctx *c)
{
    if (exists(c, PMU_DIR "/cpu"))
        return PMU_DIR "/cpu";
    if (exists(c, PMU_DIR "/cpu_core"))
        return PMU_DIR "/cpu_core";
    return NULL;
}

/* rdpmc < 0: its file could not be read. */
static void perf_verdict(tks_env_finding *f, long paranoid, long rdpmc, const char *rdpmc_path)
{
    char r[32];
    if (rdpmc < 0)
        put(r, sizeof r, "rdpmc unreadable");
    else
        put(r, sizeof r, "rdpmc %ld", rdpmc);
    if (paranoid > 2 && rdpmc == 0) {
        FINDING(f, TKS_ENV_WARN, "perf_event_paranoid %ld refuses counters to users, and "
                "user-space rdpmc disabled (rdpmc 0)", paranoid);
        ADVICE(f, "sysctl kernel.perf_event_paranoid=2; echo 1 > %s", rdpmc_path);
    } else if (paranoid > 2) {
        FINDING(f, TKS_ENV_WARN, "perf_event_paranoid %ld refuses counters to users (%s)",
                paranoid, r);
        ADVICE(f, "sysctl kernel.perf_event_paranoid=2 (or lower), or run with CAP_PERFMON");
    } else if (rdpmc == 0) {
        FINDING(f, TKS_ENV_WARN, "user-space rdpmc disabled (rdpmc 0, perf_event_paranoid %ld): "
                "counters are read through a system call", paranoid);
        ADVICE(f, "echo 1 > %s", rdpmc_path);
    } else {
        FINDING(f, TKS_ENV_OK, "core cycle counter usable (perf_event_paranoid %ld, %s)",
                paranoid, r);
    }
}

static void check_perf_counters(const struct env_ctx *c, tks_env_finding *f)
{
    static const char paranoid_path[] = "/proc/sys/kernel/perf_event_paranoid";
    char rdpmc_path[96];
    const char *pmu;
    long paranoid, rdpmc;
    if (!exists(c, PMU_DIR)) {
        unknown(f, "find", PMU_DIR);
        return;
    }
    if (!(pmu = core_pmu(c))) {
        FINDING(f, TKS_ENV_INFO, "no hardware performance-counter PMU exposed (perf_event 'cpu' "
                "device missing): core cycles are estimated, not counted");
        ADVICE(f, "on a VM ask the host to expose the PMU (e.g. KVM -cpu host,pmu=on); on bare "
               "metal check the kernel has CONFIG_PERF_EVENTS and the CPU's PMU driver");
        return;
    }
    put(rdpmc_path, sizeof rdpmc_path, "%s/rdpmc", pmu);
    if (read_long(c, paranoid_path, &paranoid)) {
        unknown(f, "read", paranoid_path);
        return;
    }
    if (read_long(c, rdpmc_path, &rdpmc)) {
        /* A definite refusal is worth more than the unknown rdpmc setting. */
        if (paranoid > 2)
            perf_verdict(f, paranoid, -1, rdpmc_path);
        else
            unknown(f, "read", rdpmc_path);
        return;
    }
    perf_verdict(f, paranoid, rdpmc, rdpmc_path);
}

/* ---------------------------------------------------------------- 11. ASLR */

static void check_aslr(const struct env_ctx *c, tks_env_finding *f)
{
    static const char path[] = "/proc/sys/kernel/randomize_va_space";
    long v;
    if (read_long(c, path, &v)) {
        unknown(f, "read", path);
        return;
    }
    if (v == 0) {
        FINDING(f, TKS_ENV_OK, "address-space randomisation off");
        return;
    }
    FINDING(f, TKS_ENV_INFO, "address-space randomisation on (%ld): code and data alignment change "
            "between runs", v);
    ADVICE(f, "compare runs under 'setarch -R' or sysctl kernel.randomize_va_space=0");
}

/* ---------------------------------------------------------------- 12. load */

/* procs_running from /proc/stat. Its "intr" line can be kilobytes long, so read line by line and
 * look only at the starts of lines. */
static int procs_running(const struct env_ctx *c, long *n)
{
    char full[4096], line[256];
    int at_start = 1, found = 0;
    FILE *fp;
    if (tks_proc_path(full, sizeof full, c->root, "/proc/stat") || !(fp = fopen(full, "r")))
        return TKS_EIO;
    while (!found && fgets(line, sizeof line, fp)) {
        if (at_start && strncmp(line, "procs_running ", 14) == 0)
            found = sscanf(line + 14, "%ld", n) == 1;
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(fp);
    return found ? 0 : TKS_EINVAL;
}

static void check_load(const struct env_ctx *c, tks_env_finding *f)
{
    char avg[128], load[48] = "";
    long running, others;
    double one;
    if (procs_running(c, &running)) {
        unknown(f, "read procs_running from", "/proc/stat");
        return;
    }
    if (read_text(c, "/proc/loadavg", avg, sizeof avg) == 0 && sscanf(avg, "%lf", &one) == 1)
        put(load, sizeof load, " (1-minute load average %.2f)", one);
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

static void check_rt_throttling(const struct env_ctx *c, tks_env_finding *f)
{
    long runtime, period;
    static const char runtime_path[] = "/proc/sys/kernel/sched_rt_runtime_us",
                      period_path[] = "/proc/sys/kernel/sched_rt_period_us";
    if (tks_rt_limits(c->root, &runtime, &period)) {
        unknown(f, "read", read_long(c, runtime_path, &runtime) ? runtime_path : period_path);
        return;
    }
    if (runtime < 0) {
        FINDING(f, TKS_ENV_OK, "real-time throttling off");
        return;
    }
    FINDING(f, TKS_ENV_INFO, "SCHED_FIFO tasks limited to %ld of every %ld us", runtime, period);
    ADVICE(f, "--fifo paces itself around it; or sysctl kernel.sched_rt_runtime_us=-1 (with care)");
}

/* ---------------------------------------------------------------- 14. build */

#if defined(__SANITIZE_ADDRESS__)
#define TKS_ENV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TKS_ENV_ASAN 1
#endif
#endif

static void check_build(const struct env_ctx *c, tks_env_finding *f)
{
    int opt = c->in->optimized_build;
#ifdef TKS_ENV_ASAN
    /* Instrumented memory accesses slow the harness around the measured loops and add noise. */
    FINDING(f, TKS_ENV_WARN, "tickscope was built with AddressSanitizer%s",
            opt == 0 ? " and without optimisation" : "");
    ADVICE(f, "use the plain build for measurements: cmake -DTKS_SANITIZE=OFF "
           "-DCMAKE_BUILD_TYPE=Release");
#else
    if (opt == 0) {
        FINDING(f, TKS_ENV_WARN, "tickscope was built without optimisation");
        ADVICE(f, "rebuild with the default (Release) build: cmake -DCMAKE_BUILD_TYPE=Release");
    } else if (opt > 0) {
        FINDING(f, TKS_ENV_OK, "tickscope was built with optimisation");
    } else {
        FINDING(f, TKS_ENV_UNKNOWN, "build unknown (optimisation not reported)");
        ADVICE(f, "pass tks_build_optimized() as optimized_build");
    }
#endif
}

/* ---------------------------------------------------------------- all together */

static const struct {
    const char *id;
    env_check_fn fn;
} checks[] = {
    {"hypervisor", check_hypervisor},     {"invariant_tsc", check_invariant_tsc},
    {"clocksource", check_clocksource},   {"governor", check_governor},
    {"frequency", check_frequency},       {"turbo", check_turbo},
    {"smt", check_smt},                   {"isolation", check_isolation},
    {"nmi_watchdog", check_nmi_watchdog}, {"perf_counters", check_perf_counters},
    {"aslr", check_aslr},                 {"load", check_load},
    {"rt_throttling", check_rt_throttling}, {"build", check_build},
};

static int measuring_cpu(int cpu)
{
    if (cpu >= 0)
        return cpu;
    cpu = sched_getcpu();
    return cpu >= 0 ? cpu : 0;
}

size_t tks_env_check(const tks_env_input *in, tks_env_finding *out, size_t max)
{
    struct env_ctx c;
    size_t i, n = sizeof checks / sizeof checks[0];
    if (!in || !out)
        return 0;
    c.in = in;
    c.root = in->root;
    c.cpu = measuring_cpu(in->cpu);
    for (i = 0; i < n && i < max; i++) {
        memset(&out[i], 0, sizeof out[i]);
        put(out[i].id, sizeof out[i].id, "%s", checks[i].id);
        out[i].status = TKS_ENV_UNKNOWN;
        checks[i].fn(&c, &out[i]);
    }
    return i;
}
