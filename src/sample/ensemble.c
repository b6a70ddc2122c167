/* SPDX-License-Identifier: MIT */
/* ensemble.c: the measurement loops. Each (method, work) pair is its own loop, chosen through a
 * function pointer and a switch before the first sample, never inside a window. */
#include "sample/ensemble.h"
#include "arch/add_chain.h"

/* A migration shows as different TSC_AUX values before the begin and after the end reading.
 * Methods whose end is RDTSCP report it for free; the others read it once more, outside. */
#define TKS_LOOP(m, end_has_aux, nstr)                                                    \
    do {                                                                                  \
        for (i = 0; i < (int)TKS_ENSEMBLE_WARMUP; i++) {                                  \
            t0 = TKS_BEGIN(m);                                                            \
            t1 = TKS_END(m, &aux1);                                                       \
        }                                                                                 \
        for (s = 0; s <= samples;) {                                                      \
            aux0 = check_aux ? tks_cpu_aux() : 0;                                         \
            t0 = TKS_BEGIN(m);                                                            \
            __asm__ __volatile__(TKS_WORK_ASM(nstr) : "+r"(acc) : "r"(step));              \
            t1 = TKS_END(m, &aux1);                                                       \
            if (check_aux && !(end_has_aux))                                              \
                aux1 = tks_cpu_aux();                                                     \
            if (check_aux && aux0 != aux1) {                                              \
                counts->migrated++;                                                       \
            } else if (t1 < t0) {                                                         \
                counts->negative++;                                                       \
            } else {                                                                      \
                if (s > 0)                                                                \
                    out[s - 1] = t1 - t0;                                                 \
                s++;                                                                      \
                continue;                                                                 \
            }                                                                             \
            if (counts->migrated + counts->negative > limit)                              \
                return TKS_EDISCARD;                                                      \
        }                                                                                 \
    } while (0)

/* One function per method this build has, each a switch over the amount of work (the .rept
 * count must be a literal), all generated from the one method list in tickscope/clock.h. */
#define TKS_WORK_CASE(m, flags, n)                                                        \
    case n:                                                                               \
        TKS_LOOP(m, TKS_MF_END_AUX(flags), #n);                                           \
        break;
#define TKS_DEFINE_ENSEMBLE(m, M, flags)                                                  \
    static int ensemble_##m(uint64_t *out, uint32_t samples, uint32_t work, int check_aux, \
                            struct tks__ensemble_counts *counts)                           \
    {                                                                                     \
        uint64_t limit = (uint64_t)samples * 10 + 1000;                                   \
        volatile unsigned long step_source = 1;                                           \
        unsigned long acc = 0, step = step_source; /* one register wide, i386 too */     \
        uint64_t t0 = 0, t1 = 0;                                                          \
        tks_u32 aux0 = 0, aux1 = 0;                                                       \
        uint32_t s;                                                                       \
        int i;                                                                            \
        switch (work) {                                                                   \
            TKS_WORK_CASES(TKS_WORK_CASE, m, flags)                                       \
        default:                                                                          \
            return TKS_ERANGE;                                                            \
        }                                                                                 \
        step_source = acc; /* keep the work observable */                                 \
        return 0;                                                                         \
    }
TKS_METHOD_EACH_HERE(TKS_DEFINE_ENSEMBLE)

tks__ensemble_fn tks__ensemble_for(enum tks_method m)
{
#define TKS_ENSEMBLE_CASE(m, M, flags)                                                    \
    case TKS_METHOD_##M:                                                                  \
        return ensemble_##m;
    switch (m) {
        TKS_METHOD_EACH_HERE(TKS_ENSEMBLE_CASE)
    default:
        return 0;
    }
}
