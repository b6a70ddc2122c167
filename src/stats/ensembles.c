/* SPDX-License-Identifier: MIT */
/* ensembles.c: summarise every ensemble of a row-major sample array, reusing one scratch row. */
#include "tickscope.h"

int tks_summarize_ensembles(const uint64_t *ticks, uint32_t ensembles, uint32_t samples,
                            uint64_t quantum, uint64_t *scratch, tks_summary *out)
{
    uint32_t e;
    int rc;
    if (!ticks || !scratch || !out || ensembles == 0 || samples == 0)
        return TKS_EINVAL;
    for (e = 0; e < ensembles; e++) {
        rc = tks_summarize(ticks + (size_t)e * samples, samples, quantum, scratch, &out[e]);
        if (rc)
            return rc;
    }
    return 0;
}
