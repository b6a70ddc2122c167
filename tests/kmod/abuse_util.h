/* SPDX-License-Identifier: MIT */
/* abuse_util.h: what the programs that drive /dev/tickscope in the test VM share: checks that
 * print "ABUSE PASS"/"ABUSE FAIL", a request's errno, valid runs with their samples read back and
 * the interrupts-off bound judged, and the module's parameters. */
#ifndef TKS_TESTS_KMOD_ABUSE_UTIL_H
#define TKS_TESTS_KMOD_ABUSE_UTIL_H

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
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tickscope/clock.h"
#include "tickscope/kmod.h"

static int failures, passes;
static struct tks_kmod_info info;
/* The last good run's longest sample and sum of samples (one_run). */
static uint64_t last_longest, last_sum;

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

static inline void check(int ok, const char *fmt, ...)
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
static inline int ioc(int fd, unsigned long cmd, void *arg)
{
    return ioctl(fd, cmd, arg) == 0 ? 0 : errno;
}

/* A check that could not run here: "ABUSE SKIP", which run_qemu.sh fails on (the VM it boots
 * has everything these checks need; a skip means something broke). */
static inline void skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("ABUSE SKIP ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

static inline void expect_errno(int got, int want, const char *what)
{
    check(got == want, "%s: %s (want %s)", what, got ? strerror(got) : "success",
          want ? strerror(want) : "success");
}

static inline const char *method_name(unsigned m)
{
    const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
    return mi ? mi->name : "?";
}

static inline struct tks_kmod_run base_run(unsigned method)
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

static inline int run_errno(int fd, struct tks_kmod_run r)
{
    return ioc(fd, TKS_IOC_RUN, &r);
}

/* Reads the whole last run in chunks of `chunk`, checks the chunking and that every slot was
 * written (the poison is gone) and is plausible (below ten seconds of TSC). */
static inline int read_all(int fd, uint64_t total, uint32_t chunk, uint64_t *out,
                           const char *what,
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
 * interrupts-off section ran past the bound plus the slack. 0, -1 on a failure, 1 for a snippet
 * run the module's watchdog ended (ETIME: to be taken again). */
static inline int one_run(int fd, struct tks_kmod_run r, const char *what,
                          struct tks_kmod_run *result,
                   int *excess)
{
    uint64_t total = (uint64_t)r.ensembles * r.samples;
    uint64_t bound = info.tsc_khz * info.section_us / 1000;
    uint64_t *buf, sum = 0, longest = 0;
    int cpu = r.cpu, e;

    e = ioc(fd, TKS_IOC_RUN, &r);
    if (e == ETIME && r.workload == TKS_KWORK_SNIPPET) {
        /* Under TCG on a loaded host a call can stall past the module's 100 ms (the guest's
         * clock follows the host's), and the NMI then ends it: good_run takes it again. */
        printf("ABUSE NOTE %s: ETIME (a call stalled for %u ms)\n", what, TKS_KMOD_ESCAPE_MS);
        *excess = 1;
        return 1;
    }
    if (e) {
        check(0, "%s: RUN failed: %s", what, strerror(e));
        return -1;
    }
    check(r.sections >= r.ensembles && r.section_max_ticks > 0 && r.elapsed_ns > 0 &&
              r.cpu_used >= 0 && (uint32_t)r.cpu_used < info.nr_cpu_ids &&
              (cpu < 0 || r.cpu_used == cpu) && r.fault_where == 0,
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
    if (!e && !info.tsc_khz)
        skip("%s: no TSC rate: the samples' sum is not held to the bound", what);
    if (!e && info.tsc_khz)
        check(sum < r.sections * (bound + longest),
              "%s: %llu ticks of samples in %llu sections of at most %llu + %llu ticks", what,
              (unsigned long long)sum, (unsigned long long)r.sections,
              (unsigned long long)bound, (unsigned long long)longest);
    /* The hard bound: no stretch with interrupts off longer than the bound (plus the
     * emulator's slack) and the sample that crossed it, and no sample alone longer than the
     * bound (the module's probe). The module checks the bound after each sample, so a section
     * is at most the bound and one sample. The longest sample read back stands for that one:
     * under TCG on a loaded host QEMU's thread loses its CPU for milliseconds, and the guest's
     * clock, which follows the host's, stretches the sample it lands in (a CI run beside two
     * other jobs: sections of 5.5 to 11.9 ms against 1 ms, three tries running); a module that
     * ignored the bound runs a whole ensemble, many samples, in one section. With preemption off
     * (interrupts on) the same: an interrupt lands inside a sample, which the allowance of one
     * sample covers. */
    *excess = !e && info.tsc_khz &&
              (r.section_max_ticks > bound * (1 + BOUND_SLACK) + longest ||
               r.sample_ticks > bound);
    if (*excess)
        printf("ABUSE NOTE %s: longest %s section %llu ticks, probe %llu, longest "
               "sample %llu, bound %llu (+%.0f%%)\n", what,
               r.own == TKS_KOWN_IRQ_OFF ? "interrupts-off" : "preemption-off",
               (unsigned long long)r.section_max_ticks, (unsigned long long)r.sample_ticks,
               (unsigned long long)longest, (unsigned long long)bound, BOUND_SLACK * 100);
    if (result)
        *result = r;
    last_longest = longest; /* for the caller's report */
    last_sum = sum;
    return e;
}

/* A run past the bound is taken again: under TCG a host that deschedules the emulator for a
 * moment stretches one guest section, and that does not happen three times running, where a
 * module that does not cut its sections fails every time. */
static inline int good_run(int fd, struct tks_kmod_run r, const char *what,
                           struct tks_kmod_run *result)
{
    uint64_t bound = info.tsc_khz * info.section_us / 1000;
    int tries, e = 0, excess = 0;

    for (tries = 0; tries < 3; tries++) {
        e = one_run(fd, r, what, result, &excess);
        if (e < 0 || !excess)
            break;
    }
    if (e == 1) {
        check(0, "%s: ended by the module's watchdog (ETIME) three times", what);
        return -1;
    }
    if (!e && !info.tsc_khz)
        skip("%s: no TSC rate: interrupts-off sections not held to the bound", what);
    /* Both ownership modes: preemption off is held to the same bound as interrupts off. */
    if (!e && info.tsc_khz)
        check(!excess, "%s: %s sections within %llu ticks + %.0f%% and one sample (%d tries)",
              what, r.own == TKS_KOWN_IRQ_OFF ? "interrupts-off" : "preemption-off",
              (unsigned long long)bound, BOUND_SLACK * 100, tries + (tries < 3));
    return e;
}

static inline int open_dev(void)
{
    return open(TKS_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
}

/* The device opened by a test program whose last line begins with done ("PRIVILEGE DONE"): its
 * descriptor, or -1 once the failed check and "<done> failed" are printed. */
static inline int open_dev_or_done(const char *done)
{
    int fd = open_dev();
    if (fd < 0) {
        check(0, "open %s: %s", TKS_KMOD_DEVICE, strerror(errno));
        printf("%s failed\n", done);
    }
    return fd;
}

/* The clock method of a test's requests, from INFO: lfence where the module offers it, else
 * cpuid. */
static inline unsigned info_method(void)
{
    return (info.methods >> TKS_METHOD_LFENCE) & 1 ? TKS_METHOD_LFENCE : TKS_METHOD_CPUID;
}

/* One of the module's parameters, through sysfs; 0 when the write worked. */
static inline int set_param(const char *name, unsigned value)
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

/* Waits (up to 10 s) until a run is in progress (present 1) or none is (0): the module's kernel
 * thread ("tickscope/<cpu>") exists from just before a run's first section until it has
 * finished. 0 when so. An event, not a sleep: a sleep can end before the run has started and
 * then test nothing. */
static inline int wait_run(int present)
{
    int tries;

    for (tries = 0; tries < 10000; tries++) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        int seen = 0;

        while (d && !seen && (e = readdir(d)) != NULL) {
            char path[300], comm[64] = "";
            FILE *f;

            if (e->d_name[0] < '1' || e->d_name[0] > '9')
                continue;
            snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
            if ((f = fopen(path, "r")) != NULL) {
                seen = fgets(comm, sizeof(comm), f) && !strncmp(comm, "tickscope/", 10);
                fclose(f);
            }
        }
        if (d)
            closedir(d);
        if (seen == present)
            return 0;
        usleep(1000);
    }
    return -1;
}

/* The measured_loop(n) whose one sample takes about target ticks here, from the module's own
 * probe of n = 1000 (emulated CPUs are a hundred times slower than real ones). */
static inline uint32_t loop_n_for(int fd, unsigned method, uint64_t target)
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

#endif /* TKS_TESTS_KMOD_ABUSE_UTIL_H */
