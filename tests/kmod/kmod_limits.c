/* SPDX-License-Identifier: MIT */
/* kmod_limits.c: drives /dev/tickscope against its limits inside the throw-away VM of run_qemu.sh:
 * the interrupts-off bound and its refusal, max_run_ms, the freezer, a CPU taken offline, and
 * callers killed mid-run (who may use the device: kmod_privilege.c). Prints "ABUSE PASS <what>" /
 * "ABUSE FAIL: <what>" and "LIMITS DONE ok|failed". */
#include "abuse_util.h"

/* A child starts a run far too long to finish, and is killed: the module must notice between
 * sections, free everything, and let the device be opened again at once. */
static void killed_caller(unsigned m, int sig)
{
    struct timespec t0, t1;
    int status = 0, fd;
    pid_t pid;
    double secs;
    uint32_t n;

    /* The loop's size first, in this process: the child's only run is then the long one, and
     * its kernel thread says it has begun. */
    fd = open_dev();
    n = fd >= 0 ? loop_n_for(fd, m, info.tsc_khz * info.section_us / 1000 / 5) : 1000;
    if (fd >= 0)
        close(fd);
    check(wait_run(0) == 0, "no run in progress before the caller to be killed starts");
    pid = fork();
    if (pid == 0) {
        struct tks_kmod_run r = base_run(m);
        int cfd = open_dev();
        if (cfd < 0)
            _exit(3);
        r.workload = TKS_KWORK_LOOP;
        r.work_start = n;
        r.ensembles = 64;
        r.samples = 65536; /* far past max_run_ms (5 s): it must be killed first */
        ioctl(cfd, TKS_IOC_RUN, &r);
        _exit(4); /* reached only if the run returned */
    }
    check(wait_run(1) == 0, "the killed caller's run started (its kernel thread was seen)");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    kill(pid, sig);
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    check(WIFSIGNALED(status) && WTERMSIG(status) == sig && secs < 10,
          "caller killed by signal %d mid-run: gone after %.3f s (status 0x%x)", sig, secs,
          status);
    fd = open_dev();
    check(fd >= 0, "device opens again after the killed caller");
    if (fd >= 0)
        close(fd);
}

