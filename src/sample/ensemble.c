/* ensemble.c: the measurement loops. Each (method, work) pair is its own loop, chosen through a
 * function pointer and a switch before the first sample, never inside a window. */
#include "sample/ensemble.h"

#if defined(TKS_ARCH_X86)
#define TKS_WORK_ASM(nstr) ".rept " nstr "\n\tadd %1, %0\n\t.endr"
#else
#define TKS_WORK_ASM(nstr) ".rept " nstr "\n\tadd %0, %0, %1\n\t.endr"
#endif

/* A migration shows as different TSC_AUX values before the begin and after the end reading.
 * Methods whose end is RDTSCP report it for free; the others read it once more, outside. */
#define TKS_LOOP(m, end_has_aux, nstr)                                                    \
    do {                                                                                  \
        for (i = 0; i < 3; i++) {                                                         \
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

/* The switch bodies come from work_cases.h; TKS_WORK_CASE needs the method in scope. */
#define TKS_DEFINE_ENSEMBLE_BEGIN(m)                                                      \
    static int ensemble_##m(uint64_t *out, uint32_t samples, uint32_t work, int check_aux, \
                            struct tks_ensemble_counts *counts)                           \
    {                                                                                     \
        uint64_t limit = (uint64_t)samples * 10 + 1000;                                   \
        volatile unsigned long step_source = 1;                                           \
        unsigned long acc = 0, step = step_source; /* one register wide, i386 too */     \
        uint64_t t0 = 0, t1 = 0;                                                          \
        tks_u32 aux0 = 0, aux1 = 0;                                                       \
        uint32_t s;                                                                       \
        int i;                                                                            \
        switch (work) {
#define TKS_DEFINE_ENSEMBLE_END()                                                         \
        default:                                                                          \
            return TKS_ERANGE;                                                            \
        }                                                                                 \
        step_source = acc; /* keep the work observable */                                 \
        return 0;                                                                         \
    }

#if defined(TKS_ARCH_X86)

#define TKS_WORK_CASE(n) case n: TKS_LOOP(cpuid, 0, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(cpuid)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

#define TKS_WORK_CASE(n) case n: TKS_LOOP(rdtscp, 1, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(rdtscp)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

#define TKS_WORK_CASE(n) case n: TKS_LOOP(lfence, 1, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(lfence)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

#define TKS_WORK_CASE(n) case n: TKS_LOOP(mfence, 1, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(mfence)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

#define TKS_WORK_CASE(n) case n: TKS_LOOP(serialize, 1, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(serialize)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

#define TKS_WORK_CASE(n) case n: TKS_LOOP(rdtsc, 0, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(rdtsc)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

tks_ensemble_fn tks_ensemble_for(enum tks_method m)
{
    switch (m) {
    case TKS_METHOD_CPUID:     return ensemble_cpuid;
    case TKS_METHOD_RDTSCP:    return ensemble_rdtscp;
    case TKS_METHOD_LFENCE:    return ensemble_lfence;
    case TKS_METHOD_MFENCE:    return ensemble_mfence;
    case TKS_METHOD_SERIALIZE: return ensemble_serialize;
    case TKS_METHOD_RDTSC:     return ensemble_rdtsc;
    default:                   return 0;
    }
}

#else /* arm64 */

#define TKS_WORK_CASE(n) case n: TKS_LOOP(isb, 0, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(isb)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

#define TKS_WORK_CASE(n) case n: TKS_LOOP(cntvct, 0, #n); break;
TKS_DEFINE_ENSEMBLE_BEGIN(cntvct)
#include "sample/work_cases.h"
TKS_DEFINE_ENSEMBLE_END()
#undef TKS_WORK_CASE

tks_ensemble_fn tks_ensemble_for(enum tks_method m)
{
    switch (m) {
    case TKS_METHOD_ISB:    return ensemble_isb;
    case TKS_METHOD_CNTVCT: return ensemble_cntvct;
    default:                return 0;
    }
}

#endif
