/* SPDX-License-Identifier: MIT */
/* cpuid_cost.c: what one CPUID costs, in ticks. Under a hypervisor CPUID always traps (thousands
 * of ticks), which is why the white paper's CPUID-fenced methods fail in virtual machines. */
#include <string.h>

#include "arch/arch.h"
#include "stats/sort.h"
#include "tickscope.h"

#define CPUID_SAMPLES 101u

int tks_cpuid_cost_measure(tks_cpuid_cost *out)
{
    uint64_t empty[CPUID_SAMPLES], with[CPUID_SAMPLES];
    double base;
    int rc;
    if (!out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    if (!tks__begin_first_available(tks_cpu_features_get()))
        return TKS_EUNAVAIL;
    rc = tks__arch_cpuid_windows(empty, with, CPUID_SAMPLES, tks_cpu_features_get()->rdtscp);
    if (rc != 0)
        return rc;
    tks__sort_u64(empty, CPUID_SAMPLES);
    tks__sort_u64(with, CPUID_SAMPLES);
    base = (double)empty[0];
    out->min_ticks = (double)with[0] - base;
    out->median_ticks = (double)with[CPUID_SAMPLES / 2] - base;
    out->traps = out->median_ticks > TKS_CPUID_TRAP_TICKS;
    out->available = 1;
    return TKS_OK;
}
