/* SPDX-License-Identifier: MIT */
/* arm64/cpu.c: the CPU as the kernel describes it (there is no brand string), the generic
 * timer's declared frequency, and what arm64 does not have: CPUID, a user-space cycle counter
 * read in this build. */
#include <stdio.h>

#include "arch/arch.h"
#include "tickscope/common.h"

const char *tks__arch_name(void)
{
    return "arm64";
}

void tks__arch_features_text(const struct tks_cpu_features *f, char *buf, size_t size)
{
    snprintf(buf, size, "generic timer CNTVCT_EL0 at %llu Hz", (unsigned long long)f->counter_hz);
}

/* arm64 Linux lists the implementer and part in /proc/cpuinfo. */
void tks__arch_identify(tks_cpu_identity *id, const struct tks_cpu_features *f)
{
    char line[256];
    unsigned v;
    FILE *in = fopen("/proc/cpuinfo", "r");
    (void)f;
    if (!in)
        return;
    while (fgets(line, sizeof line, in)) {
        if (sscanf(line, "CPU implementer : %x", &v) == 1 && !id->vendor[0])
            snprintf(id->vendor, sizeof id->vendor, "%s", v == 0x41 ? "ARM" : v == 0x61 ? "Apple"
                                                         : v == 0x51 ? "Qualcomm" : "arm64");
        else if (sscanf(line, "CPU architecture: %u", &v) == 1 && !id->family)
            id->family = v;
        else if (sscanf(line, "CPU part : %x", &v) == 1 && !id->model)
            id->model = v;
        else if (sscanf(line, "CPU revision : %u", &v) == 1 && !id->stepping)
            id->stepping = v;
    }
    fclose(in);
    snprintf(id->brand, sizeof id->brand, "%s part 0x%03x", id->vendor[0] ? id->vendor : "arm64",
             id->model);
}

int tks__arch_hz_offered(enum tks_hz_source s)
{
    return s != TKS_HZ_CPUID_15 && s != TKS_HZ_CPUID_16 && s != TKS_HZ_HYPERVISOR &&
           s != TKS_HZ_LINUX_PERF;
}

size_t tks__arch_hz_declared(const struct tks_cpu_features *f, tks_hz_reading *out, size_t max)
{
    if (max == 0 || f->counter_hz == 0)
        return 0;
    out->source = TKS_HZ_CNTFRQ;
    out->hz = (double)f->counter_hz;
    snprintf(out->detail, sizeof out->detail, "%s",
             "CNTFRQ_EL0: the generic timer's frequency as firmware set it");
    return 1;
}

int tks__arch_cpuid_windows(uint64_t *empty, uint64_t *with, unsigned n, int end_rdtscp)
{
    (void)empty, (void)with, (void)n, (void)end_rdtscp;
    return TKS_EUNAVAIL; /* no CPUID */
}

tks__counter_read_fn *tks__arch_counter_open(int fd, volatile struct perf_event_mmap_page **page,
                                             size_t *page_size, const char **why)
{
    (void)fd;
    *page = NULL;
    *page_size = 0;
    *why = "no user-space counter read on arm64 in this build";
    return NULL;
}
