/* SPDX-License-Identifier: MIT */
/* reference.h: the core clock from a reference chain of known cost measured interleaved with a
 * benchmark: core cycles per tick over the run, its uncertainty, and how it drifted. Pure. */
#ifndef TKS_STATS_REFERENCE_H
#define TKS_STATS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct tks__reference {
    size_t n, kept;               /* entries given; kept within the fences */
    double ticks, ticks_se;       /* mean ticks of the chain (kept entries), its standard error */
    double cycles_per_tick;       /* chain_cycles / ticks */
    double rel_se;                /* ticks_se / ticks: the ratio's relative standard error */
    double start, end;            /* cycles per tick over the first and the last quarter */
    double range;                 /* (largest - smallest) / median of the four quarters' rates */
    double fence_lo, fence_hi;    /* entries outside were left out */
} tks__reference;

/* ticks[0..n), in time order, each the mean net ticks of one short burst of the chain; the
 * chain is chain_cycles core cycles long. Entries further than max(5 scaled MADs, quantum)
 * from the median (an interrupt in a burst) are left out. With fewer than 8 entries, start and
 * end are the whole run's and range is 0. TKS_EINVAL without a usable entry. */
int tks__reference_fit(const double *ticks, size_t n, double chain_cycles, uint64_t quantum,
                       tks__reference *out);

/* For each entry b, the factor that brings ticks taken around it to the run's rate: the run's
 * mean over the mean of the kept entries within radius of b (so a window taken while the core
 * clock ran faster per tick is scaled up). factor[0..n). */
void tks__reference_factors(const double *ticks, size_t n, const tks__reference *fit,
                            size_t radius, double *factor);

/* The mean of one burst's samples v[0..n), ticks, less those an interruption lengthened: a sample
 * above twice the burst's median plus four quanta (a guest's timer interrupt adds thousands of
 * ticks; a chain's own scatter, a few quanta). The burst's entry is made of means, so one
 * interrupted sample of 48 moved a whole run's harness gap by hundreds of ticks (a 60-window run
 * has one burst: add40 then read -420 ticks). NaN when none is kept or memory
 * runs out. */
double tks__burst_mean(const uint64_t *v, size_t n, uint64_t quantum);

/* Latency mode's harness gap from gap[0..n), one entry a burst: the harness of a non-empty window
 * less an empty window's, ticks. Its mean over the entries within the fences (as for the fit) and
 * the half-width of a 95% interval on it. TKS_EINVAL without a usable entry. */
int tks__reference_gap(const double *gap, size_t n, uint64_t quantum, double *mean, double *half);

#endif
