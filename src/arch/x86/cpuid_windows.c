/* SPDX-License-Identifier: MIT */
/* x86/cpuid_windows.c: windows around one CPUID and empty ones, for platform/cpuid_cost.c. Compiled
 * like every measurement loop: optimised and never instrumented (CMakeLists.txt). */
#include "arch/arch.h"

int tks__arch_cpuid_windows(uint64_t *empty, uint64_t *with, unsigned n, int end_rdtscp)
{
    tks_u32 aux;
    /* The first method's end is RDTSCP: on a CPU without it (QEMU's qemu64, Conroe) the windows
     * close with the begin reading instead, fenced on both sides, the same in both kinds. */
    if (!end_rdtscp) {
        for (unsigned i = 0; i < n; i++) {
            uint64_t t0 = tks__begin_first();
            uint64_t t1 = tks__begin_first();
            uint64_t t2 = tks__begin_first();
            tks__cpuid_barrier();
            uint64_t t3 = tks__begin_first();
            empty[i] = t1 - t0;
            with[i] = t3 - t2;
        }
        return 0;
    }
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
