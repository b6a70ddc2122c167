/* tickscope/iaperf.h: the IAPerf.h macros of M. Stoner's article "Portable Performance Measurement
 * Macros for Intel Architecture" (Intel, 2002), on tickscope's regions. Code written against the
 * article builds unchanged (replace its IAperf.h with a file that includes this one) and gets:
 *   - the validated fenced read (LFENCE/RDTSCP here) instead of CPUID;RDTSC, which traps to a
 *     hypervisor and leaves the end of the window unfenced;
 *   - the start-up overhead subtracted from `clocks`;
 *   - every PERFSTART/PERFSTOP pass accumulated as a region named after the enclosing function,
 *     reported at exit (tickscope/region.h: TICKSCOPE_REGION_OUT and friends);
 *   - seconds from the measured TSC rate: PERFINITMHZ's argument, when above 0, overrides it.
 *
 * As in the article, PERFINITMHZ(mhz) declares `clocks` and `clockspeed` in the enclosing block
 * (so it comes before PERFSTART in the same function), PERFSTOP leaves the elapsed ticks in
 * `clocks`, and PERFREPORT prints "time elapsed = %f sec" with printf. The macros carry their own
 * semicolons, as the article's do, and accept an extra one. */
#ifndef TICKSCOPE_IAPERF_H
#define TICKSCOPE_IAPERF_H

#include <stdio.h>

#include "region.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TKS_REGIONS_DISABLE) || defined(TKS_NO_REGIONS)

#define PERFINITMHZ(clkspd)                                                                \
    __attribute__((unused)) unsigned long long clocks = 0;                                 \
    __attribute__((unused)) double clockspeed = TKS__CAST(double, clkspd) * 1000000;
#define PERFSTART
#define PERFSTOP
#define PERFREPORT

#else

/* Record the override (mhz > 0) and return the rate in Hz the article's `clockspeed` holds. */
double tks__iaperf_init(double mhz);
/* Ticks net of method m's measured overhead (0 when the pass was not measured or is below it). */
unsigned long long tks__iaperf_net(tks_u64 raw, int m);
/* printf the article's line; a clockspeed of 0 means the measured TSC rate. */
void tks__iaperf_report(unsigned long long clocks, double clockspeed);

#define PERFINITMHZ(clkspd)                                                                \
    __attribute__((unused)) unsigned long long clocks = 0;                                 \
    __attribute__((unused)) double clockspeed = tks__iaperf_init(TKS__CAST(double, clkspd));        \
    static tks__region_site tks__iaperf_start, tks__iaperf_stop;
#define PERFSTART tks__region_begin(&tks__iaperf_start, __func__, TKS__REGION_METHOD_ID);
#define PERFSTOP                                                                           \
    clocks = tks__iaperf_net(tks__region_end(&tks__iaperf_stop, __func__, TKS__REGION_METHOD_ID), \
                             TKS__REGION_METHOD_ID);
#define PERFREPORT tks__iaperf_report(clocks, clockspeed);

#endif

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_IAPERF_H */
