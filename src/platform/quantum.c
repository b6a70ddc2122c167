/* SPDX-License-Identifier: MIT */
/* quantum.c: the step in which the time-stamp counter advances, seen through fenced reads, and
 * the smallest difference between back-to-back unfenced reads; with the commonest deltas of each. */
#include <stdlib.h>
#include <string.h>

#include "stats/sort.h"
#include "tickscope.h"

#define QUANTUM_READS 20000u

/* Back-to-back reads of this architecture's unfenced method (neither reading fenced, in the
 * method list: rdtsc, cntvct); TKS_EUNAVAIL when there is none. */
static int read_unfenced(uint64_t *d)
{
    for (int m = 0; m < TKS_METHOD_COUNT; m++)
        if (tks_method_user((enum tks_method)m) &&
            !(tks_method_info((enum tks_method)m)->flags &
              (TKS_MF_FENCED_BEGIN | TKS_MF_FENCED_END)) &&
            tks_sample_read_deltas((enum tks_method)m, d, QUANTUM_READS) == 0)
            return 0;
    return TKS_EUNAVAIL;
}

/* UINT64_MAX when every delta is zero. */
static uint64_t smallest_nonzero(const uint64_t *d, size_t n)
{
    uint64_t m = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (d[i] && d[i] < m)
            m = d[i];
    return m;
}

int tks_timer_quantum_step(enum tks_method fenced, uint64_t *quantum, uint64_t *unfenced_min)
{
    uint64_t *d;
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
    if (unfenced_min)
        *unfenced_min = read_unfenced(d) == 0 ? smallest_nonzero(d, QUANTUM_READS) : 0;
    free(d);
    return 0;
}

int tks_timer_quantum_measure(tks_timer_quantum *out)
{
    enum tks_method fenced = tks_method_default(tks_cpu_features_get());
    uint64_t *d;
    int rc;
    if (!out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    if (!(d = malloc(QUANTUM_READS * sizeof *d)))
        return TKS_ENOMEM;
    /* Spread reads find the step (see tks_sample_read_spread_deltas); back-to-back ones show what
     * a user's tight pair of reads sees. */
    rc = tks_sample_read_spread_deltas(fenced, d, QUANTUM_READS);
    if (rc == 0) {
        out->quantum = tks_quantum_from_deltas(d, QUANTUM_READS);
        rc = tks_sample_read_deltas(fenced, d, QUANTUM_READS);
    }
    if (rc == 0) {
        tks__sort_u64(d, QUANTUM_READS);
        tks_top_values(d, QUANTUM_READS, out->fenced_delta, out->fenced_count, TKS_TOP_DELTAS);
        out->reads = QUANTUM_READS;
    }
    if (rc == 0 && read_unfenced(d) == 0) {
        uint64_t step = smallest_nonzero(d, QUANTUM_READS);
        out->unfenced_step = step == UINT64_MAX ? 0 : step;
        tks__sort_u64(d, QUANTUM_READS);
        tks_top_values(d, QUANTUM_READS, out->unfenced_delta, out->unfenced_count,
                       TKS_TOP_DELTAS);
    }
    free(d);
    return rc;
}
