/* SPDX-License-Identifier: MIT */
/* test_platform_env_trees.c: the environment checks on trees made on the spot: missing and odd
 * files, directories where files belong, the table's bounds and the current CPU. */
#include "env_util.h"

static void test_max_and_null(void)
{
    tks_env_input in;
    char root[4200];
    snprintf(root, sizeof root, "%s/vm", fixtures);
    in = input(root, 0, 1, "KVMKVMKVM", 1, 1);
    tks_env_findings_free(out, n_out);
    n_out = 0;
    memset(out, 0x5a, sizeof out);
    CHECK_EQ_U64(tks_env_check(&in, out, 3), 3);
    CHECK_STR(out[2].id, "clocksource");
    CHECK((unsigned char)out[3].id[0] == 0x5a); /* untouched */
    tks_env_findings_free(out, 3);
    CHECK_EQ_U64(tks_env_check(&in, out, 0), 0);
    CHECK_EQ_U64(tks_env_check(NULL, out, TKS_ENV_MAX), 0);
    CHECK_EQ_U64(tks_env_check(&in, NULL, TKS_ENV_MAX), 0);
    /* More room than checks: the number of checks. */
    CHECK_EQ_U64(tks_env_check(&in, out, TKS_ENV_MAX), N_CHECKS);
    n_out = N_CHECKS;
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
        EXPECT(ids[i], TKS_ENV_UNKNOWN, "env.unreadable", "env.unreadable.fix");
    /* The cpufreq directory is there: a missing file in it is unknown, not "no driver". */
    EXPECT("governor", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("frequency", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
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
    EXPECT("hypervisor", TKS_ENV_WARN, "env.hypervisor", NULL);
    /* tsc-early is not tsc: tsc is found as a word, and is available. */
    EXPECT("clocksource", TKS_ENV_WARN, "env.clocksource_other", "env.clocksource_other.fix");
    EXPECT("governor", TKS_ENV_WARN, "env.governor", "env.governor.fix");
    CHECK(!has_code(&find("governor")->found, "env.frequency_range")); /* no range to report */
    EXPECT("frequency", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("turbo", TKS_ENV_WARN, "env.turbo_on", "env.turbo_on.fix");
    EXPECT("smt", TKS_ENV_WARN, "env.smt_shared", "env.smt_shared.fix");
    EXPECT("isolation", TKS_ENV_INFO, "env.isolated_ticking", "env.isolated_ticking.fix");
    EXPECT("isolation", TKS_ENV_INFO, "env.isolated_ticking", NULL);
    CHECK(string_of("isolation", "words") && strlen(string_of("isolation", "words")) < 160);
    EXPECT("nmi_watchdog", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("perf_counters", TKS_ENV_WARN, "env.no_rdpmc", "env.no_rdpmc.fix");
    EXPECT("aslr", TKS_ENV_OK, "env.aslr_off", "");
    /* The decoy inside the intr line is not read; no loadavg, so no load average. */
    EXPECT("load", TKS_ENV_WARN, "env.other_tasks", "env.other_tasks.fix");
    CHECK_EQ_U64(find("load")->found.n, 1);
    EXPECT_VALUE("load", "tasks", 1);
    EXPECT("rt_throttling", TKS_ENV_UNKNOWN, "env.unreadable", NULL);

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
    EXPECT("smt", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    EXPECT("isolation", TKS_ENV_WARN, "env.isolated_elsewhere", "env.isolated_elsewhere.fix");
    /* An empty available list does not have tsc: the kernel dropped it. */
    EXPECT("clocksource", TKS_ENV_WARN, "env.clocksource_unstable", "env.clocksource_unstable.fix");
    EXPECT("turbo", TKS_ENV_OK, "env.turbo_off", "");
    EXPECT("perf_counters", TKS_ENV_WARN, "env.paranoid", "env.paranoid.fix");
    EXPECT("load", TKS_ENV_OK, "env.no_other_tasks", "");
    EXPECT("rt_throttling", TKS_ENV_INFO, "env.rt_throttled", NULL);

    /* Malformed sibling lists are unknown, never guessed at. */
    static const char *const bad[] = {"\n", "0-\n", "0,\n", "3-1\n", "a\n", "0 1\n", "-1\n",
                                      "1,,2\n", "99999999\n", "0-9,3-1\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", bad[i]);
        run_root(tmp_root, 1, 0, NULL, 1, 1);
        EXPECT("smt", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    }
    /* Ranges around the measuring CPU; the kernel's own format ("1-2", not "1,2"). */
    write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-2,8-9\n");
    write_file("sys/devices/system/clocksource/clocksource0/available_clocksource",
               "kvm-clock tsc-early\n");
    write_file("sys/bus/event_source/devices/cpu_core/rdpmc", "0\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("smt", TKS_ENV_WARN, "env.smt_shared", NULL);
    EXPECT("clocksource", TKS_ENV_WARN, "env.clocksource_unstable", NULL);
    EXPECT("perf_counters", TKS_ENV_WARN, "env.paranoid_no_rdpmc", "env.paranoid_no_rdpmc.fix");
    write_file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1-2\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("smt", TKS_ENV_WARN, "env.smt_shared", "env.smt_shared.fix");

    write_file("sys/devices/system/cpu/nohz_full", "1-\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("isolation", TKS_ENV_UNKNOWN, "env.unreadable", NULL);
    write_file("sys/devices/system/cpu/nohz_full", "1\n");
    write_file("sys/devices/system/cpu/isolated", "\n");
    write_file("proc/cmdline", "ro nohz_full=1\n");
    run_root(tmp_root, 1, 0, NULL, 1, 1);
    EXPECT("isolation", TKS_ENV_INFO, "env.tickless_shared", "env.tickless_shared.fix");
    EXPECT("isolation", TKS_ENV_INFO, "env.tickless_shared", NULL);
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
    EXPECT("smt", TKS_ENV_OK, "env.smt_alone", "");
    sched_setaffinity(0, sizeof old, &old);
}

int main(void)
{
    find_fixtures();
    test_max_and_null();
    test_directories_for_files();
    test_odd_tree();
    test_current_cpu();
    CHECK_DONE();
}
