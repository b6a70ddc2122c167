/* SPDX-License-Identifier: MIT */
/* calibrate.c: the TSC rate measured against CLOCK_MONOTONIC_RAW: many reference readings, each
 * bracketed by two ordered TSC reads, fitted by least squares (stats/clockfit.c). */
#include <stdlib.h>
#include <time.h>

#include "tickscope.h"

#define CAL_POINTS_MAX 4096u
#define CAL_DEFAULT_SECONDS 0.05
/* One point per slot: the tightest bracket among all tries in the slot wins, so an interrupt in
 * one try costs nothing. */
#define CAL_SLOT_NS 20000u

/* An ordered read: nothing before it may still be running, nothing after may have started;
 * the first method of this architecture (lfence, isb), unless this CPU lacks it (an x86 without
 * RDTSCP or SSE2): then the plain counter. */
static inline uint64_t ordered_read(int fenced)
{
    return fenced ? tks__begin_first() : tks__read_plain();
}

static uint64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int tks_tsc_calibrate(double seconds, tks_tsc_calibration *out)
{
    uint64_t *lo, *hi, *ns, start, end, slot_end;
    size_t n = 0;
    int rc, fenced;
    if (!out || seconds < 0 || seconds > 10)
        return TKS_EINVAL;
    if (seconds == 0)
        seconds = CAL_DEFAULT_SECONDS;
    fenced = tks__begin_first_available(tks_cpu_features_get());
    lo = malloc(3 * CAL_POINTS_MAX * sizeof *lo);
    if (!lo)
        return TKS_ENOMEM;
    hi = lo + CAL_POINTS_MAX;
    ns = hi + CAL_POINTS_MAX;

    start = raw_ns();
    end = start + (uint64_t)(seconds * 1e9);
    slot_end = start + CAL_SLOT_NS;
    lo[0] = 0, hi[0] = UINT64_MAX;
    for (;;) {
        uint64_t a = ordered_read(fenced), t = raw_ns(), b = ordered_read(fenced);
        if (b >= a && b - a < hi[n] - lo[n]) {
            lo[n] = a, hi[n] = b, ns[n] = t;
        }
        if (t < slot_end)
            continue;
        if (hi[n] != UINT64_MAX)
            n++;
        if (t >= end || n == CAL_POINTS_MAX)
            break;
        lo[n] = 0, hi[n] = UINT64_MAX;
        slot_end = t + CAL_SLOT_NS;
    }
    rc = tks_tsc_fit(lo, hi, ns, n, out);
    free(lo);
    return rc;
}
