/* SPDX-License-Identifier: MIT */
/* cpu_truth.h: what the CPU itself says it has, read with the compiler's <cpuid.h> and never
 * through the library under test, so that a test's expectations (and its "hardware" skips) follow
 * the machine, not the code. A regression that made tks_method_default() pick an unfenced method,
 * or none, then fails the tests instead of turning them into accepted skips.
 *
 * The rule restated here is the one docs/methods.md gives: a method fenced at both ends needs
 * LFENCE (SSE2) to be dispatch-serialising, which Intel's SDM guarantees and AMD says in CPUID
 * 0x80000021 EAX[2] ("LFENCE is always dispatch serializing", AMD APM vol. 3, CPUID Fn8000_0021);
 * with it the default is LFENCE; RDTSC; LFENCE ... RDTSCP; LFENCE ("lfence"), or LFENCE at both
 * ends where there is no RDTSCP (CPUID 0x80000001 EDX[27]) ("lfence_rdtsc"); without it only
 * end-fenced methods remain: "rdtscp" where RDTSCP exists, else "cpuid". On arm64 "isb". */
#ifndef TKS_TEST_CPU_TRUTH_H
#define TKS_TEST_CPU_TRUTH_H

#include <errno.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

struct cpu_truth {
    int x86, arm64;
    int sse2, rdtscp, lfence_serialising;
    const char *default_method; /* what tks_method_default() must name on this CPU */
    int fenced_both;            /* that method is fenced at both ends */
};

static inline void cpu_truth_get(struct cpu_truth *t)
{
    memset(t, 0, sizeof *t);
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0, max = 0, max_ext = 0;
    int intel, amd;
    t->x86 = 1;
    __cpuid(0, max, b, c, d);
    intel = b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu; /* GenuineIntel */
    amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;   /* AuthenticAMD */
    if (max >= 1) {
        __cpuid(1, a, b, c, d);
        t->sse2 = (d >> 26) & 1;
    }
    __cpuid(0x80000000u, max_ext, b, c, d);
    if (max_ext >= 0x80000001u) {
        __cpuid(0x80000001u, a, b, c, d);
        t->rdtscp = (d >> 27) & 1;
    }
    if (intel)
        t->lfence_serialising = t->sse2;
    else if (amd && max_ext >= 0x80000021u) {
        __cpuid(0x80000021u, a, b, c, d);
        t->lfence_serialising = t->sse2 && ((a >> 2) & 1);
    }
    if (t->lfence_serialising) {
        t->default_method = t->rdtscp ? "lfence" : "lfence_rdtsc";
        t->fenced_both = 1;
    } else {
        t->default_method = t->rdtscp ? "rdtscp" : "cpuid";
    }
#elif defined(__aarch64__)
    t->arm64 = 1;
    t->default_method = "isb";
    t->fenced_both = 1;
#else
    t->default_method = "";
#endif
}

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* What perf_event_open answers for a software event (page faults) of this process, asked directly:
 * "ok", or the errno's name ("ENOSYS": QEMU user mode, a kernel without perf events; "EACCES",
 * "EPERM": a policy refuses it; "other"). */
static inline const char *cpu_truth_perf_software(void)
{
#if defined(__linux__) && defined(SYS_perf_event_open)
    struct perf_event_attr a;
    long fd;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_PAGE_FAULTS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd >= 0) {
        close((int)fd);
        return "ok";
    }
    return errno == ENOSYS ? "ENOSYS" : errno == EACCES ? "EACCES" : errno == EPERM ? "EPERM" : "other";
#else
    return "ENOSYS";
#endif
}

#endif
