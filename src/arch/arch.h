/* SPDX-License-Identifier: MIT */
/* arch.h: what the library does differently on each architecture, as functions that each folder
 * of src/arch/ (x86/, arm64/) implements; the build compiles only the folder of its target
 * (CMakeLists.txt). The clock reads themselves, the feature probe and the methods are in the
 * public tickscope/clock.h; the add chain, which the kernel module shares, in add_chain.h. */
#ifndef TKS_ARCH_ARCH_H
#define TKS_ARCH_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "arch/add_chain.h"
#include "tickscope/platform_types.h"

/* The architecture as result files name it: "x86_64", "i386" or "arm64". */
const char *tks__arch_name(void);

/* What the feature probe found (tks_cpu_features_probe), as one line for people: "invariant TSC
 * yes, RDTSCP yes, ..." on x86, the generic timer's frequency on arm64. */
void tks__arch_features_text(const struct tks_cpu_features *f, char *buf, size_t size);

/* Vendor, brand, family, model, stepping and the hypervisor into id, which the caller zeroed
 * (CPUID on x86, /proc/cpuinfo on arm64). */
void tks__arch_identify(tks_cpu_identity *id, const struct tks_cpu_features *f);

/* 1 if a rate of source s can exist on this architecture (tickscope info lists those of them it
 * did not find), 0 if not (CPUID leaves on arm64, CNTFRQ on x86). */
int tks__arch_hz_offered(enum tks_hz_source s);
/* The rates the CPU declares itself, at most max, into out; how many. x86: CPUID leaves 0x15
 * and 0x16 and the hypervisor's 0x40000010, each where it says something; arm64: CNTFRQ_EL0. */
size_t tks__arch_hz_declared(const struct tks_cpu_features *f, tks_hz_reading *out, size_t max);

/* n empty windows of the first method (tks__begin_first) and n windows around one CPUID,
 * interleaved so both see the same machine, in ticks. TKS_EUNAVAIL where there is no CPUID
 * (arm64); the caller checked that the first method's begin reading is available. end_rdtscp:
 * the CPU has RDTSCP, and the first method's end reading closes the windows; else (x86 without
 * RDTSCP, where that reading is #UD) its begin reading, fenced on both sides, does. */
int tks__arch_cpuid_windows(uint64_t *empty, uint64_t *with, unsigned n, int end_rdtscp);

/* The hardware cycle counter read from user space without a system call (x86: RDPMC under the
 * seqlock of the perf_event page). tks__arch_counter_open maps the page of perf_event fd when
 * it needs it (*page, *page_size: the caller unmaps a page that is not NULL) and returns the
 * read, or NULL with *why naming what is missing (the caller then uses read()). */
struct perf_event_mmap_page;
typedef uint64_t tks__counter_read_fn(volatile struct perf_event_mmap_page *page);
tks__counter_read_fn *tks__arch_counter_open(int fd, volatile struct perf_event_mmap_page **page,
                                             size_t *page_size, const char **why);

#endif
