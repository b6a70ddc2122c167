/* test_platform_env.c: the environment checks against fixture trees of /proc and /sys (a KVM guest,
 * a tuned bare-metal machine, an untuned laptop) and against trees built here to break them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw, mkdtemp, sched_setaffinity */
#endif
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tickscope.h"

#define N_CHECKS 14

/* The same test the library makes, so the expected "build" finding follows the build. */
#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

static char fixtures[4096];
static tks_env_finding out[TKS_ENV_MAX];
static size_t n_out;

static void find_fixtures(void)
{
    const char *src = getenv("TKS_SOURCE_DIR");
    const char *slash;
    if (src && *src) {
        snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures/env", src);
        return;
    }
    /* Run by hand: the fixtures sit next to this file. */
    slash = strrchr(__FILE__, '/');
    if (slash)
        snprintf(fixtures, sizeof fixtures, "%.*s/fixtures/env", (int)(slash - __FILE__), __FILE__);
    else
        snprintf(fixtures, sizeof fixtures, "fixtures/env");
}

static tks_env_input input(const char *root, int cpu, int hypervisor, const char *vendor,
                           int invariant, int optimized)
{
    tks_env_input in;
    in.root = root;
    in.cpu = cpu;
    in.hypervisor = hypervisor;
    in.hypervisor_vendor = vendor;
    in.invariant_tsc = invariant;
    in.optimized_build = optimized;
    return in;
}

static size_t run_root(const char *root, int cpu, int hypervisor, const char *vendor,
                       int invariant, int optimized)
{
    tks_env_input in = input(root, cpu, hypervisor, vendor, invariant, optimized);
    memset(out, 0x5a, sizeof out); /* garbage, so an unwritten field shows */
    n_out = tks_env_check(&in, out, TKS_ENV_MAX);
    return n_out;
}

static size_t run_tree(const char *tree, int cpu, int hypervisor, const char *vendor,
                       int invariant, int optimized)
{
    char root[4200];
    snprintf(root, sizeof root, "%s/%s", fixtures, tree);
    return run_root(root, cpu, hypervisor, vendor, invariant, optimized);
}

static const tks_env_finding *find(const char *id)
{
    for (size_t i = 0; i < n_out; i++)
        if (strcmp(out[i].id, id) == 0)
            return &out[i];
    return NULL;
}

/* One finding: its status, and substrings of the finding and advice (NULL: not checked; "" for the
 * advice: must be empty). Says what it saw when it fails. */
static int expect_(int line, const char *id, int status, const char *text, const char *advice)
{
    const tks_env_finding *f = find(id);
    int ok = f && f->status == status && (!text || strstr(f->finding, text)) &&
             (!advice || (advice[0] ? strstr(f->advice, advice) != NULL : f->advice[0] == 0));
    if (!ok && f)
        fprintf(stderr, "line %d: %s: %s \"%s\" / \"%s\"; expected %s with \"%s\" / \"%s\"\n", line,
                id, tks_env_status_name(f->status), f->finding, f->advice,
                tks_env_status_name(status), text ? text : "", advice ? advice : "");
    else if (!ok)
        fprintf(stderr, "line %d: no finding \"%s\"\n", line, id);
    return ok;
}
#define EXPECT(id, status, text, advice) CHECK(expect_(__LINE__, id, status, text, advice))

/* What every run must satisfy, whatever the tree: terminated strings, known statuses, unique
 * non-empty ids, advice exactly when something is not OK. */
static void check_shape(void)
{
    for (size_t i = 0; i < n_out; i++) {
        const tks_env_finding *f = &out[i];
        CHECK(memchr(f->id, 0, sizeof f->id) && memchr(f->finding, 0, sizeof f->finding) &&
              memchr(f->advice, 0, sizeof f->advice));
        CHECK(f->id[0] != 0 && f->finding[0] != 0);
        CHECK(f->status >= TKS_ENV_OK && f->status <= TKS_ENV_UNKNOWN);
        CHECK((f->status == TKS_ENV_OK) == (f->advice[0] == 0));
        CHECK(strchr(f->finding, '\n') == NULL && strchr(f->advice, '\n') == NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(out[j].id, f->id) != 0);
    }
}

