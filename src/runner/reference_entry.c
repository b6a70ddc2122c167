/* SPDX-License-Identifier: MIT */
/* reference_entry.c: one entry of a run's interleaved reference from its windows (state.h): the
 * long chain less the short, the harness gap (latency mode) and the repetition loop's floor
 * (throughput mode). The live run and a replay of its recording compute each entry here, from
 * the same windows. */
#include <math.h>

#include "runner/state.h"
#include "stats/reference.h"

size_t tks__reference_windows(enum tks_mode mode)
{
    return mode == TKS_MODE_LATENCY ? TKS_REF_SAMPLES + 2 * TKS_GAP_SAMPLES
                                    : 4 * TKS_REF_SAMPLES;
}

double tks__state_harness_gap(double long_mean, double short_mean, double none_mean)
{
    return short_mean - none_mean - (long_mean - short_mean) * TKS_REF_SHORT / TKS_REF_ADDS;
}

int tks__reference_entry(const uint64_t *w, enum tks_mode mode, uint64_t quantum, double *diff,
                         double *gap, double *floor)
{
    int lat = mode == TKS_MODE_LATENCY;
    size_t ns = lat ? TKS_GAP_SAMPLES : TKS_REF_SAMPLES;
    double m_long = tks__burst_mean(w, TKS_REF_SAMPLES, quantum);
    double m_short = tks__burst_mean(w + TKS_REF_SAMPLES, ns, quantum);
    double m_none = lat ? tks__burst_mean(w + TKS_REF_SAMPLES + ns, ns, quantum) : 0;
    *floor = 0;
    if (!isfinite(m_long) || !isfinite(m_short) || !isfinite(m_none))
        return -1;
    if (!lat) {
        double fl = tks__burst_mean(w + 2 * TKS_REF_SAMPLES, TKS_REF_SAMPLES, quantum);
        double fs = tks__burst_mean(w + 3 * TKS_REF_SAMPLES, TKS_REF_SAMPLES, quantum);
        if (!isfinite(fl) || !isfinite(fs))
            return -1;
        *floor = (fl - fs) / (TKS_FLOOR_LONG - TKS_FLOOR_SHORT);
    }
    *diff = m_long - m_short;
    *gap = lat ? tks__state_harness_gap(m_long, m_short, m_none) : NAN;
    return 0;
}
