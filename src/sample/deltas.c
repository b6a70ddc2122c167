/* deltas.c: consecutive begin readings of one method, back to back; the differences show the
 * timer's step (its quantum) and the cost of the begin sequence itself. */
#include "sample/ensemble.h"

#define TKS_DELTAS(m)                                                                     \
    do {                                                                                  \
        tks_u64 prev = TKS_BEGIN(m), t;                                                   \
        for (i = 0; i < n; i++) {                                                         \
            t = TKS_BEGIN(m);                                                             \
            deltas[i] = t - prev;                                                         \
            prev = t;                                                                     \
        }                                                                                 \
    } while (0)

int tks_sample_read_deltas(enum tks_method method, uint64_t *deltas, size_t n)
{
    size_t i;
    if (!deltas || n == 0)
        return TKS_EINVAL;
    if (!tks_method_available(method, tks_cpu_features_get()))
        return TKS_EUNAVAIL;
    switch (method) {
#if defined(TKS_ARCH_X86)
    case TKS_METHOD_CPUID:     TKS_DELTAS(cpuid); break;
    case TKS_METHOD_RDTSCP:    TKS_DELTAS(rdtscp); break;
    case TKS_METHOD_LFENCE:    TKS_DELTAS(lfence); break;
    case TKS_METHOD_MFENCE:    TKS_DELTAS(mfence); break;
    case TKS_METHOD_SERIALIZE: TKS_DELTAS(serialize); break;
    case TKS_METHOD_RDTSC:     TKS_DELTAS(rdtsc); break;
#else
    case TKS_METHOD_ISB:       TKS_DELTAS(isb); break;
    case TKS_METHOD_CNTVCT:    TKS_DELTAS(cntvct); break;
#endif
    default:
        return TKS_EUNAVAIL;
    }
    return 0;
}