static void expect_build(int optimized)
{
#ifdef ASAN
    (void)optimized;
    EXPECT("build", TKS_ENV_WARN, "AddressSanitizer", "plain build");
#else
    if (optimized)
        EXPECT("build", TKS_ENV_OK, "with optimisation", "");
    else
        EXPECT("build", TKS_ENV_WARN, "without optimisation", "CMAKE_BUILD_TYPE=Release");
#endif
}

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

static void test_max_and_null(void)
{
    tks_env_input in;
    char root[4200];
    snprintf(root, sizeof root, "%s/vm", fixtures);
    in = input(root, 0, 1, "KVMKVMKVM", 1, 1);
    memset(out, 0x5a, sizeof out);
    CHECK_EQ_U64(tks_env_check(&in, out, 3), 3);
    CHECK_STR(out[2].id, "clocksource");
    CHECK((unsigned char)out[3].id[0] == 0x5a); /* untouched */
    CHECK_EQ_U64(tks_env_check(&in, out, 0), 0);
    CHECK_EQ_U64(tks_env_check(NULL, out, TKS_ENV_MAX), 0);
    CHECK_EQ_U64(tks_env_check(&in, NULL, TKS_ENV_MAX), 0);
    /* More room than checks: the number of checks. */
    CHECK_EQ_U64(tks_env_check(&in, out, TKS_ENV_MAX), N_CHECKS);
}

/* ---------------------------------------------------------------- trees built here */

static char tmp_root[256];

static void make_dirs(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmp_root, rel);
    for (char *p = path + strlen(tmp_root) + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0755);
            *p = '/';
        }
    }
    mkdir(path, 0755);
}

static void write_file(const char *rel, const char *text)
{
    char path[1024], dir[512];
    FILE *f;
    const char *slash = strrchr(rel, '/');
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - rel), rel);
    make_dirs(dir);
    snprintf(path, sizeof path, "%s/%s", tmp_root, rel);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int new_tree(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_root, sizeof tmp_root, "%s/tks_env_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(tmp_root) != NULL;
}

