/* SPDX-License-Identifier: MIT */
/* test_platform_env.c: the environment checks against fixture trees of /proc and /sys: a KVM
 * guest, a tuned bare-metal machine, an untuned laptop, a root that does not exist. */
#include "env_util.h"

static void test_names(void)
{
    CHECK_STR(tks_env_status_name(TKS_ENV_OK), "ok");
    CHECK_STR(tks_env_status_name(TKS_ENV_INFO), "info");
    CHECK_STR(tks_env_status_name(TKS_ENV_WARN), "warn");
    CHECK_STR(tks_env_status_name(TKS_ENV_UNKNOWN), "unknown");
    CHECK_STR(tks_env_status_name(99), "unknown");
#ifdef __OPTIMIZE__
    CHECK(tks_build_optimized() == 1);
#else
    CHECK(tks_build_optimized() == 0);
#endif
}

static void test_vm(void)
{
    static const char *const order[N_CHECKS] = {
        "hypervisor", "invariant_tsc", "clocksource", "governor", "frequency", "turbo", "smt",
        "isolation", "nmi_watchdog", "perf_counters", "aslr", "load", "rt_throttling", "build"};
    CHECK_EQ_U64(run_tree("vm", 0, 1, "KVMKVMKVM", 1, 1), N_CHECKS);
    check_shape();
    for (size_t i = 0; i < N_CHECKS; i++)
        CHECK_STR(out[i].id, order[i]);
    EXPECT("hypervisor", TKS_ENV_WARN, "env.hypervisor", "env.hypervisor.fix");
    EXPECT("invariant_tsc", TKS_ENV_OK, "env.invariant_tsc", "");
    EXPECT("clocksource", TKS_ENV_OK, "env.clocksource", "");
    EXPECT_STRING("clocksource", "available", "tsc kvm-clock");
    EXPECT_STRING("hypervisor", "name", "KVM");
    EXPECT("governor", TKS_ENV_INFO, "env.no_cpufreq", "env.no_cpufreq.fix");
    EXPECT("frequency", TKS_ENV_INFO, "env.frequency_hidden", "env.frequency_hidden.fix");
    EXPECT("turbo", TKS_ENV_INFO, "env.no_turbo_control", "env.no_turbo_control.fix");
    EXPECT("smt", TKS_ENV_OK, "env.smt_alone", "");
    /* The cmdline's isolcpus=1 comes after "--", so it is init's, not the kernel's. cpu0 keeps
     * housekeeping: the advice isolates the last online CPU, 1. */
    EXPECT("isolation", TKS_ENV_INFO, "env.not_isolated", "env.not_isolated.fix");
    CHECK(has_code(&find("isolation")->found, "env.cmdline_no_isolcpus"));
    EXPECT_VALUE("isolation", "cpu", 0);
    CHECK(find("isolation")->advice.items[0].values[0].num == 1); /* the last online CPU */
    EXPECT("nmi_watchdog", TKS_ENV_OK, "env.nmi_watchdog_off", "");
    EXPECT("perf_counters", TKS_ENV_INFO, "env.no_pmu", "env.no_pmu.fix");
    EXPECT("aslr", TKS_ENV_INFO, "env.aslr", "env.aslr.fix");
    EXPECT("load", TKS_ENV_OK, "env.no_other_tasks", "");
    EXPECT_VALUE("load", "load", 0.07);
    EXPECT("rt_throttling", TKS_ENV_INFO, "env.rt_throttled", "env.rt_throttled.fix");
    EXPECT_VALUE("rt_throttling", "runtime_us", 950000);
    EXPECT_VALUE("rt_throttling", "period_us", 1000000);
    EXPECT_VALUE("aslr", "level", 2);
    expect_build(1);

    /* cpu1 of the same guest: its own siblings file. */
    run_tree("vm", 1, 1, "KVMKVMKVM", 1, 1);
    EXPECT("smt", TKS_ENV_OK, "env.smt_alone", "");
    EXPECT("isolation", TKS_ENV_INFO, "env.not_isolated", "env.not_isolated.fix");
}

