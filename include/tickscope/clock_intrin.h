/* SPDX-License-Identifier: MIT */
/* tickscope/clock_intrin.h: the clock reads of tickscope/clock.h spelled with compiler intrinsics,
 * for Windows compilers (MSVC has no inline assembly on x64); included by clock.h only. */
#if !defined(TICKSCOPE_CLOCK_H)
#include "clock.h" /* included on its own: clock.h includes this file where it belongs */
#elif defined(TKS__X86_INTRINSICS) && !defined(TICKSCOPE_CLOCK_INTRIN_H)
#define TICKSCOPE_CLOCK_INTRIN_H

/* The same sequences from intrinsics. The compiler barriers stand for the assembly's "memory"
 * clobber: no load or store of the caller's crosses a reading. SERIALIZE has an intrinsic only
 * in MSVC (VS 2019 and later) and in GNU compilers given -mserialize; otherwise it is spelled
 * as its bytes, which needs GNU inline assembly (mingw-w64 has it; MSVC x64 has _serialize). */
#if defined(_MSC_VER) || defined(__SERIALIZE__)
#define TKS__X86_SERIALIZE_OP() _serialize()
#else
#define TKS__X86_SERIALIZE_OP() __asm__ __volatile__(".byte 0x0f, 0x01, 0xe8" : : : "memory")
#endif

TKS_ALWAYS_INLINE tks_u64 tks_rdtsc(void)
{
    tks_u64 t;
    TKS__COMPILER_BARRIER();
    t = __rdtsc();
    TKS__COMPILER_BARRIER();
    return t;
}
TKS_ALWAYS_INLINE tks_u64 tks_rdtscp(tks_u32 *aux)
{
    unsigned int a;
    tks_u64 t;
    TKS__COMPILER_BARRIER();
    t = __rdtscp(&a);
    TKS__COMPILER_BARRIER();
    *aux = a;
    return t;
}
#define TKS__X86_BEGIN_I(pre, post)                                                        \
    tks_u64 t;                                                                            \
    TKS__COMPILER_BARRIER();                                                               \
    pre;                                                                                  \
    t = __rdtsc();                                                                        \
    post;                                                                                 \
    TKS__COMPILER_BARRIER();                                                               \
    return t
#define TKS__X86_END_I(pre, post)                                                          \
    unsigned int a;                                                                       \
    tks_u64 t;                                                                            \
    TKS__COMPILER_BARRIER();                                                               \
    pre;                                                                                  \
    t = __rdtscp(&a);                                                                     \
    post;                                                                                 \
    TKS__COMPILER_BARRIER();                                                               \
    *aux = a;                                                                             \
    return t
TKS_ALWAYS_INLINE tks_u64 tks_begin_lfence(void) { TKS__X86_BEGIN_I(_mm_lfence(), _mm_lfence()); }
TKS_ALWAYS_INLINE tks_u64 tks_end_lfence(tks_u32 *aux) { TKS__X86_END_I((void)0, _mm_lfence()); }
TKS_ALWAYS_INLINE tks_u64 tks_begin_lfence_rdtsc(void)
{
    TKS__X86_BEGIN_I(_mm_lfence(), _mm_lfence());
}
TKS_ALWAYS_INLINE tks_u64 tks_end_lfence_rdtsc(tks_u32 *aux)
{
    tks_u64 t = tks_begin_lfence_rdtsc(); /* "no TSC_AUX" said after it, out of the window */
    *aux = TKS_AUX_NONE;
    return t;
}
TKS_ALWAYS_INLINE tks_u64 tks_begin_mfence(void)
{
    TKS__X86_BEGIN_I((_mm_mfence(), _mm_lfence()), _mm_lfence());
}
TKS_ALWAYS_INLINE tks_u64 tks_end_mfence(tks_u32 *aux) { TKS__X86_END_I(_mm_mfence(), _mm_lfence()); }
TKS_ALWAYS_INLINE tks_u64 tks_begin_serialize(void)
{
    TKS__X86_BEGIN_I(TKS__X86_SERIALIZE_OP(), _mm_lfence());
}
TKS_ALWAYS_INLINE tks_u64 tks_end_serialize(tks_u32 *aux)
{
    TKS__X86_END_I((void)0, TKS__X86_SERIALIZE_OP());
}


#endif /* TICKSCOPE_CLOCK_INTRIN_H */
