/* quantum.c: the step in which the time-stamp counter advances, seen through fenced reads, and
 * the smallest difference between back-to-back unfenced reads; with the commonest deltas of each. */
#include <stdlib.h>
#include <string.h>

#include "tickscope.h"

#define QUANTUM_READS 20000u

int tks_measure_quantum(enum tks_method fenced, uint64_t *quantum, uint64_t *unfenced_min)
{
    static const enum tks_method unfenced_methods[] = {TKS_METHOD_RDTSC, TKS_METHOD_CNTVCT};
    uint64_t *d;
    size_t i, k;
    int rc;
    if (!quantum)
        return TKS_EINVAL;
    if (!(d = malloc(QUANTUM_READS * sizeof *d)))
        return TKS_ENOMEM;
    if ((rc = tks_sample_read_spread_deltas(fenced, d, QUANTUM_READS)) != 0) {
        free(d);
        return rc;
    }
    *quantum = tks_quantum_from_deltas(d, QUANTUM_READS);
    if (!unfenced_min) {
        free(d);
        return 0;
    }
    *unfenced_min = 0;
    for (k = 0; k < sizeof unfenced_methods / sizeof unfenced_methods[0]; k++) {
        if (tks_sample_read_deltas(unfenced_methods[k], d, QUANTUM_READS) != 0)
            continue;
        *unfenced_min = UINT64_MAX;
        for (i = 0; i < QUANTUM_READS; i++)
            if (d[i] && d[i] < *unfenced_min)
                *unfenced_min = d[i];
        break;
    }
    free(d);
    return 0;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The fenced method the quantum is read through: the cheapest ordered one this CPU has. */
static enum tks_method fenced_method(void)
{
#if defined(TKS_ARCH_X86)
    const struct tks_cpu_features *f = tks_cpu_features_get();
    if (tks_method_available(TKS_METHOD_LFENCE, f))
        return TKS_METHOD_LFENCE;
    return TKS_METHOD_CPUID;
#else
    return TKS_METHOD_ISB;
#endif
}

int tks_timer_quantum_measure(tks_timer_quantum *out)
{
    uint64_t *d;
    int rc;
    if (!out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    if (!(d = malloc(QUANTUM_READS * sizeof *d)))
        return TKS_ENOMEM;
    /* Spread reads find the step (see tks_sample_read_spread_deltas); back-to-back ones show what
     * a user's tight pair of reads sees. */
    rc = tks_sample_read_spread_deltas(fenced_method(), d, QUANTUM_READS);
    if (rc == 0) {
        out->quantum = tks_quantum_from_deltas(d, QUANTUM_READS);
        rc = tks_sample_read_deltas(fenced_method(), d, QUANTUM_READS);
    }
    if (rc == 0) {
        qsort(d, QUANTUM_READS, sizeof *d, compare_u64);
        tks_top_values(d, QUANTUM_READS, out->fenced_delta, out->fenced_count, TKS_TOP_DELTAS);
        out->reads = QUANTUM_READS;
    }
#if defined(TKS_ARCH_X86)
    if (rc == 0 && tks_sample_read_deltas(TKS_METHOD_RDTSC, d, QUANTUM_READS) == 0) {
#else
    if (rc == 0 && tks_sample_read_deltas(TKS_METHOD_CNTVCT, d, QUANTUM_READS) == 0) {
#endif
        size_t i;
        qsort(d, QUANTUM_READS, sizeof *d, compare_u64);
        tks_top_values(d, QUANTUM_READS, out->unfenced_delta, out->unfenced_count,
                       TKS_TOP_DELTAS);
        for (i = 0; i < QUANTUM_READS && d[i] == 0; i++)
            ;
        out->unfenced_step = i < QUANTUM_READS ? d[i] : 0;
    }
    free(d);
    return rc;
}
