/* SPDX-License-Identifier: MIT */
/* across.c: the white paper's closing figures over a run of ensembles (spurious minimums, total
 * variance, variance of variances and of minimums), computed without allocating. */
#include "stats/moments.h"
#include "tickscope.h"

#include <stddef.h>
#include <string.h>


/* A minimum of 0 is a legitimate reading, so unlike the paper (which skips when the previous
 * minimum is 0) every pair of neighbours is compared. Saturates rather than wraps. */
static uint32_t count_spurious(const tks_summary *ens, size_t count)
{
    uint32_t spurious = 0;
    for (size_t i = 1; i < count; i++)
        if (ens[i].min < ens[i - 1].min && spurious < UINT32_MAX)
            spurious++;
    return spurious;
}

static void extremes(const tks_summary *ens, size_t count, tks_across *out)
{
    out->min_of_minimums = ens[0].min;
    out->max_of_minimums = ens[0].min;
    out->abs_max_deviation = 0;
    for (size_t i = 0; i < count; i++) {
        if (ens[i].min < out->min_of_minimums)
            out->min_of_minimums = ens[i].min;
        if (ens[i].min > out->max_of_minimums)
            out->max_of_minimums = ens[i].min;
        if (ens[i].max_deviation > out->abs_max_deviation)
            out->abs_max_deviation = ens[i].max_deviation;
    }
}

static void means(const tks_summary *ens, size_t count, tks_across *out)
{
    long double var = 0, inlier = 0;
    for (size_t i = 0; i < count; i++) {
        var += ens[i].variance;
        inlier += ens[i].inlier_variance;
    }
    out->total_variance = (double)(var / (long double)count);
    out->mean_inlier_variance = (double)(inlier / (long double)count);
}

int tks_across_ensembles(const tks_summary *ens, size_t count, tks_across *out)
{
    double mean_of_minimums;

    if (!ens || !out || count == 0)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    out->ensembles = count;
    out->spurious_minimums = count_spurious(ens, count);
    extremes(ens, count, out);
    means(ens, count, out);
    /* The fields are read in place, at the stride of the array, instead of being copied out. */
    out->variance_of_variances = tks__variance_double_stride(&ens[0].variance, count, sizeof *ens);
    out->variance_of_inlier_variances =
        tks__variance_double_stride(&ens[0].inlier_variance, count, sizeof *ens);
    tks__moments_u64_stride(&ens[0].min, count, sizeof *ens, &mean_of_minimums,
                           &out->variance_of_minimums);
    return TKS_OK;
}
