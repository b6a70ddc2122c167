/* kmod_abuse.c: drives /dev/tickscope the way a careless or hostile caller would, inside the
 * throw-away VM of run_qemu.sh: every field out of range, bad pointers, wrong order of calls,
 * two opens, two threads, a killed caller, then valid runs of every method, workload, ownership
 * mode and CPU. Prints "ABUSE PASS <what>" / "ABUSE FAIL: <what>" and "ABUSE DONE ok|failed". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tickscope/clock.h"
#include "tickscope/kmod.h"

static int failures, passes;
static struct tks_kmod_info info;

/* How far past the bound an interrupts-off section may run here. Under TCG the guest's TSC
 * follows the host's clock (QEMU does not model timing under TCG), so host time the guest did
 * not run shows inside a section: the host descheduling the emulator, and TCG translating a
 * block of guest code the first time it runs (each of the 201 add-chain loops is its own block:
 * a first run of "adds 0..200 every n" has sections of several ms, its second none). good_run
 * therefore takes a run past the bound again. On hardware or KVM a section ends within one
 * sample of the bound. */
#define BOUND_SLACK 0.25

/* An address user space may never pass: the start of the kernel's direct map. */
#define KERNEL_PTR ((uintptr_t)0xffff888000000000ull)
#define POISON 0xa5a5a5a5a5a5a5a5ull

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf(ok ? "ABUSE PASS " : "ABUSE FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    if (ok)
        passes++;
    else
        failures++;
}

/* 0 or the errno of one ioctl. */
static int ioc(int fd, unsigned long cmd, void *arg)
{
    return ioctl(fd, cmd, arg) == 0 ? 0 : errno;
}

static void expect_errno(int got, int want, const char *what)
{
    check(got == want, "%s: %s (want %s)", what, got ? strerror(got) : "success",
          want ? strerror(want) : "success");
}

static const char *method_name(unsigned m)
{
    const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
    return mi ? mi->name : "?";
}

static struct tks_kmod_run base_run(unsigned method)
{
    struct tks_kmod_run r;
    memset(&r, 0, sizeof(r));
    r.abi = TKS_KMOD_ABI;
    r.method = method;
    r.workload = TKS_KWORK_EMPTY;
    r.own = TKS_KOWN_IRQ_OFF;
    r.ensembles = 2;
    r.samples = 10;
    r.cpu = -1;
    return r;
}

static int run_errno(int fd, struct tks_kmod_run r)
{
    return ioc(fd, TKS_IOC_RUN, &r);
}

/* Reads the whole last run in chunks of `chunk`, checks the chunking and that every slot was
 * written (the poison is gone) and is plausible (below ten seconds of TSC). */
static int read_all(int fd, uint64_t total, uint32_t chunk, uint64_t *out, const char *what,
                    uint64_t *sum, uint64_t *longest)
{
    uint64_t first = 0, calls = 0, bad = 0, limit;
    struct tks_kmod_read rd;
    uint64_t i;

    for (i = 0; i < total; i++)
        out[i] = POISON;
    while (first < total) {
        memset(&rd, 0, sizeof(rd));
        rd.buf = (uintptr_t)(out + first);
        rd.first = first;
        rd.count = chunk;
        if (ioc(fd, TKS_IOC_READ, &rd)) {
            check(0, "%s: READ at %llu failed: %s", what, (unsigned long long)first,
                  strerror(errno));
            return -1;
        }
        if (rd.count != (total - first < chunk ? total - first : chunk)) {
            check(0, "%s: READ at %llu copied %u", what, (unsigned long long)first, rd.count);
            return -1;
        }
        first += rd.count;
        calls++;
    }
    limit = info.tsc_khz ? info.tsc_khz * 10000ull : 100000000000ull;
    *sum = *longest = 0;
    for (i = 0; i < total; i++) {
        if (out[i] == POISON || out[i] > limit) {
            bad++;
            continue;
        }
        *sum += out[i];
        *longest = out[i] > *longest ? out[i] : *longest;
    }
    check(bad == 0 && calls == (total + chunk - 1) / chunk,
          "%s: %llu samples in %llu READs of %u, %llu unwritten or absurd", what,
          (unsigned long long)total, (unsigned long long)calls, chunk, (unsigned long long)bad);
    /* At the end: nothing more, and not beyond. */
    memset(&rd, 0, sizeof(rd));
    rd.buf = (uintptr_t)out;
    rd.first = total;
    rd.count = 5;
    check(ioc(fd, TKS_IOC_READ, &rd) == 0 && rd.count == 0, "%s: READ at the end copies 0", what);
    rd.first = total + 1;
    rd.count = 5;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EINVAL, "READ past the end");
    return bad ? -1 : 0;
}

