/* SPDX-License-Identifier: MIT */
/* tickscope/platform_types.h: what the machine is, as types only (the CPU's identity, where a
 * TSC rate came from): tickscope/platform.h includes it, and the per-architecture code that fills
 * them (src/arch/) can know them without depending on the platform layer. */
#ifndef TICKSCOPE_PLATFORM_TYPES_H
#define TICKSCOPE_PLATFORM_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CPU identity from CPUID (x86) or the kernel (arm64). */
typedef struct tks_cpu_identity {
    char vendor[16];               /* "GenuineIntel", "AuthenticAMD", "" when unknown */
    char brand[64];                /* brand string, spaces trimmed */
    unsigned family, model, stepping; /* display family and model (extended fields folded in) */
    int hypervisor;                /* CPUID.1:ECX[31] */
    char hypervisor_vendor[16];    /* leaf 0x40000000: "KVMKVMKVM", "Microsoft Hv", ... */
    uint32_t hypervisor_max_leaf;
    int logical_cpus;              /* online CPUs */
} tks_cpu_identity;

/* Where a TSC rate came from. */
enum tks_hz_source {
    TKS_HZ_OVERRIDE,    /* given by the user (--tsc-hz) */
    TKS_HZ_MEASURED,    /* least squares against CLOCK_MONOTONIC_RAW */
    TKS_HZ_LINUX_PERF,  /* the kernel's own cycles-to-ns factors (perf_event mmap page) */
    TKS_HZ_LINUX_LOG,   /* the kernel log's "tsc: Detected / Refined ... MHz" */
    TKS_HZ_CPUID_15,    /* Intel: crystal clock x TSC/crystal ratio (leaf 0x15) */
    TKS_HZ_HYPERVISOR,  /* hypervisor leaf 0x40000010: TSC kHz */
    TKS_HZ_CPUID_16,    /* Intel: processor base frequency (leaf 0x16), nominal */
    TKS_HZ_CNTFRQ,      /* arm64: CNTFRQ_EL0, the generic timer's frequency */
    TKS_HZ_SOURCE_COUNT
};

/* One TSC rate and where it came from. */
typedef struct tks_hz_reading {
    enum tks_hz_source source;
    double hz;
    char detail[96];           /* how it was obtained */
} tks_hz_reading;

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_PLATFORM_TYPES_H */
