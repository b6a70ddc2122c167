/* SPDX-License-Identifier: MIT */
/* add_check.c: the add check's windows, per method (the same reads as every window of that
 * method), one round at a time so that the three chains see the same stretch of the clock. A
 * first round is taken and overwritten, so that each chain's code (some 1.5 KiB) is in the
 * caches when its windows count: fetched from L2, it slows a chain of one-cycle adds and not
 * the slower chains (taken four rounds at a time between a benchmark's batches, without it,
 * every 100-add benchmark read 1.3% slow). */
#include "sample/add_check.h"
#include "arch/add_chain.h"

#include <stdint.h>

#define TKS__CHECK_STR(x) #x
#define TKS__CHECK_XSTR(x) TKS__CHECK_STR(x)
#define REPT(n, ins) ".rept " TKS__CHECK_XSTR(n) "\n\t" ins "\n\t.endr"

/* One window of the asm given, its ticks (or UINT64_MAX) into slot. */
#define CHECK_WINDOW(m, slot, ...)                                                        \
    do {                                                                                  \
        t0 = TKS_BEGIN(m);                                                                \
        __VA_ARGS__;                                                                      \
        t1 = TKS_END(m, &aux);                                                            \
        (slot) = t1 >= t0 ? t1 - t0 : UINT64_MAX;                                         \
    } while (0)

#define TKS_DEFINE_CHECK(m, M, flags)                                                     \
    static int check_##m(uint32_t rounds, uint64_t *out)                                  \
    {                                                                                     \
        volatile unsigned long one_source = 1;                                            \
        volatile double fp_source = 0.0; /* 0 + 0: no overflow, no denormal */                                                   \
        unsigned long acc = 1, one = one_source, mul = one_source;                        \
        double fp = fp_source;                                                            \
        uint64_t t0, t1;                                                                  \
        tks_u32 aux = 0;                                                                  \
        for (uint32_t j = 0; j <= rounds; j++) { /* round 0 warms the caches, not kept */   \
            uint32_t i = j ? j - 1 : 0;                                                   \
            CHECK_WINDOW(m, out[0 * rounds + i],                                          \
                         __asm__ __volatile__(REPT(TKS_CHECK_LONG, TKS__ADD("%0", "%1"))  \
                                              : "+r"(acc) : "r"(one)));                   \
            CHECK_WINDOW(m, out[1 * rounds + i],                                          \
                         __asm__ __volatile__(REPT(TKS_CHECK_SHORT, TKS__ADD("%0", "%1")) \
                                              : "+r"(acc) : "r"(one)));                   \
            CHECK_WINDOW(m, out[2 * rounds + i],                                          \
                         __asm__ __volatile__(REPT(TKS_CHECK_LONG, TKS__CHECK_MUL("%0"))  \
                                              : "+r"(mul)));                              \
            CHECK_WINDOW(m, out[3 * rounds + i],                                          \
                         __asm__ __volatile__(REPT(TKS_CHECK_SHORT, TKS__CHECK_MUL("%0")) \
                                              : "+r"(mul)));                              \
            CHECK_WINDOW(m, out[4 * rounds + i],                                          \
                         __asm__ __volatile__(REPT(TKS_CHECK_LONG,                        \
                                                   TKS__CHECK_FADD(TKS__CHECK_FP_OP))     \
                                              : TKS__CHECK_FP_REG(fp)));                  \
            CHECK_WINDOW(m, out[5 * rounds + i],                                          \
                         __asm__ __volatile__(REPT(TKS_CHECK_SHORT,                       \
                                                   TKS__CHECK_FADD(TKS__CHECK_FP_OP))     \
                                              : TKS__CHECK_FP_REG(fp)));                  \
        }                                                                                 \
        one_source = acc ^ mul; /* keep the chains observable */                          \
        fp_source = fp;                                                                   \
        (void)aux;                                                                        \
        return 0;                                                                         \
    }
TKS_METHOD_EACH_HERE(TKS_DEFINE_CHECK)

int tks__add_check_sample(enum tks_method m, uint32_t rounds, uint64_t *out)
{
    if (!rounds || !out)
        return TKS_EINVAL;
#define TKS_CHECK_CASE(m, M, flags)                                                       \
    case TKS_METHOD_##M:                                                                  \
        return check_##m(rounds, out);
    switch (m) {
        TKS_METHOD_EACH_HERE(TKS_CHECK_CASE)
    default:
        return TKS_EINVAL;
    }
}
