/* SPDX-License-Identifier: MIT */
/* twice.c: latency mode's two-length correction (twice.h). */
#include "stats/twice.h"

#include <math.h>

#include "stats/estimate.h"

int tks__estimate_twice(const uint64_t *once, const uint64_t *twice, size_t n, uint64_t quantum,
                        uint64_t *scratch, tks_interval *cost)
{
    tks__estimate est;
    int rc;
    if (!cost)
        return TKS_EINVAL;
    /* The latency estimator differences two sets of windows: the twice ones play the real
     * windows, the once ones the empty windows. */
    if ((rc = tks__estimate_latency(twice, once, n, quantum, scratch, &est)) != 0)
        return rc;
    *cost = est.mean;
    return 0;
}

int tks__twice_choose(const tks_interval *twice, const tks_interval *adds, double overlap,
                      tks_interval *out)
{
    double ha = (adds->hi - adds->lo) / 2, ht = (twice->hi - twice->lo) / 2, h;
    overlap = isfinite(overlap) ? fabs(overlap) : 0;
    if (isfinite(twice->value) && isfinite(ht) &&
        (!isfinite(adds->value) || fabs(twice->value - adds->value) <= hypot(ha, ht) + overlap)) {
        *out = *twice;
        return 1;
    }
    h = hypot(ha, overlap);
    *out = (tks_interval){adds->value, adds->value - h, adds->value + h};
    return 0;
}
