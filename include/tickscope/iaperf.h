/* SPDX-License-Identifier: MIT */
/* tickscope/iaperf.h: the IAPerf.h macros of M. Stoner's article "Portable Performance Measurement
 * Macros for Intel Architecture" (Intel; the copy in reference/ was last modified May 1, 2008),
 * on tickscope's regions. Code written against the article builds unchanged (replace its IAperf.h
 * with a file that includes this one) and gets:
 *   - rdtsc(), declared as the article declares it (unsigned long long rdtsc()), reading the
 *     clock with the validated fence (LFENCE;RDTSC;LFENCE here; ISB;MRS on arm64) instead of
 *     CPUID;RDTSC, which traps to a hypervisor;
 *   - `clocks` after PERFSTOP: the pass's ticks net of the median empty pass (never below 0);
 *   - every PERFSTART/PERFSTOP pass accumulated as a region named "function:line" after the
 *     PERFSTOP, so several sections in one function stay apart, reported at exit
 *     (tickscope/region.h: TICKSCOPE_REGION_OUT and friends);
 *   - PERFREPORT's seconds from PERFINITMHZ's clock speed, as in the article, or from the
 *     measured TSC rate when it is 0. The speed is the program's own: it changes nothing else
 *     (the region report keeps the measured rate).
 *
 * As in the article, PERFINITMHZ(mhz) declares `clocks` and `clockspeed`, in a block or at file
 * scope (its initialisers are constant); PERFSTART and PERFSTOP work on whatever `clocks` is
 * visible, so they may be in different functions, and each frame of a recursion times itself;
 * PERFREPORT prints "time elapsed = %f sec" with printf. The macros carry their own semicolons,
 * as the article's do, and accept an extra one. Define TKS_IAPERF_NO_RDTSC if the program has an
 * rdtsc() of its own. */
#ifndef TICKSCOPE_IAPERF_H
#define TICKSCOPE_IAPERF_H

#include <stdio.h>

#include "region.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TKS__IAPERF_UNUSED __attribute__((unused))
#else
#define TKS__IAPERF_UNUSED
#endif

#if !defined(TKS_IAPERF_NO_RDTSC)
/* The article's rdtsc(): the time-stamp counter, read in order with the code around it. */
TKS__IAPERF_UNUSED static inline unsigned long long rdtsc(void)
{
    return tks__begin_first(); /* LFENCE-fenced RDTSC on x86, ISB-fenced CNTVCT on arm64 */
}
#endif

#define PERFINITMHZ(clkspd)                                                                \
    TKS__IAPERF_UNUSED unsigned long long clocks = 0;                                      \
    TKS__IAPERF_UNUSED double clockspeed = TKS__CAST(double, clkspd) * 1000000.0;

#if defined(TKS_REGIONS_DISABLE) || defined(TKS_NO_REGIONS)

#define PERFSTART
#define PERFSTOP
#define PERFREPORT

#else

/* Record one pass of the section whose PERFSTOP is at func:line (raw ticks, end - begin) and
 * return its ticks net of the median empty pass of method m (0 when below it). */
TKS_API unsigned long long tks__iaperf_stop(tks__region_site *site, const char *func, int line,
                                            int m, tks_u64 raw);
/* printf the article's line; a clockspeed of 0 (or less) means the measured TSC rate. */
TKS_API void tks__iaperf_report(unsigned long long clocks, double clockspeed);

#define PERFSTART clocks = tks__region_read_begin(TKS__REGION_METHOD_ID);
#define PERFSTOP                                                                           \
    {                                                                                      \
        static tks__region_site tks__iaperf_site;                                          \
        tks_u64 tks__iaperf_end = tks__region_read_end(TKS__REGION_METHOD_ID);             \
        clocks = tks__iaperf_stop(&tks__iaperf_site, __func__, __LINE__,                   \
                                  TKS__REGION_METHOD_ID, tks__iaperf_end - clocks);        \
    }
#define PERFREPORT tks__iaperf_report(clocks, clockspeed);

#endif

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_IAPERF_H */
