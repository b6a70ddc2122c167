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
        FINDING(f, TKS_ENV_WARN, ENV_HYPERVISOR, TKS__DS(name));
        ADVICE0(f, ENV_HYPERVISOR_FIX);
    } else if (c->in->hypervisor == 0) {
        FINDING0(f, TKS_ENV_OK, ENV_NO_HYPERVISOR);
    } else {
        FINDING0(f, TKS_ENV_UNKNOWN, ENV_HYPERVISOR_UNKNOWN);
        ADVICE0(f, ENV_HYPERVISOR_UNKNOWN_FIX);
    }
}

/* ---------------------------------------------------------------- 2. invariant TSC */

void tks__env_check_invariant_tsc(const struct tks__env_ctx *c, tks_env_finding *f)
{
    if (c->in->invariant_tsc == 1) {
        FINDING0(f, TKS_ENV_OK, ENV_INVARIANT_TSC);
    } else if (c->in->invariant_tsc == 0) {
        FINDING0(f, TKS_ENV_WARN, ENV_NO_INVARIANT_TSC);
        ADVICE0(f, ENV_NO_INVARIANT_TSC_FIX);
    } else {
        FINDING0(f, TKS_ENV_UNKNOWN, ENV_INVARIANT_TSC_UNKNOWN);
        ADVICE0(f, ENV_INVARIANT_TSC_UNKNOWN_FIX);
    }
}

/* ---------------------------------------------------------------- 3. clocksource */

static void clocksource_warn(tks_env_finding *f, const char *cur, const char *avail, int have_avail,
                             const char *want)
{
    if (have_avail && !tks__env_has_word(avail, want)) {
        FINDING(f, TKS_ENV_WARN, ENV_CLOCKSOURCE_UNSTABLE, TKS__DS(cur), TKS__DS(want),
                TKS__DS(avail));
        ADVICE0(f, ENV_CLOCKSOURCE_UNSTABLE_FIX);
    } else {
        FINDING(f, TKS_ENV_WARN, ENV_CLOCKSOURCE_OTHER, TKS__DS(cur), TKS__DS(want));
        ADVICE(f, ENV_CLOCKSOURCE_OTHER_FIX, TKS__DS(want));
        if (!have_avail)
            ADVICE0(f, ENV_CLOCKSOURCE_UNLISTED_FIX);
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
        FINDING(f, TKS_ENV_OK, ENV_CLOCKSOURCE, TKS__DS(cur));
        if (have_avail)
            DETAIL(f, ENV_CLOCKSOURCES_AVAILABLE, TKS__DS(avail));
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
    FINDING(f, TKS_ENV_INFO, ENV_NO_CPUFREQ, TKS__DN(c->cpu));
    ADVICE0(f, ENV_NO_CPUFREQ_FIX);
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
    char path[128], gov[64];
    long lo, hi;
    int range;
    if (!cpufreq_present(c, f))
        return;
    tks__env_cpu_path(c, "/cpufreq/scaling_governor", path, sizeof path);
    if (tks__env_read_text(c, path, gov, sizeof gov) || !gov[0]) {
        tks__env_unknown(f, "read", path);
        return;
    }
    range = cpufreq_long(c, NULL, "scaling_min_freq", &lo) == 0 &&
            cpufreq_long(c, NULL, "scaling_max_freq", &hi) == 0;
    if (strcmp(gov, "performance") == 0) {
        FINDING(f, TKS_ENV_OK, ENV_GOVERNOR_PERFORMANCE, TKS__DN(c->cpu));
    } else {
        FINDING(f, TKS_ENV_WARN, ENV_GOVERNOR, TKS__DS(gov), TKS__DN(c->cpu));
        ADVICE(f, ENV_GOVERNOR_FIX, TKS__DN(c->cpu));
    }
    if (range)
        DETAIL(f, ENV_FREQ_RANGE, TKS__DN(khz_to_mhz(lo)), TKS__DN(khz_to_mhz(hi)));
}

void tks__env_check_frequency(const struct tks__env_ctx *c, tks_env_finding *f)
{
    long lo, hi, hw_lo, hw_hi;
    int hw;
    if (!cpufreq_present(c, f)) {
        /* Said in full by the governor check: here only what it means for the range. */
        if (f->status == TKS_ENV_INFO) {
            FINDING(f, TKS_ENV_INFO, ENV_FREQ_HIDDEN, TKS__DN(c->cpu));
            ADVICE0(f, ENV_FREQ_HIDDEN_FIX);
        }
        return;
    }
    if (cpufreq_long(c, f, "scaling_min_freq", &lo) || cpufreq_long(c, f, "scaling_max_freq", &hi))
        return;
    hw = cpufreq_long(c, NULL, "cpuinfo_min_freq", &hw_lo) == 0 &&
         cpufreq_long(c, NULL, "cpuinfo_max_freq", &hw_hi) == 0;
    if (lo == hi) {
        FINDING(f, TKS_ENV_OK, ENV_FREQ_FIXED, TKS__DN(c->cpu), TKS__DN(khz_to_mhz(lo)));
    } else {
        FINDING(f, TKS_ENV_WARN, ENV_FREQ_VARIES, TKS__DN(c->cpu), TKS__DN(khz_to_mhz(lo)),
                TKS__DN(khz_to_mhz(hi)));
        ADVICE(f, ENV_FREQ_VARIES_FIX, TKS__DN(c->cpu), TKS__DN(khz_to_mhz(hi)));
    }
    if (hw)
        DETAIL(f, ENV_FREQ_HARDWARE, TKS__DN(khz_to_mhz(hw_lo)), TKS__DN(khz_to_mhz(hw_hi)));
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
        FINDING(f, TKS_ENV_WARN, ENV_TURBO_ON, TKS__DS(label), TKS__DN(v));
        ADVICE(f, ENV_TURBO_ON_FIX, TKS__DN(on ? 0 : 1), TKS__DS(path));
    } else {
        FINDING(f, TKS_ENV_OK, ENV_TURBO_OFF, TKS__DS(label), TKS__DN(v));
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
    FINDING0(f, TKS_ENV_INFO, ENV_NO_TURBO_CONTROL);
    ADVICE0(f, ENV_NO_TURBO_CONTROL_FIX);
}

/* ---------------------------------------------------------------- 7. SMT */

void tks__env_check_smt(const struct tks__env_ctx *c, tks_env_finding *f)
{
    char path[128], list[256], others[128];
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
        FINDING(f, TKS_ENV_OK, ENV_SMT_ALONE, TKS__DN(c->cpu), TKS__DS(list));
        return;
    }
    tks__cpulist_without(list, c->cpu, others, sizeof others);
    FINDING(f, TKS_ENV_WARN, ENV_SMT_SHARED, TKS__DN(c->cpu), TKS__DS(others));
    ADVICE(f, ENV_SMT_SHARED_FIX, TKS__DS(others));
}
