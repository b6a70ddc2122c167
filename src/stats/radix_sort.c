/* SPDX-License-Identifier: MIT */
/* radix_sort.c: tick counts sorted by their digits (least significant first, 11 bits a pass, as
 * many passes as the spread of the values needs: three for windows that span 2^33 ticks). Every
 * ensemble's summary sorts its samples; qsort's comparison calls were a sixth of
 * `tickscope validate`'s time. */
#include <stdlib.h>
#include <string.h>

#include "stats/sort.h"

#define DIGIT_BITS 11
#define BUCKETS (1u << DIGIT_BITS)
/* Below this a comparison sort is as fast as clearing the buckets. */
#define RADIX_MIN 256

void tks__sort_u64_into(const uint64_t *x, size_t n, uint64_t *out)
{
    uint64_t lo = UINT64_MAX, hi = 0, *tmp = NULL;
    const uint64_t *src = x;
    unsigned passes = 0;
    for (size_t i = 0; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    for (uint64_t span = n ? hi - lo : 0; span; span >>= DIGIT_BITS)
        passes++;
    if (n < RADIX_MIN || passes == 0 || !(tmp = malloc(n * sizeof *tmp))) {
        memmove(out, x, n * sizeof *x);
        if (passes) /* all equal when 0: already sorted */
            tks__sort_u64(out, n);
        return;
    }
    /* the last pass writes into out; when x is out and the first would too, start from a copy */
    if (x == out && passes % 2 == 1) {
        memcpy(tmp, x, n * sizeof *x);
        src = tmp;
    }
    for (unsigned p = 0; p < passes; p++) {
        uint64_t *dst = (passes - p) % 2 == 1 ? out : tmp;
        unsigned shift = p * DIGIT_BITS;
        size_t count[BUCKETS] = {0}, at = 0;
        for (size_t i = 0; i < n; i++)
            count[((src[i] - lo) >> shift) & (BUCKETS - 1)]++;
        for (size_t b = 0; b < BUCKETS; b++) {
            size_t c = count[b];
            count[b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[((src[i] - lo) >> shift) & (BUCKETS - 1)]++] = src[i];
        src = dst;
    }
    free(tmp);
}
