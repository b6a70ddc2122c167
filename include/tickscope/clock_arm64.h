/* SPDX-License-Identifier: MIT */
/* tickscope/clock_arm64.h: the clock reads of tickscope/clock.h on arm64 (the generic timer's
 * virtual count, CNTVCT_EL0, and its frequency); included by clock.h only. */
#if !defined(TICKSCOPE_CLOCK_H)
#include "clock.h" /* included on its own: clock.h includes this file where it belongs */
#elif defined(TKS_ARCH_ARM64) && !defined(TICKSCOPE_CLOCK_ARM64_H)
#define TICKSCOPE_CLOCK_ARM64_H

TKS_ALWAYS_INLINE tks_u64 tks__arm64_cntvct(void)
{
    tks_u64 v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

TKS_ALWAYS_INLINE tks_u64 tks__read_plain(void) { return tks__arm64_cntvct(); }

TKS_ALWAYS_INLINE void tks_cpu_features_probe(struct tks_cpu_features *f)
{
    unsigned i;
    tks_u64 hz;
    for (i = 0; i < sizeof(*f); i++)
        TKS__RECAST(unsigned char *, f)[i] = 0;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
    f->counter_hz = hz;
    f->invariant_tsc = 1; /* the generic timer runs at a fixed frequency by architecture */
}
TKS_ALWAYS_INLINE tks_u32 tks_cpu_aux(void) { return TKS_AUX_NONE; }

/* ISB before the read waits for earlier instructions; ISB after keeps later ones out. */
TKS_ALWAYS_INLINE tks_u64 tks_begin_isb(void)
{
    tks_u64 v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
    return v;
}
TKS_ALWAYS_INLINE tks_u64 tks_end_isb(tks_u32 *aux)
{
    tks_u64 t = tks_begin_isb();
    *aux = TKS_AUX_NONE; /* after the reading: out of the window */
    return t;
}
TKS_ALWAYS_INLINE tks_u64 tks_begin_cntvct(void) { return tks__arm64_cntvct(); }
TKS_ALWAYS_INLINE tks_u64 tks_end_cntvct(tks_u32 *aux)
{
    tks_u64 t = tks__arm64_cntvct();
    *aux = TKS_AUX_NONE;
    return t;
}

#endif /* TICKSCOPE_CLOCK_ARM64_H */
