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
    EXPECT("hypervisor", TKS_ENV_WARN, "running under a hypervisor (KVM)", "--method lfence");
    EXPECT("invariant_tsc", TKS_ENV_OK, "invariant TSC", "");
    EXPECT("clocksource", TKS_ENV_OK, "clocksource tsc (available: tsc kvm-clock", "");
    EXPECT("governor", TKS_ENV_INFO, "no cpufreq driver for cpu0", "host");
    EXPECT("frequency", TKS_ENV_INFO, "no cpufreq driver", "governor");
    EXPECT("turbo", TKS_ENV_INFO, "no turbo control exposed", "host");
    EXPECT("smt", TKS_ENV_OK, "cpu0 has its core to itself (thread siblings: 0)", "");
    /* The cmdline's isolcpus=1 comes after "--", so it is init's, not the kernel's. cpu0 keeps
     * housekeeping: the advice isolates the last online CPU, 1. */
    EXPECT("isolation", TKS_ENV_INFO, "cpu0 is not isolated: the scheduler and timer ticks",
           "isolcpus=1 nohz_full=1 rcu_nocbs=1 and measure with --pin 1");
    EXPECT("isolation", TKS_ENV_INFO, "no isolcpus= on the kernel command line", NULL);
    EXPECT("nmi_watchdog", TKS_ENV_OK, "off", "");
    EXPECT("perf_counters", TKS_ENV_INFO, "'cpu' device missing", "pmu=on");
    EXPECT("aslr", TKS_ENV_INFO, "randomisation on (2)", "setarch -R");
    EXPECT("load", TKS_ENV_OK, "no other runnable tasks (1-minute load average 0.07)", "");
    EXPECT("rt_throttling", TKS_ENV_INFO, "limited to 950000 of every 1000000 us", "--fifo");
    expect_build(1);

    /* cpu1 of the same guest: its own siblings file. */
    run_tree("vm", 1, 1, "KVMKVMKVM", 1, 1);
    EXPECT("smt", TKS_ENV_OK, "cpu1 has its core to itself (thread siblings: 1)", "");
    EXPECT("isolation", TKS_ENV_INFO, "cpu1 is not isolated", "--pin 1");
}

