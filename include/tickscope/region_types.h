/* SPDX-License-Identifier: MIT */
/* tickscope/region_types.h: the figures of a region (tks_region_stats) and their limits, apart
 * from the functions of tickscope/region.h (which includes this), so that a writer of region
 * reports can know the figures without depending on the code that gathers them. Types only. */
#ifndef TICKSCOPE_REGION_TYPES_H
#define TICKSCOPE_REGION_TYPES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TKS_REGION_MAX 256     /* regions one program can have; later call sites are counted */
#define TKS_REGION_NAME_MAX 64 /* longer names are cut (bytes, with the terminator) */
#define TKS_REGION_EVENTS_MAX 8 /* event counters (TICKSCOPE_REGION_COUNTERS) */

/* Bits of tks_region_stats.below_resolution: which net figures are below the resolution. */
#define TKS_REGION_BELOW_MIN 1u
#define TKS_REGION_BELOW_MEAN 2u
#define TKS_REGION_BELOW_MEDIAN 4u
#define TKS_REGION_BELOW_P90 8u
#define TKS_REGION_BELOW_P99 16u
#define TKS_REGION_BELOW_MAX 32u

/* One region's figures merged over every thread. Ticks are net of the overhead of an empty pass
 * measured at start-up (README, "How the overhead is obtained"): the mean and total net of its
 * robust mean (`overhead`), the order statistics (minimum, median, p90, p99, maximum) net of the
 * empty passes' median, which the timer quantises as it does theirs. A net figure is never
 * negative: one below `resolution` is clamped at 0, its bit set in below_resolution, and its raw
 * figure is kept beside it. The variance is exact (the overhead does not change it). */
typedef struct tks_region_stats {
    char name[TKS_REGION_NAME_MAX];
    unsigned long long passes;      /* completed outermost passes */
    unsigned threads;               /* threads that used the region */
    double overhead;                /* ticks per pass subtracted from the mean and total */
    double overhead_min;            /* the empty passes' minimum (for reference: a rare low tail) */
    double overhead_median;         /* their median: subtracted from min, median, p90, p99, max */
    double resolution;              /* ticks: max(timer quantum, 2 x the overhead's spread) */
    unsigned below_resolution;      /* TKS_REGION_BELOW_* of the figures under the resolution */
    double total, mean, min, max;   /* ticks, net, >= 0 */
    double raw_total;               /* ticks as read, overhead included */
    double raw_mean, raw_min, raw_max; /* as read */
    double variance;                /* ticks^2, population, exact up to the final division */
    size_t kept;                    /* passes in the merged reservoir (0: no reservoir) */
    double median, p90, p99;        /* net ticks from the reservoir, >= 0; NaN without one */
    double raw_median, raw_p90, raw_p99; /* as read; NaN without a reservoir */
    unsigned long long ends_without_begin; /* TKS_REGION_END with no pass open on that thread */
    unsigned long long unterminated;       /* passes begun and never ended (open now or at thread exit) */
    unsigned long long negative;           /* end read before begin (different CPUs' TSCs): not counted */
    unsigned long long moved;  /* passes that ended on another CPU than the pass before (TSC_AUX):
                                  preempted and migrated during or just before the pass */
    /* Event counters (TICKSCOPE_REGION_COUNTERS, in its order): events per pass, read just
     * outside the clock reads (so a pass's own bookkeeping is in), with a 95% interval over the
     * passes; NaN for an event not counted. n_events: 0 when counters are off. */
    size_t n_events;
    double events[TKS_REGION_EVENTS_MAX], events_lo[TKS_REGION_EVENTS_MAX],
        events_hi[TKS_REGION_EVENTS_MAX];
} tks_region_stats;

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_REGION_TYPES_H */
