/* SPDX-License-Identifier: MIT */
/* cpuid_raw.c: the truth of the CPU-model boots (run_qemu.sh): what CPUID says inside the VM, read
 * with the compiler's <cpuid.h> and never through tickscope, one "name value" line each, prefixed
 * "CPUID ". The bits are those the Intel SDM (vol. 2A, CPUID) and AMD's APM (vol. 3, CPUID
 * Fn8000_0001, Fn8000_0007, Fn8000_0021) give; the vector state is XCR0's (XGETBV). */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

static void bit(const char *name, unsigned reg, int b)
{
    printf("CPUID %s %u\n", name, (reg >> b) & 1u);
}

int main(void)
{
    unsigned a = 0, b = 0, c = 0, d = 0, max = 0, max_ext = 0;
    unsigned c1 = 0, d1 = 0, b7 = 0, c7 = 0, d7 = 0, c81 = 0, d81 = 0, d87 = 0, a821 = 0;
    unsigned long long xcr0 = 0;
    char vendor[13];
    __cpuid(0, max, b, c, d);
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    printf("CPUID vendor %s\n", vendor);
    if (max >= 1) {
        unsigned fam, mod;
        __cpuid(1, a, b, c1, d1);
        /* SDM vol. 2A, CPUID leaf 1: the display family adds the extended family only to family
         * 15, the display model the extended model only to families 6 and 15. */
        fam = (a >> 8) & 0xf;
        mod = (a >> 4) & 0xf;
        if (fam == 6 || fam == 15)
            mod += ((a >> 16) & 0xf) << 4;
        if (fam == 15)
            fam += (a >> 20) & 0xff;
        printf("CPUID family %u\nCPUID model %u\nCPUID stepping %u\n", fam, mod, a & 0xf);
    }
    if (max >= 7)
        __cpuid_count(7, 0, a, b7, c7, d7);
    __cpuid(0x80000000u, max_ext, b, c, d);
    if (max_ext < 0x80000000u)
        max_ext = 0;
    if (max_ext >= 0x80000001u)
        __cpuid(0x80000001u, a, b, c81, d81);
    if (max_ext >= 0x80000007u)
        __cpuid(0x80000007u, a, b, c, d87);
    if (max_ext >= 0x80000021u)
        __cpuid(0x80000021u, a821, b, c, d);
    if ((c1 >> 27) & 1) { /* OSXSAVE: XGETBV may run */
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = (unsigned long long)hi << 32 | lo;
    }
    printf("CPUID max_leaf 0x%x\nCPUID max_ext_leaf 0x%x\n", max, max_ext);
    if ((c1 >> 31) & 1) { /* a hypervisor: its signature in leaf 0x40000000 EBX, ECX, EDX */
        char sig[13];
        __cpuid(0x40000000u, a, b, c, d);
        memcpy(sig, &b, 4);
        memcpy(sig + 4, &c, 4);
        memcpy(sig + 8, &d, 4);
        sig[12] = 0;
        printf("CPUID hypervisor_vendor %s\n", sig[0] ? sig : "-");
    }
    printf("CPUID xcr0_avx %d\nCPUID xcr0_avx512 %d\n", (xcr0 & 6) == 6, (xcr0 & 0xe6) == 0xe6);
    bit("tsc", d1, 4);
    bit("sse2", d1, 26);
    bit("sse3", c1, 0);
    bit("pclmulqdq", c1, 1);
    bit("ssse3", c1, 9);
    bit("fma", c1, 12);
    bit("sse4.1", c1, 19);
    bit("sse4.2", c1, 20);
    bit("movbe", c1, 22);
    bit("popcnt", c1, 23);
    bit("aes", c1, 25);
    bit("avx", c1, 28);
    bit("f16c", c1, 29);
    bit("hypervisor", c1, 31);
    bit("bmi1", b7, 3);
    bit("avx2", b7, 5);
    bit("bmi2", b7, 8);
    bit("avx512f", b7, 16);
    bit("avx512dq", b7, 17);
    bit("adx", b7, 19);
    bit("avx512_ifma", b7, 21);
    bit("avx512cd", b7, 28);
    bit("sha", b7, 29);
    bit("avx512bw", b7, 30);
    bit("avx512vl", b7, 31);
    bit("avx512_vbmi", c7, 1);
    bit("gfni", c7, 8);
    bit("vaes", c7, 9);
    bit("vpclmulqdq", c7, 10);
    bit("avx512_vnni", c7, 11);
    bit("avx512_bitalg", c7, 12);
    bit("avx512_vpopcntdq", c7, 14);
    bit("rdpid", c7, 22);
    bit("serialize", d7, 14);
    bit("lzcnt", c81, 5);
    bit("rdtscp", d81, 27);
    bit("invariant_tsc", d87, 8);
    bit("lfence_always_serializing", a821, 2);
    printf("CPUID done\n");
    return 0;
}
