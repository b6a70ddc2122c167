/* SPDX-License-Identifier: MIT */
/* tsc_sources.h: the TSC rates the machine declares (CPUID, the hypervisor, the kernel, the arm64
 * generic timer), as opposed to the one tickscope measures. */
#ifndef TKS_TSC_SOURCES_H
#define TKS_TSC_SOURCES_H

#include <stddef.h>

#include "tickscope.h"

/* Append every declared rate found to out[0..max); returns how many were written. root is where
 * /dev/kmsg is read from (tests). */
size_t tks__tsc_declared(const char *root, tks_hz_reading *out, size_t max);

/* The kernel log's TSC rate: the last "tsc: Refined TSC clocksource calibration: X MHz" if any,
 * else "tsc: Detected X MHz". Returns 1 and sets *hz and *refined when found, 0 otherwise. */
int tks__parse_kernel_log_tsc(const char *log, double *hz, int *refined);

#endif
