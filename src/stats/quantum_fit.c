/* SPDX-License-Identifier: MIT */
/* quantum_fit.c: the timer's step from the deltas between consecutive fenced reads (26 ticks on a
 * TSC that advances in 10 ns steps), tolerant of 1% of disturbed deltas. */
#include "tickscope.h"

/* Candidates are capped: a quantum larger than this is not a timer step we expect, and the cap
 * bounds the work at 4096 passes. If the smallest nonzero delta exceeds it, the result is the
 * largest q <= 4096 that divides 99% of the deltas (e.g. 2500 for deltas all 10000). */
#define TKS_QUANTUM_MAX_CANDIDATE 4096u

/* Whether q divides all but at most `allowed` of the nonzero deltas. Stops at the first excess
 * failure, so a wrong candidate costs about allowed * q / (q - 1) divisions, not n. */
static int divides_enough(const uint64_t *deltas, size_t n, uint64_t q, uint64_t allowed)
{
    uint64_t failures = 0;
    for (size_t i = 0; i < n; i++)
        if (deltas[i] != 0 && deltas[i] % q != 0 && ++failures > allowed)
            return 0;
    return 1;
}

uint64_t tks_quantum_from_deltas(const uint64_t *deltas, size_t n)
{
    uint64_t nonzero = 0, smallest = UINT64_MAX;

    if (!deltas)
        return 1;
    for (size_t i = 0; i < n; i++) {
        if (deltas[i] == 0)
            continue;
        nonzero++;
        if (deltas[i] < smallest)
            smallest = deltas[i];
    }
    if (nonzero == 0)
        return 1;
    if (smallest > TKS_QUANTUM_MAX_CANDIDATE)
        smallest = TKS_QUANTUM_MAX_CANDIDATE;
    /* At least 99% divisible means at most floor(nonzero / 100) not divisible. */
    for (uint64_t q = smallest; q > 1; q--)
        if (divides_enough(deltas, n, q, nonzero / 100))
            return q;
    return 1;
}

size_t tks_top_values(const uint64_t *sorted, size_t n, uint64_t *values, uint64_t *counts,
                      size_t k)
{
    size_t have = 0, i = 0;
    if (!sorted || !values || !counts)
        return 0;
    while (i < n) {
        size_t j = i, slot;
        while (j < n && sorted[j] == sorted[i])
            j++;
        /* Insert the run [i, j) by count, keeping earlier (smaller) values first on ties. */
        slot = have;
        while (slot > 0 && counts[slot - 1] < (uint64_t)(j - i))
            slot--;
        if (slot < k) {
            size_t m = have < k ? have : k - 1;
            for (; m > slot; m--) {
                values[m] = values[m - 1];
                counts[m] = counts[m - 1];
            }
            values[slot] = sorted[i];
            counts[slot] = (uint64_t)(j - i);
            if (have < k)
                have++;
        }
        i = j;
    }
    return have;
}