static void test_hypervisor_names(void)
{
    static const char *const names[][2] = {
        {"Microsoft Hv", "(Hyper-V)"}, {"VMwareVMware", "(VMware)"}, {"XenVMMXenVMM", "(Xen)"},
        {"TCGTCGTCGTCG", "(QEMU TCG)"}, {"VBoxVBoxVBox", "(VirtualBox)"},
        {"ACRNACRNACRN", "(ACRNACRNACRN)"}, {"", "(vendor unknown)"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        run_tree("vm", 0, 1, names[i][0], 1, 1);
        EXPECT("hypervisor", TKS_ENV_WARN, names[i][1], "bare metal");
    }
    run_tree("vm", 0, 1, NULL, 1, 1);
    EXPECT("hypervisor", TKS_ENV_WARN, "(vendor unknown)", NULL);
    /* Unknown CPUID and no /sys/hypervisor/type: unknown, not "no hypervisor". */
    run_tree("vm", 0, -1, NULL, -1, 1);
    EXPECT("hypervisor", TKS_ENV_UNKNOWN, "hypervisor unknown", "systemd-detect-virt");
    EXPECT("invariant_tsc", TKS_ENV_UNKNOWN, "0x80000007", "nonstop_tsc");
}

static void test_baremetal(void)
{
    CHECK_EQ_U64(run_tree("baremetal", 2, 0, "", 1, 1), N_CHECKS);
    check_shape();
    EXPECT("hypervisor", TKS_ENV_OK, "no hypervisor", "");
    EXPECT("invariant_tsc", TKS_ENV_OK, NULL, "");
    EXPECT("clocksource", TKS_ENV_OK, "clocksource tsc", "");
    EXPECT("governor", TKS_ENV_OK, "governor 'performance' on cpu2; frequency 3000-3000 MHz", "");
    EXPECT("frequency", TKS_ENV_OK, "cpu2 frequency fixed at 3000 MHz (hardware 800-4200 MHz)", "");
    EXPECT("turbo", TKS_ENV_OK, "turbo boost off (intel_pstate no_turbo 1)", "");
    EXPECT("smt", TKS_ENV_OK, "cpu2 has its core to itself", "");
    EXPECT("isolation", TKS_ENV_OK,
           "cpu2 is isolated and tickless (isolated 2-3, nohz_full 2-3); cmdline isolcpus=2-3 "
           "nohz_full=2-3", "");
    EXPECT("nmi_watchdog", TKS_ENV_OK, NULL, "");
    EXPECT("perf_counters", TKS_ENV_OK, "perf_event_paranoid 1, rdpmc 1", "");
    EXPECT("aslr", TKS_ENV_OK, "off", "");
    EXPECT("load", TKS_ENV_OK, "no other runnable tasks (1-minute load average 0.00)", "");
    EXPECT("rt_throttling", TKS_ENV_OK, "real-time throttling off", "");
    expect_build(1);

    /* Measuring on cpu0 while 2-3 are isolated: pin to the first isolated one. The tree has no
     * cpu0 directory, so what depends on it is unknown rather than "no cpufreq driver". */
    run_tree("baremetal", 0, 0, "", 1, 1);
    check_shape();
    EXPECT("isolation", TKS_ENV_WARN, "cpus 2-3 are isolated but measuring on cpu0", "--pin 2");
    EXPECT("governor", TKS_ENV_UNKNOWN, "cannot find /sys/devices/system/cpu/cpu0", NULL);
    EXPECT("frequency", TKS_ENV_UNKNOWN, "cpu0", NULL);
    EXPECT("smt", TKS_ENV_UNKNOWN,
           "smt unknown (cannot read /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)",
           "ls -l");
    /* On cpu3: isolated, tickless, but the tree has no cpu3 files. */
    run_tree("baremetal", 3, 0, "", 1, 1);
    EXPECT("isolation", TKS_ENV_OK, "cpu3 is isolated and tickless", "");
}

static void test_laptop(void)
{
    CHECK_EQ_U64(run_tree("laptop", 0, 0, NULL, 0, 0), N_CHECKS);
    check_shape();
    EXPECT("hypervisor", TKS_ENV_OK, NULL, "");
    EXPECT("invariant_tsc", TKS_ENV_WARN, "ticks are not time", "performance");
    EXPECT("clocksource", TKS_ENV_WARN, "clocksource hpet: the kernel found the TSC unstable",
           "tsc=reliable");
    EXPECT("clocksource", TKS_ENV_WARN, "'hpet acpi_pm'", "dmesg");
    EXPECT("governor", TKS_ENV_WARN, "governor 'powersave' on cpu0; frequency 400-4700 MHz",
           "cpupower -c 0 frequency-set -g performance");
    EXPECT("frequency", TKS_ENV_WARN, "may vary between 400 and 4700 MHz (hardware 400-4700 MHz)",
           "-d 4700MHz -u 4700MHz");
    EXPECT("turbo", TKS_ENV_WARN, "turbo boost on (intel_pstate no_turbo 0)",
           "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
    EXPECT("smt", TKS_ENV_WARN, "cpu0 shares its core with cpu4 (SMT)",
           "keep cpu4 idle, or disable SMT: echo off > /sys/devices/system/cpu/smt/control");
    /* No online file: nothing better to suggest than the measuring CPU. */
    EXPECT("isolation", TKS_ENV_INFO, "cpu0 is not isolated", "--pin 0");
    EXPECT("nmi_watchdog", TKS_ENV_WARN, "NMI watchdog on", "kernel.nmi_watchdog=0");
    EXPECT("perf_counters", TKS_ENV_WARN,
           "perf_event_paranoid 4 refuses counters to users (rdpmc 2)",
           "perf_event_paranoid=2");
    EXPECT("aslr", TKS_ENV_INFO, "(2)", "randomize_va_space=0");
    EXPECT("load", TKS_ENV_WARN, "2 other runnable tasks (1-minute load average 1.52)", "--pin");
    EXPECT("rt_throttling", TKS_ENV_INFO, "950000 of every 1000000", "sched_rt_runtime_us=-1");
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
    EXPECT("clocksource", TKS_ENV_UNKNOWN,
           "clocksource unknown (cannot read "
           "/sys/devices/system/clocksource/clocksource0/current_clocksource)", "ls -l");
    EXPECT("load", TKS_ENV_UNKNOWN, "/proc/stat", NULL);
    EXPECT("rt_throttling", TKS_ENV_UNKNOWN, "sched_rt_runtime_us", NULL);
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
