/* SPDX-License-Identifier: MIT */
/* x86/cpu.c: the CPU through CPUID: who made it and what it is called, the hypervisor's vendor
 * leaf, the TSC rates it declares, and what the feature probe found. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"

const char *tks__arch_name(void)
{
#if defined(__x86_64__) || defined(_M_X64)
    return "x86_64";
#else
    return "i386";
#endif
}

void tks__arch_features_text(const struct tks_cpu_features *f, char *buf, size_t size)
{
    snprintf(buf, size, "invariant TSC %s, RDTSCP %s, SERIALIZE %s, LFENCE serialising %s, RDPID %s",
             f->invariant_tsc ? "yes" : "NO", f->rdtscp ? "yes" : "no", f->serialize ? "yes" : "no",
             f->lfence_serializing ? "yes" : "no", f->rdpid ? "yes" : "no");
}

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

void tks__arch_identify(tks_cpu_identity *id, const struct tks_cpu_features *f)
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

int tks__arch_hz_offered(enum tks_hz_source s)
{
    return s != TKS_HZ_CNTFRQ;
}

/* One reading more in out, unless it is full. */
static __attribute__((format(printf, 6, 7))) size_t
put(tks_hz_reading *out, size_t have, size_t max, enum tks_hz_source s, double hz, const char *fmt, ...)
{
    va_list ap;
    if (have >= max)
        return have;
    out[have].source = s;
    out[have].hz = hz;
    va_start(ap, fmt);
    vsnprintf(out[have].detail, sizeof out[have].detail, fmt, ap);
    va_end(ap);
    return have + 1;
}

size_t tks__arch_hz_declared(const struct tks_cpu_features *f, tks_hz_reading *out, size_t max)
{
    size_t have = 0;
    tks_u32 r[4];
    if (f->max_leaf >= 0x15) {
        tks_cpuid(0x15, 0, r);
        /* EAX/EBX is the TSC/crystal ratio, ECX the crystal in Hz; zero means "not enumerated". */
        if (r[0] && r[1] && r[2])
            have = put(out, have, max, TKS_HZ_CPUID_15, (double)r[2] * r[1] / r[0],
                       "CPUID 0x15: crystal %u Hz x %u/%u", (unsigned)r[2], (unsigned)r[1],
                       (unsigned)r[0]);
    }
    if (f->max_leaf >= 0x16) {
        tks_cpuid(0x16, 0, r);
        if (r[0] & 0xffff)
            have = put(out, have, max, TKS_HZ_CPUID_16, (r[0] & 0xffff) * 1e6,
                       "CPUID 0x16: base frequency %u MHz (nominal)", (unsigned)(r[0] & 0xffff));
    }
    if (f->hypervisor) {
        tks_cpuid(0x40000000u, 0, r);
        /* The leaf exists only when the hypervisor's maximum leaf reaches it (VMware, KVM with
         * the TSC-frequency feature, Xen's own layout differs and is not read). */
        if (r[0] >= 0x40000010u && r[0] < 0x40010000u) {
            tks_cpuid(0x40000010u, 0, r);
            if (r[0])
                have = put(out, have, max, TKS_HZ_HYPERVISOR, r[0] * 1e3,
                           "hypervisor leaf 0x40000010: %u kHz", (unsigned)r[0]);
        }
    }
    return have;
}