/* One valid run: the structure of the answer, then its samples. *excess is set when an
 * interrupts-off section ran past the bound plus the slack. */
static int one_run(int fd, struct tks_kmod_run r, const char *what, struct tks_kmod_run *result,
                   int *excess)
{
    uint64_t total = (uint64_t)r.ensembles * r.samples;
    uint64_t bound = info.tsc_khz * info.section_us / 1000;
    uint64_t *buf, sum = 0, longest = 0;
    int cpu = r.cpu, e;

    e = ioc(fd, TKS_IOC_RUN, &r);
    if (e) {
        check(0, "%s: RUN failed: %s", what, strerror(e));
        return -1;
    }
    check(r.sections >= r.ensembles && r.section_max_ticks > 0 && r.elapsed_ns > 0 &&
              r.cpu_used >= 0 && (uint32_t)r.cpu_used < info.nr_cpu_ids &&
              (cpu < 0 || r.cpu_used == cpu) && r.reserved0 == 0,
          "%s: sections %llu, longest %llu ticks (%.1f us), cpu %d (asked %d), %llu ns, "
          "retaken %llu migrated %llu negative",
          what, (unsigned long long)r.sections, (unsigned long long)r.section_max_ticks,
          info.tsc_khz ? r.section_max_ticks * 1000.0 / info.tsc_khz : 0.0, r.cpu_used, cpu,
          (unsigned long long)r.elapsed_ns, (unsigned long long)r.migrated,
          (unsigned long long)r.negative);
    buf = malloc(total * sizeof(*buf));
    if (!buf) {
        check(0, "%s: out of memory", what);
        return -1;
    }
    e = read_all(fd, total, total > 100 ? (uint32_t)(total / 3 + 1) : 7, buf, what, &sum,
                 &longest);
    free(buf);
    /* The bound, judged on the module's own readings so that a busy host cannot fake a failure:
     * a section ends before a sample that would cross the bound, so the samples of one section
     * add up to less than the bound plus one sample, and more sections than that are needed. */
    if (!e && info.tsc_khz)
        check(sum < r.sections * (bound + longest),
              "%s: %llu ticks of samples in %llu sections of at most %llu + %llu ticks", what,
              (unsigned long long)sum, (unsigned long long)r.sections,
              (unsigned long long)bound, (unsigned long long)longest);
    /* The hard bound: no stretch with interrupts off longer than the bound (plus the
     * emulator's slack), and no sample alone longer than the bound (the module's probe). */
    *excess = !e && info.tsc_khz && r.own == TKS_KOWN_IRQ_OFF &&
              (r.section_max_ticks > bound * (1 + BOUND_SLACK) || r.sample_ticks > bound);
    if (*excess)
        printf("ABUSE NOTE %s: longest interrupts-off section %llu ticks, probe %llu, longest "
               "sample %llu, bound %llu (+%.0f%%)\n", what,
               (unsigned long long)r.section_max_ticks, (unsigned long long)r.sample_ticks,
               (unsigned long long)longest, (unsigned long long)bound, BOUND_SLACK * 100);
    if (result) {
        *result = r;
        result->reserved[0] = longest; /* for the caller's report */
        result->reserved[1] = sum;
    }
    return e;
}

