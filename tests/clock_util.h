/* SPDX-License-Identifier: MIT */
/* clock_util.h: whether a test's clock can see a short window at all. On a target other than x86
 * the counter may be coarser than a short window (qemu-aarch64's reads 0 ticks for an empty one,
 * 100 adds included): the checks of such windows' figures are skipped there, with the reason. On
 * x86 the TSC always moves across a window, so a 0 there is a defect, never a skip. */
#ifndef TKS_TEST_CLOCK_UTIL_H
#define TKS_TEST_CLOCK_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope.h"

/* 1 when some of the n windows read 0 ticks and none read sane or more, on a target other than
 * x86: the zeros are the counter's coarseness, not a defect. */
static inline int clock_too_coarse(const uint64_t *ticks, size_t n, uint64_t sane)
{
#if defined(TKS_ARCH_X86)
    (void)ticks;
    (void)n;
    (void)sane;
    return 0;
#else
    size_t zeros = 0;
    for (size_t i = 0; i < n; i++) {
        if (ticks[i] >= sane)
            return 0;
        zeros += ticks[i] == 0;
    }
    return zeros > 0;
#endif
}

/* The method when the CPU has no fenced one: the unfenced one of the architecture. */
static inline enum tks_method clock_unfenced_method(void)
{
#if defined(TKS_ARCH_X86)
    return TKS_METHOD_RDTSC;
#else
    return TKS_METHOD_ISB;
#endif
}

#endif
