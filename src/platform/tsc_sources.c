/* SPDX-License-Identifier: MIT */
/* tsc_sources.c: every TSC rate the machine declares: CPUID leaves 0x15 and 0x16 (Intel), the
 * hypervisor's leaf 0x40000010, the kernel's cycles-to-nanoseconds factors and its log, and
 * CNTFRQ_EL0 on arm64. None is measured here; platform.c weighs them against the measurement. */
#include "platform/tsc_sources.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/perf_event.h>
#endif

#include "arch/arch.h"
#include "base/procfs.h"

#define KMSG_MAX (1u << 20)

static size_t add(tks_hz_reading *out, size_t have, size_t max, enum tks_hz_source s, double hz,
                  const char *detail)
{
    if (have >= max || !(hz > 0))
        return have;
    out[have].source = s;
    out[have].hz = hz;
    snprintf(out[have].detail, sizeof out[have].detail, "%s", detail);
    return have + 1;
}

/* A damaged or forged log line ("Detected 9E2300 MHz", "inf MHz") must not become the rate: a TSC
 * runs between a few MHz and, with a wide margin, 100 GHz. */
static int plausible_mhz(double mhz)
{
    return mhz >= 1 && mhz <= 1e5;
}

int tks__parse_kernel_log_tsc(const char *log, double *hz, int *refined)
{
    static const char detected[] = "tsc: Detected ";
    static const char refined_text[] = "tsc: Refined TSC clocksource calibration: ";
    const char *p;
    double mhz, best = 0;
    int best_refined = 0;
    if (!log)
        return 0;
    for (p = log; (p = strstr(p, "tsc: ")) != NULL; p++) {
        if (strncmp(p, refined_text, sizeof refined_text - 1) == 0 &&
            sscanf(p + sizeof refined_text - 1, "%lf MHz", &mhz) == 1 && plausible_mhz(mhz)) {
            best = mhz;
            best_refined = 1;
        } else if (!best_refined && strncmp(p, detected, sizeof detected - 1) == 0 &&
                   sscanf(p + sizeof detected - 1, "%lf MHz", &mhz) == 1 && plausible_mhz(mhz))
            best = mhz;
    }
    if (!(best > 0))
        return 0;
    *hz = best * 1e6;
    *refined = best_refined;
    return 1;
}

/* /dev/kmsg hands out one record per read() and EAGAIN at the end; a fixture is a plain file. */
static char *read_kernel_log(const char *root)
{
    char path[4096], *buf;
    size_t len = 0;
    int fd;
    if (tks__proc_path(path, sizeof path, root, "/dev/kmsg") || !(buf = malloc(KMSG_MAX + 1)))
        return NULL;
    if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
        free(buf);
        return NULL;
    }
    while (len < KMSG_MAX) {
        ssize_t got = read(fd, buf + len, KMSG_MAX - len);
        if (got > 0)
            len += (size_t)got;
        else if (got < 0 && errno == EINTR)
            continue;
        else if (got < 0 && errno == EPIPE) /* records overwritten while reading: skip ahead */
            continue;
        else
            break;
    }
    close(fd);
    buf[len] = 0;
    return buf;
}

static size_t from_kernel_log(const char *root, tks_hz_reading *out, size_t have, size_t max)
{
    char detail[96];
    double hz;
    int refined;
    char *log = read_kernel_log(root);
    if (log && tks__parse_kernel_log_tsc(log, &hz, &refined)) {
        snprintf(detail, sizeof detail, "kernel log: \"%s %.3f MHz\"",
                 refined ? "Refined TSC clocksource calibration:" : "Detected", hz / 1e6);
        have = add(out, have, max, TKS_HZ_LINUX_LOG, hz, detail);
    }
    free(log);
    return have;
}

/* The kernel publishes the factors it converts TSC cycles to nanoseconds with in the perf_event
 * mmap page (time_mult, time_shift), when it trusts the TSC as its own clock. */
static size_t from_perf_page(tks_hz_reading *out, size_t have, size_t max)
{
#if defined(__linux__)
    struct perf_event_attr a;
    struct perf_event_mmap_page *pg;
    long page = sysconf(_SC_PAGESIZE);
    int fd;
    if (!tks__arch_hz_offered(TKS_HZ_LINUX_PERF))
        return have; /* the page's factors describe another clock than the one tickscope reads */
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_DUMMY;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return have;
    pg = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
    if (pg != MAP_FAILED) {
        if (pg->cap_user_time && pg->time_mult) {
            char detail[96];
            double hz = 1e9 * (double)(1ull << pg->time_shift) / (double)pg->time_mult;
            snprintf(detail, sizeof detail, "perf_event page: time_mult %u, time_shift %u",
                     (unsigned)pg->time_mult, (unsigned)pg->time_shift);
            have = add(out, have, max, TKS_HZ_LINUX_PERF, hz, detail);
        }
        munmap(pg, (size_t)page);
    }
    close(fd);
#else
    (void)out;
    (void)max;
#endif
    return have;
}

/* What the CPU declares itself (CPUID leaves; CNTFRQ_EL0 on arm64): arch/. */
static size_t from_cpu(tks_hz_reading *out, size_t have, size_t max)
{
    tks_hz_reading r[TKS_HZ_SOURCE_COUNT];
    size_t n = tks__arch_hz_declared(tks_cpu_features_get(), r, TKS_HZ_SOURCE_COUNT);
    for (size_t i = 0; i < n; i++)
        have = add(out, have, max, r[i].source, r[i].hz, r[i].detail);
    return have;
}

size_t tks__tsc_declared(const char *root, tks_hz_reading *out, size_t max)
{
    size_t have = 0;
    if (!out)
        return 0;
    have = from_perf_page(out, have, max);
    have = from_kernel_log(root, out, have, max);
    have = from_cpu(out, have, max);
    return have;
}