/* A run past the bound is taken again: under TCG a host that deschedules the emulator for a
 * moment stretches one guest section, and that does not happen three times running, where a
 * module that does not cut its sections fails every time. */
static int good_run(int fd, struct tks_kmod_run r, const char *what, struct tks_kmod_run *result)
{
    uint64_t bound = info.tsc_khz * info.section_us / 1000;
    int tries, e = 0, excess = 0;

    for (tries = 0; tries < 3; tries++) {
        e = one_run(fd, r, what, result, &excess);
        if (e || !excess)
            break;
    }
    if (!e && info.tsc_khz && r.own == TKS_KOWN_IRQ_OFF)
        check(!excess, "%s: interrupts-off sections within %llu ticks + %.0f%% (%d tries)", what,
              (unsigned long long)bound, BOUND_SLACK * 100, tries + (tries < 3));
    return e;
}

static int open_dev(void)
{
    return open(TKS_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
}

static void bad_runs(int fd, unsigned m)
{
    struct tks_kmod_run r;
    unsigned i;

    r = base_run(m); r.abi = 0;
    expect_errno(run_errno(fd, r), EPROTO, "RUN abi 0");
    r = base_run(m); r.abi = TKS_KMOD_ABI + 1;
    expect_errno(run_errno(fd, r), EPROTO, "RUN abi +1");
    r = base_run(m); r.flags = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN flags 1");
    r = base_run(m); r.reserved0 = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN reserved0");
    for (i = 0; i < 3; i++) {
        r = base_run(m); r.reserved[i] = 1u << i;
        expect_errno(run_errno(fd, r), EINVAL, "RUN reserved[i]");
    }
    if ((info.methods >> TKS_METHOD_CR0) & 1) {
        r = base_run(TKS_METHOD_CR0); r.own = TKS_KOWN_PREEMPT_OFF;
        expect_errno(run_errno(fd, r), EINVAL, "RUN cr0 with interrupts on");
    }
    r = base_run(m); r.method = TKS_METHOD_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN method COUNT");
    r = base_run(m); r.method = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN method ~0");
    r = base_run(m); r.method = TKS_METHOD_ISB;
    expect_errno(run_errno(fd, r), EOPNOTSUPP, "RUN method isb (arm64)");
    r = base_run(m); r.workload = TKS_KWORK_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN workload COUNT");
    r = base_run(m); r.own = TKS_KOWN_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN own COUNT");
    r = base_run(m); r.own = 0x80000000u;
    expect_errno(run_errno(fd, r), EINVAL, "RUN own huge");
    r = base_run(m); r.ensembles = 0;
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles 0");
    r = base_run(m); r.samples = 0;
    expect_errno(run_errno(fd, r), EINVAL, "RUN samples 0");
    r = base_run(m); r.samples = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN samples 1");
    r = base_run(m); r.ensembles = 2; r.samples = info.total_max / 2 + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles x samples > total_max");
    r = base_run(m); r.ensembles = 1; r.samples = info.total_max + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN samples > total_max");
    r = base_run(m); r.ensembles = 0x10000; r.samples = 0x10000; /* 2^32: 0 in 32 bits */
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles x samples = 2^32");
    r = base_run(m); r.ensembles = 0xffffffffu; r.samples = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles x samples ~ 2^64");
    r = base_run(m); r.work_start = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN empty with work_start 1");
    r = base_run(m); r.work_step = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN empty with work_step 1");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.work_start = info.work_max[TKS_KWORK_ADDS] + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds start > max");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.ensembles = 4; r.work_step = 70;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds last ensemble > max");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.work_step = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds step wraps 32 bits");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.ensembles = 3; r.work_start = 0x80000000u;
    r.work_step = 0x80000000u;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds start + 2 step wraps to 2^32");
    r = base_run(m); r.workload = TKS_KWORK_LOOP; r.work_start = info.work_max[TKS_KWORK_LOOP] + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN loop start > max");
    r = base_run(m); r.workload = TKS_KWORK_PROBE; r.work_start = TKS_KPROBE_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN probe unknown");
    r = base_run(m); r.workload = TKS_KWORK_PROBE; r.work_step = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN probe with a step");
    r = base_run(m); r.cpu = (int32_t)info.nr_cpu_ids;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu nr_cpu_ids");
    r = base_run(m); r.cpu = -2;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu -2");
    r = base_run(m); r.cpu = INT_MAX;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu INT_MAX");
    r = base_run(m); r.cpu = INT_MIN;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu INT_MIN");
    expect_errno(ioc(fd, TKS_IOC_RUN, NULL), EFAULT, "RUN NULL");
    expect_errno(ioc(fd, TKS_IOC_RUN, (void *)KERNEL_PTR), EFAULT, "RUN kernel pointer");
}