/* CPU hotplug: 0 when the write worked. */
static int set_online(int cpu, int on)
{
    char path[96];
    FILE *f;
    int ok;

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
    f = fopen(path, "w");
    if (!f)
        return -1;
    ok = fputs(on ? "1" : "0", f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

struct long_run {
    int fd;
    struct tks_kmod_run r;
    int err;
};

static void *long_run_thread(void *p)
{
    struct long_run *l = p;
    l->err = ioc(l->fd, TKS_IOC_RUN, &l->r);
    return NULL;
}

/* An offline CPU is refused; a CPU that goes offline during a run ends it with EAGAIN. */
static void offline_cpu(int fd, unsigned method)
{
    struct long_run l;
    struct tks_kmod_run r;
    pthread_t t;
    int cpu = (int)info.nr_cpu_ids - 1;

    if (cpu < 1 || set_online(cpu, 0) != 0) {
        skip("cpu hotplug not possible here: offline checks not run");
        return;
    }
    r = base_run(method);
    r.cpu = cpu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN on an offline cpu");
    check(set_online(cpu, 1) == 0, "cpu %d back online", cpu);

    memset(&l, 0, sizeof(l));
    l.fd = fd;
    l.r = base_run(method);
    l.r.cpu = cpu;
    l.r.workload = TKS_KWORK_LOOP;
    l.r.work_start = loop_n_for(fd, method, info.tsc_khz * info.section_us / 1000 / 5);
    l.r.ensembles = 1;
    l.r.samples = 1000000; /* past max_run_ms: it must not get to the end */
    pthread_create(&t, NULL, long_run_thread, &l);
    check(wait_run(1) == 0, "the run on cpu %d started", cpu);
    check(set_online(cpu, 0) == 0, "cpu %d taken offline during a run", cpu);
    pthread_join(t, NULL);
    expect_errno(l.err, EAGAIN, "RUN whose cpu went offline");
    check(set_online(cpu, 1) == 0, "cpu %d back online", cpu);
    r = base_run(method);
    r.cpu = cpu;
    good_run(fd, r, "on the cpu that came back", NULL);
}

/* The hard bound: a workload one sample of which is longer than the bound is refused with the
 * figure; one that fits is cut into sections that each stay within it. */
static void bound(int fd, unsigned method)
{
    uint64_t bound_ticks = info.tsc_khz * info.section_us / 1000;
    struct tks_kmod_run r, res;
    unsigned o;
    int e;
    char what[160];

    if (!info.tsc_khz) {
        skip("no TSC rate: bound checks not run");
        return;
    }
    /* One sample longer than the bound is refused, with the figure. The longest loop fits a
     * millisecond on most CPUs, so the bound is lowered to 5 us for this (section_us). */
    if (set_param("section_us", 5) == 0) {
        uint64_t low = info.tsc_khz * 5 / 1000;
        r = base_run(method);
        r.workload = TKS_KWORK_LOOP;
        r.work_start = info.work_max[TKS_KWORK_LOOP];
        r.samples = 4;
        e = ioc(fd, TKS_IOC_RUN, &r);
        check(e == EINVAL && r.sample_ticks > low,
              "loop %u refused under section_us=5: one sample %llu ticks > bound %llu (%s)",
              r.work_start, (unsigned long long)r.sample_ticks, (unsigned long long)low,
              e ? strerror(e) : "accepted");
        printf("ABUSE BOUND refused loop=%u sample_ticks=%llu bound=%llu\n", r.work_start,
               (unsigned long long)r.sample_ticks, (unsigned long long)low);
        check(set_param("section_us", TKS_KMOD_SECTION_US) == 0, "section_us back to %u",
              TKS_KMOD_SECTION_US);
    } else {
        check(0, "section_us cannot be set through sysfs");
    }
    /* A fifth of the bound a sample, many samples: many sections, none past the bound. */
    for (o = 0; o < TKS_KOWN_COUNT; o++) {
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_LOOP;
        r.work_start = loop_n_for(fd, method, bound_ticks / 5);
        r.ensembles = 1;
        r.samples = 100;
        snprintf(what, sizeof(what), "%s loop %u, long run", o ? "preempt-off" : "irq-off",
                 r.work_start);
        if (good_run(fd, r, what, &res) == 0) {
            printf("ABUSE BOUND own=%s sections=%llu section_max_ticks=%llu (%.1f us) "
                   "bound=%llu ticks (%u us) probe=%llu ticks longest_sample=%llu ticks "
                   "sum=%llu ticks elapsed=%.1f ms\n",
                   o ? "preempt" : "irq", (unsigned long long)res.sections,
                   (unsigned long long)res.section_max_ticks,
                   res.section_max_ticks * 1000.0 / info.tsc_khz,
                   (unsigned long long)bound_ticks, info.section_us,
                   (unsigned long long)res.sample_ticks, (unsigned long long)last_longest,
                   (unsigned long long)last_sum, res.elapsed_ns / 1e6);
            check(res.sections >= 2, "%s: cut into %llu sections", what,
                  (unsigned long long)res.sections);
        }
    }
    /* The snippet workload likewise: 16 NOPs a loop iteration, as many iterations as make a
     * sample a fifth of the bound, 100 samples: cut into sections within the bound too. */
    for (o = 0; o < TKS_KOWN_COUNT; o++) {
        static const unsigned char nop[] = {0x90};
        struct tks_kmod_snippet sn;
        uint64_t loops;
        memset(&sn, 0, sizeof(sn));
        sn.code = (uintptr_t)nop;
        sn.code_len = 1;
        sn.loops = 1000;
        sn.scratch_bytes = 64;
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_SNIPPET;
        r.snippet = (uintptr_t)&sn;
        r.work_start = 16;
        r.ensembles = 1;
        r.samples = 4;
        if (ioc(fd, TKS_IOC_RUN, &r) != 0 || !r.sample_ticks) {
            check(0, "snippet of 16 NOPs x 1000: %s", strerror(errno));
            continue;
        }
        loops = bound_ticks / 5 * 1000 / r.sample_ticks;
        sn.loops = loops < 1 ? 1 : loops > TKS_KMOD_SNIPPET_LOOPS_MAX ? TKS_KMOD_SNIPPET_LOOPS_MAX
                                                                       : (uint32_t)loops;
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_SNIPPET;
        r.snippet = (uintptr_t)&sn;
        r.work_start = 16;
        r.ensembles = 1;
        r.samples = 100;
        snprintf(what, sizeof(what), "%s snippet 16 NOPs x %u, long run",
                 o ? "preempt-off" : "irq-off", sn.loops);
        if (good_run(fd, r, what, &res) == 0) {
            printf("ABUSE BOUND snippet own=%s sections=%llu section_max_ticks=%llu (%.1f us) "
                   "bound=%llu ticks longest_sample=%llu ticks\n", o ? "preempt" : "irq",
                   (unsigned long long)res.sections, (unsigned long long)res.section_max_ticks,
                   res.section_max_ticks * 1000.0 / info.tsc_khz, (unsigned long long)bound_ticks,
                   (unsigned long long)last_longest);
            check(res.sections >= 2, "%s: cut into %llu sections", what,
                  (unsigned long long)res.sections);
        }
    }
}

/* max_run_ms: a run that would last longer ends with ETIME, and the limit can be raised. */
static void run_limit(int fd, unsigned method)
{
    struct tks_kmod_run r = base_run(method);
    struct timespec t0, t1;
    double secs;
    int e;

    if (set_param("max_run_ms", 100) != 0) {
        check(0, "max_run_ms cannot be set through sysfs");
        return;
    }
    r.workload = TKS_KWORK_LOOP;
    r.work_start = loop_n_for(fd, method, info.tsc_khz * info.section_us / 1000 / 5);
    r.samples = 1000000;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    e = ioc(fd, TKS_IOC_RUN, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    check(e == ETIME && secs < 2, "a run past max_run_ms=100 ends with ETIME after %.3f s (%s)",
          secs, e ? strerror(e) : "finished");
    check(set_param("max_run_ms", TKS_KMOD_RUN_MS_DEFAULT) == 0, "max_run_ms back to %u",
          TKS_KMOD_RUN_MS_DEFAULT);
}

/* The freezer (suspend): a run in progress ends early with EINTR instead of holding the system
 * up. pm_test "freezer" freezes every task and thaws them again without suspending. */
static void freezer(int fd, unsigned method)
{
    struct long_run l;
    pthread_t t;
    FILE *f;

    f = fopen("/sys/power/pm_test", "w");
    if (!f || fputs("freezer", f) < 0 || fclose(f) != 0) {
        skip("no /sys/power/pm_test (CONFIG_PM_DEBUG): freezer check not run");
        return;
    }
    memset(&l, 0, sizeof(l));
    l.fd = fd;
    l.r = base_run(method);
    l.r.workload = TKS_KWORK_LOOP;
    l.r.work_start = loop_n_for(fd, method, info.tsc_khz * info.section_us / 1000 / 5);
    l.r.samples = 1000000; /* longer than max_run_ms: it must end early */
    pthread_create(&t, NULL, long_run_thread, &l);
    check(wait_run(1) == 0, "the run to be frozen started");
    f = fopen("/sys/power/state", "w");
    if (!f || fputs("freeze", f) < 0 || fclose(f) != 0)
        check(0, "writing freeze to /sys/power/state: %s", strerror(errno));
    pthread_join(t, NULL);
    expect_errno(l.err, EINTR, "RUN during a system freeze");
    f = fopen("/sys/power/pm_test", "w");
    if (f) {
        fputs("none", f);
        fclose(f);
    }
}

/* One snippet run that must be refused by the bound: EINVAL, its time in sample_ticks. */
static void snippet_refused(int fd, unsigned method, unsigned own, const unsigned char *code,
                            uint32_t len, uint32_t loops, uint32_t copies, const char *what)
{
    uint64_t bound = info.tsc_khz * info.section_us / 1000;
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = base_run(method);
    int e;

    memset(&sn, 0, sizeof(sn));
    sn.code = (uintptr_t)code;
    sn.code_len = len;
    sn.loops = loops;
    sn.scratch_bytes = 64;
    r.own = own;
    r.workload = TKS_KWORK_SNIPPET;
    r.snippet = (uintptr_t)&sn;
    r.work_start = copies;
    e = ioc(fd, TKS_IOC_RUN, &r);
    check(e == EINVAL && r.sample_ticks > bound, "%s (%s): %s, sample_ticks %llu (bound %llu)",
          what, own == TKS_KOWN_IRQ_OFF ? "irq-off" : "preempt-off", e ? strerror(e) : "success",
          (unsigned long long)r.sample_ticks, (unsigned long long)bound);
}

/* Snippets past the bound: one that never returns (jmp to itself) is taken out of the probe by
 * the watchdog and refused like a long one, with its time in sample_ticks, in both ownership
 * modes; so is a loop of 16 million NOPs. The device works afterwards. */
static void snippet_limits(int fd, unsigned method)
{
    static const unsigned char spin[] = {0xeb, 0xfe}, nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = base_run(method);

    snippet_refused(fd, method, TKS_KOWN_IRQ_OFF, spin, 2, 1, 1, "snippet that never returns");
    snippet_refused(fd, method, TKS_KOWN_PREEMPT_OFF, spin, 2, 1, 1, "snippet that never returns");
    snippet_refused(fd, method, TKS_KOWN_IRQ_OFF, nop, 1, 1000000, 16, "16 million NOPs");
    memset(&sn, 0, sizeof(sn));
    sn.code = (uintptr_t)nop;
    sn.code_len = 1;
    sn.loops = 10;
    sn.scratch_bytes = 64;
    r.workload = TKS_KWORK_SNIPPET;
    r.snippet = (uintptr_t)&sn;
    r.work_start = 16;
    good_run(fd, r, "snippet after the refusals", NULL);
}

int main(void)
{
    unsigned method;
    int fd, e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open_dev_or_done("LIMITS DONE");
    if (fd < 0)
        return 1;
    e = ioc(fd, TKS_IOC_INFO, &info);
    check(e == 0 && info.abi == TKS_KMOD_ABI, "INFO: abi %u", info.abi);
    if (e) {
        printf("LIMITS DONE failed\n");
        return 1;
    }
    method = info_method();

    bound(fd, method);
    snippet_limits(fd, method);
    run_limit(fd, method);
    freezer(fd, method);
    offline_cpu(fd, method);
    close(fd);

    killed_caller(method, SIGKILL);
    killed_caller(method, SIGTERM);

    printf("LIMITS RESULT %d passed, %d failed\n", passes, failures);
    printf("LIMITS DONE %s\n", failures ? "failed" : "ok");
    return failures ? 1 : 0;
}
