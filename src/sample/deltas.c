/* SPDX-License-Identifier: MIT */
/* deltas.c: consecutive begin readings of one method, back to back or spread apart by varying
 * work; the differences show the cost of the begin sequence and the timer's step (quantum). */
#include "sample/ensemble.h"

/* With spread, a varying number of dependent adds (0..60) runs before each reading, so the
 * deltas take many values and only the timer's real step divides all of them: back to back,
 * a quiet machine gives one constant delta that would pass for the step. */
#define TKS_DELTAS(m)                                                                     \
    do {                                                                                  \
        tks_u64 prev = TKS_BEGIN(m), t;                                                   \
        for (i = 0; i < n; i++) {                                                         \
            if (spread)                                                                   \
                for (k = (unsigned)(i * 7u % 61u); k > 0; k--)                            \
                    __asm__ __volatile__("" : "+r"(acc));                                 \
            t = TKS_BEGIN(m);                                                             \
            deltas[i] = t - prev;                                                         \
            prev = t;                                                                     \
        }                                                                                 \
    } while (0)

static int read_deltas(enum tks_method method, uint64_t *deltas, size_t n, int spread)
{
    size_t i;
    unsigned k;
    unsigned long acc = 0;
    if (!deltas || n == 0)
        return TKS_EINVAL;
    if (!tks_method_available(method, tks_cpu_features_get()))
        return TKS_EUNAVAIL;
#define TKS_DELTAS_CASE(m, M, flags)                                                      \
    case TKS_METHOD_##M:                                                                  \
        TKS_DELTAS(m);                                                                    \
        break;
    switch (method) {
        TKS_METHOD_EACH_HERE(TKS_DELTAS_CASE)
    default:
        return TKS_EUNAVAIL;
    }
    return 0;
}

int tks_sample_read_deltas(enum tks_method method, uint64_t *deltas, size_t n)
{
    return read_deltas(method, deltas, n, 0);
}

int tks_sample_read_spread_deltas(enum tks_method method, uint64_t *deltas, size_t n)
{
    return read_deltas(method, deltas, n, 1);
}
