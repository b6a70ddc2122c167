/* SPDX-License-Identifier: MIT */
/* ergodic.c: the paper's ergodicity check ("variance of variances and of minimums tend to zero")
 * turned into a verdict with bounds that respect the timer quantum. */
#include "tickscope.h"

#include <math.h>
#include <string.h>

int tks_ergodicity_test(const tks_across *a, uint64_t quantum, tks_ergodicity *out)
{
    double q;

    if (!a || !out || a->max_of_minimums < a->min_of_minimums)
        return TKS_EINVAL;
    if (quantum == 0)
        quantum = 1;
    q = (double)quantum;
    memset(out, 0, sizeof *out);
    /* A quantised timer cannot tell minimums within one step apart, so that spread is stable. */
    out->minimum_spread = (double)(a->max_of_minimums - a->min_of_minimums);
    out->minimum_stable = a->max_of_minimums - a->min_of_minimums <= quantum;
    /* Interrupts that user space cannot switch off make some ensembles noisier than others;
     * a spread of inlier variances up to half their mean (or one quantum squared, the scale on
     * which quantisation alone moves a variance) is still a stable process. */
    out->variance_sd = sqrt(a->variance_of_inlier_variances);
    out->variance_limit = fmax(q * q, 0.5 * a->mean_inlier_variance);
    out->variance_stable = out->variance_sd <= out->variance_limit;
    out->ergodic = out->minimum_stable && out->variance_stable;
    return TKS_OK;
}