static void drop_tree(void)
{
    nftw(tmp_root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_directories_for_files(void)
{
    static const char *const dirs[] = {
        "sys/devices/system/clocksource/clocksource0/current_clocksource",
        "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
        "sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
        "sys/devices/system/cpu/intel_pstate/no_turbo",
        "sys/devices/system/cpu/isolated",
        "sys/bus/event_source/devices/cpu",
        "proc/sys/kernel/perf_event_paranoid",
        "proc/sys/kernel/nmi_watchdog",
        "proc/sys/kernel/randomize_va_space",
        "proc/sys/kernel/sched_rt_runtime_us",
        "proc/stat",
    };
    static const char *const ids[] = {"clocksource", "governor", "frequency", "turbo", "smt",
                                      "isolation", "nmi_watchdog", "perf_counters", "aslr", "load",
                                      "rt_throttling"};
    if (!new_tree()) {
        CHECK(!"mkdtemp");
        return;
    }
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        make_dirs(dirs[i]);
    CHECK_EQ_U64(run_root(tmp_root, 0, 0, NULL, 1, 1), N_CHECKS);
    check_shape();
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        EXPECT(ids[i], TKS_ENV_UNKNOWN, "cannot", "ls -l");
    /* The cpufreq directory is there: a missing file in it is unknown, not "no driver". */
    EXPECT("governor", TKS_ENV_UNKNOWN, "cpu0/cpufreq/scaling_governor", NULL);
    EXPECT("frequency", TKS_ENV_UNKNOWN, "cpu0/cpufreq/scaling_min_freq", NULL);
    drop_tree();
}

/* A /proc/stat whose intr line is longer than any line buffer and full of decoys: whatever the
 * buffer's size, some piece of the line starts with "procs_running 7". */
static void write_long_stat(const char *procs_running)
{
    static char stat[16000];
    size_t n = 0;
    n += (size_t)snprintf(stat + n, sizeof stat - n, "cpu  1 2 3 4\nintr 1");
    while (n < 12000)
        n += (size_t)snprintf(stat + n, sizeof stat - n, " procs_running 7");
    snprintf(stat + n, sizeof stat - n, "\nctxt 5\n%s\nprocs_blocked 0\n", procs_running);
    write_file("proc/stat", stat);
}

static void test_odd_tree(void)
{
    char cmdline[600];
    if (!new_tree()) {
        CHECK(!"mkdtemp");
        return;
    }
    write_file("sys/hypervisor/type", "xen\n");
    write_file("sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
    write_file("sys/devices/system/clocksource/clocksource0/available_clocksource",
               "tsc-early kvm-clock tsc acpi_pm \n");
    write_file("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "schedutil\n");
    write_file("sys/devices/system/cpu/cpufreq/boost", "1\n");
    write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-3\n");
    write_file("sys/devices/system/cpu/isolated", "1\n");
    write_file("sys/devices/system/cpu/nohz_full", "(null)\n");
    write_file("sys/bus/event_source/devices/cpu_core/rdpmc", "0\n");
    write_file("proc/sys/kernel/perf_event_paranoid", "2\n");
    write_file("proc/sys/kernel/nmi_watchdog", "x\n");
    write_file("proc/sys/kernel/randomize_va_space", "0\n");
    write_file("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
    /* isolcpus= with 400 characters of flags: the finding is cut, not overrun. */
    snprintf(cmdline, sizeof cmdline, "ro isolcpus=managed_irq,domain,%0400d quiet\n", 1);
    write_file("proc/cmdline", cmdline);
    write_long_stat("procs_running 2");

    CHECK_EQ_U64(run_root(tmp_root, 1, 0, NULL, -1, 1), N_CHECKS);
    check_shape();
    /* CPUID says bare metal, but a Xen PV guest still shows its type. */
    EXPECT("hypervisor", TKS_ENV_WARN, "running under a hypervisor (xen)", NULL);
    /* tsc-early is not tsc: tsc is found as a word, and is available. */
    EXPECT("clocksource", TKS_ENV_WARN, "clocksource kvm-clock, not tsc",
           "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource");
    EXPECT("governor", TKS_ENV_WARN, "governor 'schedutil' on cpu1", "-g performance");
    CHECK(strstr(find("governor")->finding, "MHz") == NULL); /* no range to report */
    EXPECT("frequency", TKS_ENV_UNKNOWN, "cpu1/cpufreq/scaling_min_freq", NULL);
    EXPECT("turbo", TKS_ENV_WARN, "turbo boost on (cpufreq boost 1)",
           "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
    EXPECT("smt", TKS_ENV_WARN, "cpu1 shares its core with cpus 0,2-3 (SMT)",
           "keep cpus 0,2-3 idle");
    EXPECT("isolation", TKS_ENV_INFO, "cpu1 is isolated but not tickless",
           "nohz_full=1 rcu_nocbs=1");
    EXPECT("isolation", TKS_ENV_INFO, "; cmdline isolcpus=managed_irq,domain,0000", NULL);
    CHECK(strlen(find("isolation")->finding) < sizeof out[0].finding);
    EXPECT("nmi_watchdog", TKS_ENV_UNKNOWN, "/proc/sys/kernel/nmi_watchdog", NULL);
    EXPECT("perf_counters", TKS_ENV_WARN,
           "user-space rdpmc disabled (rdpmc 0, perf_event_paranoid 2)",
           "echo 1 > /sys/bus/event_source/devices/cpu_core/rdpmc");
    EXPECT("aslr", TKS_ENV_OK, "off", "");
    /* The decoy inside the intr line is not read; no loadavg, so no load average. */
    EXPECT("load", TKS_ENV_WARN, "1 other runnable task", "--pin");
    CHECK_STR(find("load")->finding, "1 other runnable task");
    EXPECT("rt_throttling", TKS_ENV_UNKNOWN, "sched_rt_period_us", NULL);

    /* Rewrite a few files and look again. */
    write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-\n");
    write_file("sys/devices/system/cpu/isolated", "5\n");
    write_file("sys/devices/system/cpu/nohz_full", "1\n");
    write_file("sys/devices/system/clocksource/clocksource0/available_clocksource", "\n");
    write_file("sys/devices/system/cpu/cpufreq/boost", "0\n");
    write_file("sys/bus/event_source/devices/cpu_core/rdpmc", "1\n");
    write_file("proc/sys/kernel/perf_event_paranoid", "3\n");
    write_file("proc/sys/kernel/sched_rt_period_us", "1000000\n");
    write_long_stat("procs_running 0");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    check_shape();
    EXPECT("smt", TKS_ENV_UNKNOWN, "cannot parse", NULL);
    EXPECT("isolation", TKS_ENV_WARN, "cpu5 is isolated but measuring on cpu1", "--pin 5");
    /* An empty available list does not have tsc: the kernel dropped it. */
    EXPECT("clocksource", TKS_ENV_WARN, "TSC unstable", "tsc=reliable");
    EXPECT("turbo", TKS_ENV_OK, "turbo boost off (cpufreq boost 0)", "");
    EXPECT("perf_counters", TKS_ENV_WARN, "perf_event_paranoid 3", "perf_event_paranoid=2");
    EXPECT("load", TKS_ENV_OK, "no other runnable tasks", "");
    EXPECT("rt_throttling", TKS_ENV_INFO, "950000 of every 1000000", NULL);

    /* Malformed sibling lists are unknown, never guessed at. */
    static const char *const bad[] = {"\n", "0-\n", "0,\n", "3-1\n", "a\n", "0 1\n", "-1\n",
                                      "1,,2\n", "99999999\n", "0-9,3-1\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", bad[i]);
        run_root(tmp_root, 1, 0, NULL, 1, 1);
        EXPECT("smt", TKS_ENV_UNKNOWN, "smt unknown (cannot parse", NULL);
    }
    /* Ranges around the measuring CPU; the kernel's own format ("1-2", not "1,2"). */
    write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-2,8-9\n");
    write_file("sys/devices/system/clocksource/clocksource0/available_clocksource",
               "kvm-clock tsc-early\n");
    write_file("sys/bus/event_source/devices/cpu_core/rdpmc", "0\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("smt", TKS_ENV_WARN, "cpu1 shares its core with cpus 0,2,8-9 (SMT)", NULL);
    EXPECT("clocksource", TKS_ENV_WARN, "TSC unstable (tsc is not in available "
           "'kvm-clock tsc-early')", NULL);
    EXPECT("perf_counters", TKS_ENV_WARN, "perf_event_paranoid 3 refuses counters to users, and "
           "user-space rdpmc disabled", "sysctl kernel.perf_event_paranoid=2; echo 1 > "
           "/sys/bus/event_source/devices/cpu_core/rdpmc");
    write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1-2\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("smt", TKS_ENV_WARN, "cpu1 shares its core with cpu2 (SMT)", "keep cpu2 idle");

    write_file("sys/devices/system/cpu/nohz_full", "1-\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("isolation", TKS_ENV_UNKNOWN,
           "isolation unknown (cannot parse /sys/devices/system/cpu/nohz_full)", NULL);
    write_file("sys/devices/system/cpu/nohz_full", "1\n");
    write_file("sys/devices/system/cpu/isolated", "\n");
    write_file("proc/cmdline", "ro nohz_full=1\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("isolation", TKS_ENV_INFO, "cpu1 is tickless (nohz_full) but not isolated",
           "boot with isolcpus=1 as well and measure with --pin 1");
    EXPECT("isolation", TKS_ENV_INFO, "; cmdline nohz_full=1", NULL);
    drop_tree();
}

/* cpu -1: the CPU the thread is on. Pin there first so the answer is known. */
static void test_current_cpu(void)
{
    cpu_set_t old, one;
    int cpu;
    char text[64];
    if (sched_getaffinity(0, sizeof old, &old) != 0)
        return;
    for (cpu = 0; cpu < 2 && !CPU_ISSET(cpu, &old); cpu++)
        ;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (cpu == 2 || sched_setaffinity(0, sizeof one, &one) != 0) {
        printf("skipped the cpu -1 test: cannot run on cpu0 or cpu1 of the vm tree\n");
        return;
    }
    run_tree("vm", -1, 1, "KVMKVMKVM", 1, 1);
    snprintf(text, sizeof text, "cpu%d has its core to itself (thread siblings: %d)", cpu, cpu);
    EXPECT("smt", TKS_ENV_OK, text, "");
    sched_setaffinity(0, sizeof old, &old);
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
    test_max_and_null();
    test_directories_for_files();
    test_odd_tree();
    test_current_cpu();
    CHECK_DONE();
}
