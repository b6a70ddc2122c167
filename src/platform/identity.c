/* SPDX-License-Identifier: MIT */
/* identity.c: who made this CPU and what it is called: vendor, brand string, family/model/stepping and
 * the hypervisor's vendor leaf, from CPUID on x86 and from the kernel on arm64 (arch/), and how
 * many logical CPUs are online. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "method/cpu_override.h"
#include "tickscope.h"

int tks_cpu_identity_probe(tks_cpu_identity *id)
{
    const tks__cpu_override *o = tks__cpu_override_get();
    long online;
    if (!id)
        return TKS_EINVAL;
    memset(id, 0, sizeof *id);
    tks__arch_identify(id, tks_cpu_features_get());
    /* TKS_CPU_FEATURES: the vendor came with the features; family and model here, and the
     * brand says so, so that no output shows another CPU's identity as this one's. */
    if (o->active) {
        /* The override's own hash in the mark: the calibration cache's key holds the brand, so
         * no run under one override reuses another's (or the real CPU's) calibration. */
        char brand[sizeof id->brand];
        uint32_t h = 2166136261u;
        for (const char *c = o->text; *c; c++)
            h = (h ^ (unsigned char)*c) * 16777619u;
        if (o->family >= 0)
            id->family = (unsigned)o->family;
        if (o->model >= 0)
            id->model = (unsigned)o->model;
        snprintf(brand, sizeof brand, "%s", id->brand);
        snprintf(id->brand, sizeof id->brand, "(TKS_CPU_FEATURES %08x) %.*s", (unsigned)h,
                 (int)(sizeof id->brand - sizeof "(TKS_CPU_FEATURES 01234567) "), brand);
    }
    online = sysconf(_SC_NPROCESSORS_ONLN);
    id->logical_cpus = online > 0 ? (int)online : 0;
    return TKS_OK;
}
