/* SPDX-License-Identifier: MIT */
/* identity.c: who made this CPU and what it is called: vendor, brand string, family/model/stepping and
 * the hypervisor's vendor leaf, from CPUID on x86 and from the kernel on arm64 (arch/), and how
 * many logical CPUs are online. */
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "tickscope.h"

int tks_cpu_identity_probe(tks_cpu_identity *id)
{
    long online;
    if (!id)
        return TKS_EINVAL;
    memset(id, 0, sizeof *id);
    tks__arch_identify(id, tks_cpu_features_get());
    online = sysconf(_SC_NPROCESSORS_ONLN);
    id->logical_cpus = online > 0 ? (int)online : 0;
    return TKS_OK;
}
