/* SPDX-License-Identifier: MIT */
/* env_cpu.c: the environment checks of the clock and the CPU it runs on: hypervisor, invariant
 * TSC, clocksource, frequency governor and range, turbo, and an SMT sibling. */
#include <string.h>

#include "platform/cpulist.h"
#include "platform/env_internal.h"
#include "tickscope.h"

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

void tks__env_check_hypervisor(const struct tks__env_ctx *c, tks_env_finding *f)
{
    const char *name = c->in->hypervisor_vendor;
    char type[64];
    /* Xen PV guests can hide the CPUID bit, but the kernel still says where it runs. */
    int sys_type = tks__env_read_text(c, "/sys/hypervisor/type", type, sizeof type) == 0 && type[0];
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

void tks__env_check_invariant_tsc(const struct tks__env_ctx *c, tks_env_finding *f)
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
    if (have_avail && !tks__env_has_word(avail, want)) {
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

void tks__env_check_clocksource(const struct tks__env_ctx *c, tks_env_finding *f)
{
    static const char cur_path[] = CLOCKSOURCE_DIR "/current_clocksource";
    char cur[64], avail[160];
    int have_avail;
    const char *want;
    if (tks__env_read_text(c, cur_path, cur, sizeof cur) || !cur[0]) {
        tks__env_unknown(f, "read", cur_path);
        return;
    }
    have_avail = tks__env_read_text(c, CLOCKSOURCE_DIR "/available_clocksource", avail,
                                   sizeof avail) == 0;
    /* arm64's counterpart of the TSC is the generic timer's counter. */
    want = have_avail && tks__env_has_word(avail, "arch_sys_counter") ? "arch_sys_counter" : "tsc";
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
static int cpufreq_present(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char path[128];
    tks__env_cpu_path(c, "", path, sizeof path);
    /* Without the CPU's own directory, /sys is missing or masked: absence proves nothing. */
    if (!tks__env_exists(c, path)) {
        tks__env_unknown(f, "find", path);
        return 0;
    }
    tks__env_cpu_path(c, "/cpufreq", path, sizeof path);
    if (tks__env_exists(c, path))
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
static int cpufreq_long(const struct tks__env_ctx *c, tks_env_finding *f, const char *name, long *v)
{
    char path[128], rest[64];
    tks__env_put(rest, sizeof rest, "/cpufreq/%s", name);
    tks__env_cpu_path(c, rest, path, sizeof path);
    if (tks__env_read_long(c, path, v) == 0)
        return 0;
    if (f)
        tks__env_unknown(f, "read", path);
    return -1;
}

void tks__env_check_governor(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char path[128], gov[64], range[64] = "";
    long lo, hi;
    if (!cpufreq_present(c, f))
        return;
    tks__env_cpu_path(c, "/cpufreq/scaling_governor", path, sizeof path);
    if (tks__env_read_text(c, path, gov, sizeof gov) || !gov[0]) {
        tks__env_unknown(f, "read", path);
        return;
    }
    if (cpufreq_long(c, NULL, "scaling_min_freq", &lo) == 0 &&
        cpufreq_long(c, NULL, "scaling_max_freq", &hi) == 0)
        tks__env_put(range, sizeof range, "; frequency %ld-%ld MHz", khz_to_mhz(lo), khz_to_mhz(hi));
    if (strcmp(gov, "performance") == 0) {
        FINDING(f, TKS_ENV_OK, "governor 'performance' on cpu%d%s", c->cpu, range);
        return;
    }
    FINDING(f, TKS_ENV_WARN, "governor '%s' on cpu%d%s", gov, c->cpu, range);
    ADVICE(f, "cpupower -c %d frequency-set -g performance (or echo performance > "
           CPU_DIR "/cpu%d/cpufreq/scaling_governor)", c->cpu, c->cpu);
}

void tks__env_check_frequency(const struct tks__env_ctx *c, tks_env_finding *f)
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
        tks__env_put(hw, sizeof hw, " (hardware %ld-%ld MHz)", khz_to_mhz(hw_lo), khz_to_mhz(hw_hi));
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
static int turbo_switch(const struct tks__env_ctx *c, tks_env_finding *f, const char *path, long on,
                        const char *label)
{
    long v;
    if (!tks__env_exists(c, path))
        return 0;
    if (tks__env_read_long(c, path, &v)) {
        tks__env_unknown(f, "read", path);
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

void tks__env_check_turbo(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char policy[128];
    if (!tks__env_exists(c, CPU_DIR)) {
        tks__env_unknown(f, "find", CPU_DIR);
        return;
    }
    tks__env_cpu_path(c, "/cpufreq/boost", policy, sizeof policy);
    if (turbo_switch(c, f, CPU_DIR "/intel_pstate/no_turbo", 0, "intel_pstate no_turbo") ||
        turbo_switch(c, f, CPU_DIR "/cpufreq/boost", 1, "cpufreq boost") ||
        turbo_switch(c, f, policy, 1, "cpufreq policy boost"))
        return;
    FINDING(f, TKS_ENV_INFO, "no turbo control exposed (usual in a VM)");
    ADVICE(f, "in a VM ask the host to disable turbo; on bare metal disable it in the BIOS setup");
}

/* ---------------------------------------------------------------- 7. SMT */

void tks__env_check_smt(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char path[128], list[256], others[128], who[140];
    long n;
    tks__env_cpu_path(c, "/topology/thread_siblings_list", path, sizeof path);
    if (tks__env_read_text(c, path, list, sizeof list)) {
        tks__env_unknown(f, "read", path);
        return;
    }
    if ((n = tks__cpulist_count(list)) < 1) {
        tks__env_unknown(f, "parse", path);
        return;
    }
    n -= tks__cpulist_has(list, c->cpu);
    if (n == 0) {
        FINDING(f, TKS_ENV_OK, "cpu%d has its core to itself (thread siblings: %s)", c->cpu, list);
        return;
    }
    tks__cpulist_without(list, c->cpu, others, sizeof others);
    tks__env_cpus_phrase(who, sizeof who, others, n);
    FINDING(f, TKS_ENV_WARN, "cpu%d shares its core with %s (SMT): work there slows this one",
            c->cpu, who);
    ADVICE(f, "keep %s idle, or disable SMT: echo off > " CPU_DIR "/smt/control", who);
}
