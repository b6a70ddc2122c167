/* SPDX-License-Identifier: MIT */
/* cpuid_cost.c: what one CPUID costs, in ticks. Under a hypervisor CPUID always traps (thousands
 * of ticks), which is why the white paper's CPUID-fenced methods fail in virtual machines. */
#include <string.h>

#include "stats/sort.h"
#include "tickscope.h"

#define CPUID_SAMPLES 101u

#if defined(TKS_ARCH_X86)
/* Empty lfence windows and windows around one CPUID, interleaved so both see the same machine. */
static void take(uint64_t *empty, uint64_t *with)
{
    tks_u32 aux;
    for (unsigned i = 0; i < CPUID_SAMPLES; i++) {
        uint64_t t0 = tks_begin_lfence();
        uint64_t t1 = tks_end_lfence(&aux);
        uint64_t t2 = tks_begin_lfence();
        tks__cpuid_barrier();
        uint64_t t3 = tks_end_lfence(&aux);
        empty[i] = t1 - t0;
        with[i] = t3 - t2;
    }
}
#endif

int tks_cpuid_cost_measure(tks_cpuid_cost *out)
{
    if (!out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
#if defined(TKS_ARCH_X86)
    uint64_t empty[CPUID_SAMPLES], with[CPUID_SAMPLES];
    double base;
    if (!tks_method_available(TKS_METHOD_LFENCE, tks_cpu_features_get()))
        return TKS_EUNAVAIL;
    take(empty, with);
    tks__sort_u64(empty, CPUID_SAMPLES);
    tks__sort_u64(with, CPUID_SAMPLES);
    base = (double)empty[0];
    out->min_ticks = (double)with[0] - base;
    out->median_ticks = (double)with[CPUID_SAMPLES / 2] - base;
    out->traps = out->median_ticks > TKS_CPUID_TRAP_TICKS;
    out->available = 1;
    return TKS_OK;
#else
    return TKS_EUNAVAIL;
#endif
}
