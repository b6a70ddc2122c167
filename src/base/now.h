/* SPDX-License-Identifier: MIT */
/* now.h: wall time in seconds (CLOCK_MONOTONIC), for budgets, pilots and progress: never inside
 * a measured window. One definition for every layer that plans by the clock. */
#ifndef TKS_NOW_H
#define TKS_NOW_H

#include <time.h>

static inline double tks__now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
