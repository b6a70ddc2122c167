/* quantum.c: the step in which the time-stamp counter advances, seen through fenced reads, and
 * the smallest difference between back-to-back unfenced reads. */
#include <stdlib.h>

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
