/* SPDX-License-Identifier: MIT */
/* asm_cpuid.c: which instruction-set extensions the CPU at hand offers, for the catalogue: CPUID's
 * feature bits, and for the vector ones the OS's consent (XCR0 saves the AVX and AVX-512 state),
 * less those TKS_CPU_FEATURES takes away (method/cpu_override.h). */
#include "asm/catalog.h"
#include "method/cpu_override.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static const char *const names[TKS__F_COUNT] = {
    "x86-64", "SSE3", "SSSE3", "SSE4.1", "SSE4.2", "POPCNT", "LZCNT", "BMI1", "BMI2", "ADX",
    "AVX", "AVX2", "FMA", "F16C", "AES", "PCLMULQDQ", "SHA", "MOVBE", "AVX512F", "AVX512VL",
    "AVX512BW", "AVX512DQ", "AVX512CD", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BITALG",
    "AVX512_VPOPCNTDQ", "AVX512_IFMA", "GFNI", "VAES", "VPCLMULQDQ"};

const char *tks__asm_feat_name(int feat)
{
    return feat >= 0 && feat < TKS__F_COUNT ? names[feat] : "?";
}

#if defined(__x86_64__)
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

#define BIT(f) ((uint64_t)1 << (f))

uint64_t tks__asm_cpu_feats(void)
{
    unsigned a, b, c, d, max, b7 = 0, c7 = 0, c81 = 0;
    uint64_t f = BIT(TKS__F_BASE), xcr0 = 0;
    int avx_os, avx512_os;
    if (!__get_cpuid(0, &max, &b, &c, &d))
        return f;
    __get_cpuid(1, &a, &b, &c, &d);
    if (max >= 7)
        __cpuid_count(7, 0, a, b7, c7, d);
    if (__get_cpuid(0x80000001u, &a, &b, &c81, &d) == 0)
        c81 = 0;
    if (c & bit_OSXSAVE)
        xcr0 = xgetbv0();
    avx_os = (xcr0 & 6) == 6;
    avx512_os = avx_os && (xcr0 & 0xe0) == 0xe0;
    static const struct {
        int feat, reg, bit, needs; /* reg: 1 leaf-1 ecx, 2 leaf-7 ebx, 3 leaf-7 ecx, 4 ext ecx;
                                    * needs: 1 AVX state, 2 AVX-512 state */
    } table[] = {
        {TKS__F_SSE3, 1, 0, 0},       {TKS__F_SSSE3, 1, 9, 0},      {TKS__F_SSE41, 1, 19, 0},
        {TKS__F_SSE42, 1, 20, 0},     {TKS__F_POPCNT, 1, 23, 0},    {TKS__F_LZCNT, 4, 5, 0},
        {TKS__F_BMI1, 2, 3, 0},       {TKS__F_BMI2, 2, 8, 0},       {TKS__F_ADX, 2, 19, 0},
        {TKS__F_AVX, 1, 28, 1},       {TKS__F_AVX2, 2, 5, 1},       {TKS__F_FMA, 1, 12, 1},
        {TKS__F_F16C, 1, 29, 1},      {TKS__F_AES, 1, 25, 0},       {TKS__F_PCLMUL, 1, 1, 0},
        {TKS__F_SHA, 2, 29, 0},       {TKS__F_MOVBE, 1, 22, 0},     {TKS__F_AVX512F, 2, 16, 2},
        {TKS__F_AVX512VL, 2, 31, 2},  {TKS__F_AVX512BW, 2, 30, 2},  {TKS__F_AVX512DQ, 2, 17, 2},
        {TKS__F_AVX512CD, 2, 28, 2},  {TKS__F_AVX512VBMI, 3, 1, 2}, {TKS__F_AVX512VNNI, 3, 11, 2},
        {TKS__F_AVX512BITALG, 3, 12, 2}, {TKS__F_AVX512VPOPCNTDQ, 3, 14, 2},
        {TKS__F_AVX512IFMA, 2, 21, 2}, {TKS__F_GFNI, 3, 8, 0},      {TKS__F_VAES, 3, 9, 1},
        {TKS__F_VPCLMUL, 3, 10, 1},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        unsigned r = table[i].reg == 1 ? c : table[i].reg == 2 ? b7 : table[i].reg == 3 ? c7 : c81;
        if (!(r >> table[i].bit & 1) || (table[i].needs == 1 && !avx_os) ||
            (table[i].needs == 2 && !avx512_os))
            continue;
        f |= BIT(table[i].feat);
    }
    /* TKS_CPU_FEATURES may take extensions away (a test of the choice of forms elsewhere). */
    for (int i = 0; i < TKS__F_COUNT; i++)
        if (tks__cpu_override_removes(tks__cpu_override_get(), names[i]))
            f &= ~BIT(i);
    return f;
}
#else
uint64_t tks__asm_cpu_feats(void)
{
    return 0;
}
#endif
