/* SPDX-License-Identifier: MIT */
/* x86/cpuid_windows.c: windows around one CPUID and empty ones, for platform/cpuid_cost.c. Compiled
 * like every measurement loop: optimised and never instrumented (CMakeLists.txt). */
#include "arch/arch.h"

int tks__arch_cpuid_windows(uint64_t *empty, uint64_t *with, unsigned n)
{
    tks_u32 aux;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = tks__begin_first();
        uint64_t t1 = tks__end_first(&aux);
        uint64_t t2 = tks__begin_first();
        tks__cpuid_barrier();
        uint64_t t3 = tks__end_first(&aux);
        empty[i] = t1 - t0;
        with[i] = t3 - t2;
    }
    return 0;
}