static void test_hypervisor_names(void)
{
    static const char *const names[][2] = {
        {"Microsoft Hv", "(Hyper-V)"}, {"VMwareVMware", "(VMware)"}, {"XenVMMXenVMM", "(Xen)"},
        {"TCGTCGTCGTCG", "(QEMU TCG)"}, {"VBoxVBoxVBox", "(VirtualBox)"},
        {"ACRNACRNACRN", "(ACRNACRNACRN)"}, {"", "(vendor unknown)"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        run_tree("vm", 0, 1, names[i][0], 1, 1);
        EXPECT("hypervisor", TKS_ENV_WARN, "env.hypervisor", "env.hypervisor.fix");
    }
    run_tree("vm", 0, 1, NULL, 1, 1);
    EXPECT("hypervisor", TKS_ENV_WARN, "env.hypervisor", NULL);
    /* Unknown CPUID and no /sys/hypervisor/type: unknown, not "no hypervisor". */
    run_tree("vm", 0, -1, NULL, -1, 1);
    EXPECT("hypervisor", TKS_ENV_UNKNOWN, "env.hypervisor_unknown", "env.hypervisor_unknown.fix");
    EXPECT("invariant_tsc", TKS_ENV_UNKNOWN, "env.invariant_tsc_unknown", "env.invariant_tsc_unknown.fix");
}

static void test_baremetal(void)
{
    CHECK_EQ_U64(run_tree("baremetal", 2, 0, "", 1, 1), N_CHECKS);
    check_shape();
    EXPECT("hypervisor", TKS_ENV_OK, "env.no_hypervisor", "");
    EXPECT("invariant_tsc", TKS_ENV_OK, NULL, "");
    EXPECT("clocksource", TKS_ENV_OK, "env.clocksource", "");
    EXPECT("governor", TKS_ENV_OK, "env.governor_performance", "");
    EXPECT("frequency", TKS_ENV_OK, "env.frequency_fixed", "");
    EXPECT("turbo", TKS_ENV_OK, "env.turbo_off", "");
    EXPECT("smt", TKS_ENV_OK, "env.smt_alone", "");
    EXPECT("isolation", TKS_ENV_OK, "env.isolated", "");
    EXPECT("nmi_watchdog", TKS_ENV_OK, NULL, "");
    EXPECT("perf_counters", TKS_ENV_OK, "env.counters_usable", "");
    EXPECT("aslr", TKS_ENV_OK, "env.aslr_off", "");
    EXPECT("load", TKS_ENV_OK, "env.no_other_tasks", "");
    EXPECT("rt_throttling", TKS_ENV_OK, "env.rt_unthrottled", "");
    expect_build(1);

    /* Measuring on cpu0 while 2-3 are isolated: pin to the first isolated one. The tree has no
     * cpu0 directory, so what depends on it is unknown rather than "no cpufreq driver". */
    run_tree("baremetal", 0, 0, "", 1, 1);
    check_shape();
    EXPECT("isolation", TKS_ENV_WARN, "env.isolated_elsewhere", "env.isolated_elsewhere.fix");
    EXPECT_STRING("isolation", "isolated", "2-3");
    EXPECT_VALUE("isolation", "first", 2);
    EXPECT("governor", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("frequency", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("smt", TKS_ENV_UNKNOWN, "env.unreadable", "env.unreadable.fix");
    /* On cpu3: isolated, tickless, but the tree has no cpu3 files. */
    run_tree("baremetal", 3, 0, "", 1, 1);
    EXPECT("isolation", TKS_ENV_OK, "env.isolated", "");
}

static void test_laptop(void)
{
    CHECK_EQ_U64(run_tree("laptop", 0, 0, NULL, 0, 0), N_CHECKS);
    check_shape();
    EXPECT("hypervisor", TKS_ENV_OK, NULL, "");
    EXPECT("invariant_tsc", TKS_ENV_WARN, "env.no_invariant_tsc", "env.no_invariant_tsc.fix");
    EXPECT("clocksource", TKS_ENV_WARN, "env.clocksource_unstable", "env.clocksource_unstable.fix");
    EXPECT_STRING("clocksource", "current", "hpet");
    EXPECT_STRING("clocksource", "available", "hpet acpi_pm");
    EXPECT("governor", TKS_ENV_WARN, "env.governor", "env.governor.fix");
    EXPECT_STRING("governor", "governor", "powersave");
    CHECK(has_code(&find("governor")->found, "env.frequency_range"));
    EXPECT_VALUE("governor", "hi_mhz", 4700);
    EXPECT("frequency", TKS_ENV_WARN, "env.frequency_varies", "env.frequency_varies.fix");
    EXPECT_VALUE("frequency", "lo_mhz", 400);
    CHECK(has_code(&find("frequency")->found, "env.frequency_hardware"));
    EXPECT_VALUE("frequency", "mhz", 4700); /* the remedy pins the top */
    EXPECT("turbo", TKS_ENV_WARN, "env.turbo_on", "env.turbo_on.fix");
    EXPECT_STRING("turbo", "switch", "intel_pstate no_turbo");
    EXPECT("smt", TKS_ENV_WARN, "env.smt_shared", "env.smt_shared.fix");
    EXPECT_STRING("smt", "others", "4");
    /* No online file: nothing better to suggest than the measuring CPU. */
    EXPECT("isolation", TKS_ENV_INFO, "env.not_isolated", "env.not_isolated.fix");
    EXPECT("nmi_watchdog", TKS_ENV_WARN, "env.nmi_watchdog", "env.nmi_watchdog.fix");
    EXPECT("perf_counters", TKS_ENV_WARN, "env.paranoid", "env.paranoid.fix");
    EXPECT("aslr", TKS_ENV_INFO, "env.aslr", "env.aslr.fix");
    EXPECT("load", TKS_ENV_WARN, "env.other_tasks", "env.other_tasks.fix");
    EXPECT_VALUE("load", "tasks", 2);
    EXPECT_VALUE("load", "load", 1.52);
    EXPECT_VALUE("perf_counters", "level", 4);
    EXPECT_VALUE("perf_counters", "rdpmc", 2);
    EXPECT("rt_throttling", TKS_ENV_INFO, "env.rt_throttled", "env.rt_throttled.fix");
    expect_build(0);
}

static void test_missing_root(void)
{
    /* Nothing exists: every file-based check is unknown (absence of /sys proves nothing), the
     * count does not change, and only the build finding (from the input) is known. */
    CHECK_EQ_U64(run_root("/nonexistent/tickscope-env-root", 0, -1, NULL, -1, 1), N_CHECKS);
    check_shape();
    for (size_t i = 0; i < n_out; i++)
        if (strcmp(out[i].id, "build") != 0)
            CHECK(out[i].status == TKS_ENV_UNKNOWN);
    EXPECT("clocksource", TKS_ENV_UNKNOWN, "env.unreadable", "env.unreadable.fix");
    EXPECT("load", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("rt_throttling", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    expect_build(1);
}

int main(void)
{
    find_fixtures();
    test_names();
    test_vm();
    test_hypervisor_names();
    test_baremetal();
    test_laptop();
    test_missing_root();
    CHECK_DONE();
}