/* Two threads hammer the one open file; the mutex must serialise them. */
struct thread_arg {
    int fd;
    unsigned method;
    int errors;
};

static void *hammer(void *p)
{
    struct thread_arg *a = p;
    uint64_t buf[64];
    int i;

    for (i = 0; i < 20; i++) {
        struct tks_kmod_run r = base_run(a->method);
        struct tks_kmod_read rd;
        int e;
        r.samples = 32;
        e = ioc(a->fd, TKS_IOC_RUN, &r);
        memset(&rd, 0, sizeof(rd));
        rd.buf = (uintptr_t)buf;
        rd.count = 64;
        /* The other thread may have freed or replaced the run in between: ENODATA or a count
         * of 64 are both fine; anything else is not. */
        if (e == 0) {
            e = ioc(a->fd, TKS_IOC_READ, &rd);
            if (e && e != ENODATA)
                a->errors++;
            if (!e && rd.count != 64)
                a->errors++;
        } else {
            a->errors++;
        }
        if (i % 5 == 4)
            ioc(a->fd, TKS_IOC_FREE, NULL);
    }
    return NULL;
}

/* One of the module's parameters, through sysfs; 0 when the write worked. */
static int set_param(const char *name, unsigned value)
{
    char path[96];
    FILE *f;
    int ok;

    snprintf(path, sizeof(path), "/sys/module/tickscope/parameters/%s", name);
    if (!(f = fopen(path, "w")))
        return -1;
    ok = fprintf(f, "%u", value) > 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The measured_loop(n) whose one sample takes about target ticks here, from the module's own
 * probe of n = 1000 (emulated CPUs are a hundred times slower than real ones). */
static uint32_t loop_n_for(int fd, unsigned method, uint64_t target)
{
    struct tks_kmod_run r = base_run(method);
    uint64_t n;

    r.workload = TKS_KWORK_LOOP;
    r.work_start = 1000;
    r.samples = 4;
    if (ioc(fd, TKS_IOC_RUN, &r) != 0 || r.sample_ticks == 0)
        return 1000;
    n = target * 1000 / r.sample_ticks;
    if (n < 1000)
        n = 1000;
    if (n > info.work_max[TKS_KWORK_LOOP])
        n = info.work_max[TKS_KWORK_LOOP];
    return (uint32_t)n;
}

/* A child starts a run far too long to finish, and is killed: the module must notice between
 * sections, free everything, and let the device be opened again at once. */
static void killed_caller(unsigned m, int sig)
{
    struct timespec t0, t1;
    int status = 0, fd;
    pid_t pid;
    double secs;

    pid = fork();
    if (pid == 0) {
        struct tks_kmod_run r = base_run(m);
        int cfd = open_dev();
        if (cfd < 0)
            _exit(3);
        r.workload = TKS_KWORK_LOOP;
        r.work_start = loop_n_for(cfd, m, info.tsc_khz * info.section_us / 1000 / 5);
        r.ensembles = 64;
        r.samples = 65536; /* far past max_run_ms (5 s): it must be killed first */
        ioctl(cfd, TKS_IOC_RUN, &r);
        _exit(4); /* reached only if the run returned */
    }
    sleep(2);
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
        check(1, "cpu hotplug not possible here: offline checks skipped");
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
    sleep(1);
    check(set_online(cpu, 0) == 0, "cpu %d taken offline during a run", cpu);
    pthread_join(t, NULL);
    expect_errno(l.err, EAGAIN, "RUN whose cpu went offline");
    check(set_online(cpu, 1) == 0, "cpu %d back online", cpu);
    r = base_run(method);
    r.cpu = cpu;
    good_run(fd, r, "on the cpu that came back", NULL);
}

/* Drop CAP_SYS_RAWIO from this process's effective and permitted sets (root keeps its uid). */
static int drop_rawio(void)
{
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct d[2];

    if (syscall(SYS_capget, &h, d) != 0)
        return -1;
    d[CAP_SYS_RAWIO / 32].effective &= ~(1u << (CAP_SYS_RAWIO % 32));
    d[CAP_SYS_RAWIO / 32].permitted &= ~(1u << (CAP_SYS_RAWIO % 32));
    return (int)syscall(SYS_capset, &h, d);
}

/* Privilege: CAP_SYS_RAWIO at open and at every run, and write access at open. fd is open. */
static void privilege(int fd, unsigned method)
{
    int status = 0, rofd;
    pid_t pid;

    rofd = open(TKS_KMOD_DEVICE, O_RDONLY | O_CLOEXEC);
    check(rofd < 0 && errno == EACCES, "open read-only refused with EACCES: %s",
          rofd < 0 ? strerror(errno) : "opened");
    if (rofd >= 0)
        close(rofd);
    pid = fork();
    if (pid == 0) {
        if (drop_rawio() != 0)
            _exit(2);
        _exit(open_dev() < 0 && errno == EPERM ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "open by root without CAP_SYS_RAWIO refused with EPERM (status 0x%x)", status);
    /* A descriptor opened with the privilege (ours, inherited) is no use to a process that
     * has dropped it. */
    pid = fork();
    if (pid == 0) {
        struct tks_kmod_run r = base_run(method);
        struct tks_kmod_info i;
        if (drop_rawio() != 0)
            _exit(2);
        if (ioctl(fd, TKS_IOC_INFO, &i) != 0) /* INFO only reads the limits */
            _exit(3);
        _exit(ioctl(fd, TKS_IOC_RUN, &r) != 0 && errno == EPERM ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "RUN after dropping CAP_SYS_RAWIO refused with EPERM (status 0x%x)", status);
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
        check(1, "no TSC rate: bound checks skipped");
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
                   (unsigned long long)res.sample_ticks, (unsigned long long)res.reserved[0],
                   (unsigned long long)res.reserved[1], res.elapsed_ns / 1e6);
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
        check(1, "no /sys/power/pm_test (CONFIG_PM_DEBUG): freezer check skipped");
        return;
    }
    memset(&l, 0, sizeof(l));
    l.fd = fd;
    l.r = base_run(method);
    l.r.workload = TKS_KWORK_LOOP;
    l.r.work_start = loop_n_for(fd, method, info.tsc_khz * info.section_us / 1000 / 5);
    l.r.samples = 1000000; /* longer than max_run_ms: it must end early */
    pthread_create(&t, NULL, long_run_thread, &l);
    sleep(1);
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

int main(void)
{
    struct tks_kmod_read rd;
    struct tks_kmod_run r;
    uint64_t small[16];
    unsigned m, p, o, method = 0;
    int fd, fd2, e, c;
    char what[160];

    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open_dev();
    if (fd < 0) {
        check(0, "open %s: %s", TKS_KMOD_DEVICE, strerror(errno));
        printf("ABUSE DONE failed\n");
        return 1;
    }
    check(1, "open");
    /* The device is root's (mode 0600): nobody else may open it, even while it is free. */
    {
        pid_t pid = fork();
        int status = 0;
        if (pid == 0) {
            if (setgid(65534) || setuid(65534))
                _exit(2);
            _exit(open_dev() < 0 && errno == EACCES ? 0 : 1);
        }
        waitpid(pid, &status, 0);
        check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "open as uid 65534 refused with EACCES (status 0x%x)", status);
    }
    fd2 = open_dev();
    check(fd2 < 0 && errno == EBUSY, "second open: %s", fd2 < 0 ? strerror(errno) : "succeeded");
    if (fd2 >= 0)
        close(fd2);

    /* INFO */
    memset(&info, 0xff, sizeof(info));
    e = ioc(fd, TKS_IOC_INFO, &info);
    check(e == 0 && info.abi == TKS_KMOD_ABI && info.methods != 0 &&
              info.total_max == TKS_KMOD_TOTAL_MAX && info.section_us == TKS_KMOD_SECTION_US &&
              info.work_max[TKS_KWORK_EMPTY] == 0 &&
              info.work_max[TKS_KWORK_ADDS] == TKS_KMOD_ADDS_MAX &&
              info.work_max[TKS_KWORK_LOOP] == TKS_KMOD_LOOP_MAX &&
              info.work_max[TKS_KWORK_PROBE] == TKS_KPROBE_COUNT - 1 && info.nr_cpu_ids >= 1 &&
              info.reserved0 == 0 && info.reserved[0] == 0 && info.reserved[2] == 0 &&
              info.max_run_ms == TKS_KMOD_RUN_MS_DEFAULT && info.cr0_refused == 0,
          "INFO: abi %u methods 0x%x total_max %u ensembles_max %u samples_max %u "
          "section_us %u nr_cpu_ids %u tsc_khz %llu",
          info.abi, info.methods, info.total_max, info.ensembles_max, info.samples_max,
          info.section_us, info.nr_cpu_ids, (unsigned long long)info.tsc_khz);
    if (e) {
        printf("ABUSE DONE failed\n");
        return 1;
    }
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        printf("ABUSE INFO method %-9s %s\n", method_name(m),
               (info.methods >> m) & 1 ? "available" : "-");
    check((info.methods >> TKS_METHOD_CR0) & 1, "INFO: cr0 available (ring 0)");
    check(!((info.methods >> TKS_METHOD_ISB) & 1), "INFO: no arm64 methods on x86");
    method = (info.methods >> TKS_METHOD_LFENCE) & 1 ? TKS_METHOD_LFENCE : TKS_METHOD_CPUID;
    expect_errno(ioc(fd, TKS_IOC_INFO, NULL), EFAULT, "INFO NULL");
    expect_errno(ioc(fd, TKS_IOC_INFO, (void *)KERNEL_PTR), EFAULT, "INFO kernel pointer");

    /* Commands that do not exist, or have another size. */
    expect_errno(ioc(fd, _IO(TKS_IOC_MAGIC, 99), NULL), ENOTTY, "unknown ioctl nr");
    expect_errno(ioc(fd, _IOR(TKS_IOC_MAGIC, 1, uint64_t), small), ENOTTY, "INFO with another size");
    expect_errno(ioc(fd, _IOWR(TKS_IOC_MAGIC, 2, struct tks_kmod_read), small), ENOTTY,
                 "RUN with another size");
    expect_errno(ioc(fd, 0x5401 /* TCGETS */, small), ENOTTY, "TCGETS");

    /* READ before any run */
    memset(&rd, 0, sizeof(rd));
    rd.buf = (uintptr_t)small;
    rd.count = 4;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), ENODATA, "READ before any run");

    bad_runs(fd, method);

    /* Every available method (cr0 included), one small run each with adds. */
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        if (!((info.methods >> m) & 1))
            continue;
        r = base_run(m);
        r.workload = TKS_KWORK_ADDS;
        r.ensembles = 5;
        r.samples = 50;
        r.work_step = 50;
        snprintf(what, sizeof(what), "method %s adds 0..200", method_name(m));
        good_run(fd, r, what, NULL);
    }

    /* Every workload with one method, in both ownership modes. */
    for (o = 0; o < TKS_KOWN_COUNT; o++) {
        const char *own = o == TKS_KOWN_IRQ_OFF ? "irq-off" : "preempt-off";
        r = base_run(method);
        r.own = o;
        snprintf(what, sizeof(what), "%s empty", own);
        good_run(fd, r, what, NULL);
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_ADDS;
        r.ensembles = 201;
        r.samples = 4;
        r.work_step = 1;
        snprintf(what, sizeof(what), "%s adds 0..200 every n", own);
        good_run(fd, r, what, NULL);
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_LOOP;
        r.ensembles = 4;
        r.samples = 20;
        r.work_step = 1000;
        snprintf(what, sizeof(what), "%s loop 0..3000", own);
        good_run(fd, r, what, NULL);
        for (p = 0; p < TKS_KPROBE_COUNT; p++) {
            r = base_run(method);
            r.own = o;
            r.workload = TKS_KWORK_PROBE;
            r.work_start = p;
            r.samples = 40;
            snprintf(what, sizeof(what), "%s probe %u", own, p);
            good_run(fd, r, what, NULL);
        }
    }

    /* Every CPU, by number. */
    for (c = 0; c < (int)info.nr_cpu_ids && c < 4; c++) {
        r = base_run(method);
        r.cpu = c;
        r.samples = 100;
        snprintf(what, sizeof(what), "cpu %d", c);
        good_run(fd, r, what, NULL);
    }

    bound(fd, method);
    run_limit(fd, method);
    privilege(fd, method);
    freezer(fd, method);
    offline_cpu(fd, method);

    /* A rejected RUN keeps the last run; FREE drops it, twice is harmless. */
    r = base_run(method);
    good_run(fd, r, "before FREE", NULL);
    r.abi = 0;
    expect_errno(run_errno(fd, r), EPROTO, "RUN rejected");
    memset(&rd, 0, sizeof(rd));
    rd.buf = (uintptr_t)small;
    rd.count = 4;
    check(ioc(fd, TKS_IOC_READ, &rd) == 0 && rd.count == 4, "READ after a rejected RUN");
    rd.reserved = 1;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EINVAL, "READ reserved 1");
    rd.reserved = 0;
    rd.buf = 0;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EFAULT, "READ into NULL");
    rd.buf = KERNEL_PTR;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EFAULT, "READ into the kernel");
    rd.buf = (uintptr_t)small;
    rd.count = 0;
    check(ioc(fd, TKS_IOC_READ, &rd) == 0 && rd.count == 0, "READ of 0 samples");
    rd.first = UINT64_MAX;
    rd.count = 4;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EINVAL, "READ first ~0");
    expect_errno(ioc(fd, TKS_IOC_READ, NULL), EFAULT, "READ NULL");
    expect_errno(ioc(fd, TKS_IOC_READ, (void *)KERNEL_PTR), EFAULT, "READ kernel pointer");
    expect_errno(ioc(fd, TKS_IOC_FREE, NULL), 0, "FREE");
    rd.first = 0;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), ENODATA, "READ after FREE");
    expect_errno(ioc(fd, TKS_IOC_FREE, NULL), 0, "FREE again");

    /* Two threads on one file. */
    {
        struct thread_arg a = { fd, method, 0 }, b = { fd, method, 0 };
        pthread_t ta, tb;
        pthread_create(&ta, NULL, hammer, &a);
        pthread_create(&tb, NULL, hammer, &b);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        check(a.errors == 0 && b.errors == 0, "two threads, 40 runs on one file: %d errors",
              a.errors + b.errors);
    }

    /* A run left in the buffer is freed by close. */
    r = base_run(method);
    good_run(fd, r, "left for close", NULL);
    close(fd);

    killed_caller(method, SIGKILL);
    killed_caller(method, SIGTERM);

    printf("ABUSE RESULT %d passed, %d failed\n", passes, failures);
    printf("ABUSE DONE %s\n", failures ? "failed" : "ok");
    return failures ? 1 : 0;
}
