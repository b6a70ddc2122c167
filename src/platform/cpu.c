/* SPDX-License-Identifier: MIT */
/* cpu.c: who made this CPU and what it is called: vendor, brand string, family/model/stepping and
 * the hypervisor's vendor leaf, from CPUID on x86 and from the kernel on arm64. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tickscope.h"

#if defined(TKS_ARCH_X86)

static void trim_spaces(char *s)
{
    size_t n = strlen(s), lead = 0;
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    while (isspace((unsigned char)s[lead]))
        lead++;
    memmove(s, s + lead, n - lead + 1);
}

static void regs_to_text(const tks_u32 *regs, int count, char *out)
{
    for (int r = 0; r < count; r++)
        for (int b = 0; b < 4; b++)
            out[4 * r + b] = (char)(regs[r] >> (8 * b));
    out[4 * count] = 0;
}

static void identify_x86(tks_cpu_identity *id, const struct tks_cpu_features *f)
{
    tks_u32 r[4];
    snprintf(id->vendor, sizeof id->vendor, "%s", f->vendor);
    if (f->max_leaf >= 1) {
        unsigned base_family, base_model;
        tks_cpuid(1, 0, r);
        id->stepping = r[0] & 0xf;
        base_model = (r[0] >> 4) & 0xf;
        base_family = (r[0] >> 8) & 0xf;
        /* SDM "display family/model": the extended fields count only for families 6 and 15. */
        id->family = base_family == 0xf ? base_family + ((r[0] >> 20) & 0xff) : base_family;
        id->model = base_family == 6 || base_family == 0xf
                        ? base_model + (((r[0] >> 16) & 0xf) << 4) : base_model;
    }
    if (f->max_ext_leaf >= 0x80000004u) {
        tks_u32 b[12];
        for (unsigned i = 0; i < 3; i++)
            tks_cpuid(0x80000002u + i, 0, b + 4 * i);
        regs_to_text(b, 12, id->brand);
        trim_spaces(id->brand);
    }
    id->hypervisor = f->hypervisor;
    if (f->hypervisor) {
        tks_u32 v[3];
        tks_cpuid(0x40000000u, 0, r);
        v[0] = r[1], v[1] = r[2], v[2] = r[3];
        regs_to_text(v, 3, id->hypervisor_vendor);
        trim_spaces(id->hypervisor_vendor);
        id->hypervisor_max_leaf = r[0] >= 0x40000000u ? r[0] : 0;
    }
}

#else

/* arm64 Linux lists the implementer and part in /proc/cpuinfo; there is no brand string. */
static void identify_from_cpuinfo(tks_cpu_identity *id)
{
    char line[256];
    unsigned v;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
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
    fclose(f);
    snprintf(id->brand, sizeof id->brand, "%s part 0x%03x", id->vendor[0] ? id->vendor : "arm64",
             id->model);
}

#endif

int tks_cpu_identity_probe(tks_cpu_identity *id)
{
    long online;
    if (!id)
        return TKS_EINVAL;
    memset(id, 0, sizeof *id);
#if defined(TKS_ARCH_X86)
    identify_x86(id, tks_cpu_features_get());
#else
    identify_from_cpuinfo(id);
#endif
    online = sysconf(_SC_NPROCESSORS_ONLN);
    id->logical_cpus = online > 0 ? (int)online : 0;
    return TKS_OK;
}
