/* SPDX-License-Identifier: MIT */
/* wide.c: what tickscope/region.h's inline path leaves out of line: passes of 2^32 ticks or more,
 * ends read before their begins, and reservoirs past 2^32 passes. */
#include <stdint.h>

#include "tickscope/region.h"

void tks__region_add_wide(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 hi = d >> 32, lo = d & 0xffffffffu, mid, sq_lo, sq_hi;
    tks_u64 n = slot->count;
    if ((int64_t)d < 0) {
        /* The end was read before the begin: the two readings came from CPUs whose TSCs differ. */
        TKS__STORE(&slot->negative, slot->negative + 1);
        return;
    }
    TKS__SEQ_OPEN(&slot->seq, n);
    tks__region_tally(slot, d);
    /* d^2 = hi^2 2^64 + 2 hi lo 2^32 + lo^2, with hi < 2^31 so 2 hi lo < 2^64. */
    mid = 2 * hi * lo;
    sq_lo = lo * lo;
    sq_hi = hi * hi + (mid >> 32);
    sq_lo += mid << 32;
    sq_hi += sq_lo < (mid << 32);
    sq_lo += slot->sq_lo;
    TKS__STORE(&slot->sq_hi, slot->sq_hi + sq_hi + (sq_lo < slot->sq_lo));
    TKS__STORE(&slot->sq_lo, sq_lo);
    TKS__SEQ_CLOSE(&slot->seq, n);
    if (slot->res_cap)
        tks__region_keep_wide(slot, d);
}

/* The inline multiply-high draws from 32 random bits, too few past 2^32 passes: a division. */
void tks__region_keep_wide(struct tks__region_slot *slot, tks_u64 d)
{
    tks_u64 n = slot->count, x = slot->rng, j;
    if (n <= slot->res_cap) {
        TKS__STORE(&slot->res[n - 1], d);
        return;
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    slot->rng = x;
    j = x % n;
    if (j < slot->res_cap)
        TKS__STORE(&slot->res[j], d);
}
