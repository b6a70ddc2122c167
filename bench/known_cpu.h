/* SPDX-License-Identifier: MIT */
/* known_cpu.h: the CPUs whose instruction costs the benches compare against published figures
 * (bench_asm, bench_trust), from CPUID's vendor, family and model. Any other CPU gets no target. */
#ifndef TKS_BENCH_KNOWN_CPU_H
#define TKS_BENCH_KNOWN_CPU_H

#include <string.h>

#include "tickscope.h"

enum cpu { CPU_OTHER, CPU_ZEN4, CPU_ZEN5, CPU_GOLDEN_COVE };

static inline enum cpu which_cpu(const tks_cpu_identity *id, const char **name)
{
    if (strcmp(id->vendor, "AuthenticAMD") == 0 && id->family == 0x19 &&
        ((id->model >= 0x10 && id->model <= 0x1f) || (id->model >= 0x60 && id->model <= 0xaf))) {
        *name = "AMD Zen 4";
        return CPU_ZEN4;
    }
    if (strcmp(id->vendor, "AuthenticAMD") == 0 && id->family == 0x1a) {
        *name = "AMD Zen 5";
        return CPU_ZEN5;
    }
    /* Golden Cove and its server and refresh relatives: Alder Lake P, Sapphire and Emerald
     * Rapids, Raptor Lake P. */
    if (strcmp(id->vendor, "GenuineIntel") == 0 && id->family == 6 &&
        (id->model == 0x97 || id->model == 0x9a || id->model == 0x8f || id->model == 0xcf ||
         id->model == 0xb7 || id->model == 0xba || id->model == 0xbf)) {
        *name = "Intel Golden Cove family";
        return CPU_GOLDEN_COVE;
    }
    *name = "this CPU";
    return CPU_OTHER;
}

#endif
