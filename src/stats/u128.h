/* SPDX-License-Identifier: MIT */
/* u128.h: the exact 128-bit integers the statistics keep their sums in: the compiler's
 * unsigned __int128 where it has one (x86-64, arm64), two 64-bit halves where it does not (i386).
 * Values wrap modulo 2^128; tks__s128_* read them as two's complement for the fences' signed bounds.
 * Both forms give the same bits, and conversions round once (to nearest), so results agree. */
#ifndef TKS_STATS_U128_H
#define TKS_STATS_U128_H

#include <stdint.h>

/* TKS_U128_PORTABLE forces the two-halves form where __int128 exists, so tests can check it
 * against the native one. */
#if defined(__SIZEOF_INT128__) && !defined(TKS_U128_PORTABLE)

#define TKS_U128_NATIVE 1
__extension__ typedef unsigned __int128 tks__u128;
__extension__ typedef __int128 tks__u128_signed;

static inline tks__u128 tks__u128_from(uint64_t x) { return x; }
static inline tks__u128 tks__u128_make(uint64_t hi, uint64_t lo) { return ((tks__u128)hi << 64) | lo; }
static inline uint64_t tks__u128_lo(tks__u128 a) { return (uint64_t)a; }
static inline uint64_t tks__u128_hi(tks__u128 a) { return (uint64_t)(a >> 64); }
static inline tks__u128 tks__u128_add(tks__u128 a, tks__u128 b) { return a + b; }
static inline tks__u128 tks__u128_add64(tks__u128 a, uint64_t b) { return a + b; }
static inline tks__u128 tks__u128_sub(tks__u128 a, tks__u128 b) { return a - b; }
static inline tks__u128 tks__u128_mul64(uint64_t a, uint64_t b) { return (tks__u128)a * b; }
static inline tks__u128 tks__u128_mul_small(tks__u128 a, uint64_t k) { return a * k; }
static inline int tks__u128_lt(tks__u128 a, tks__u128 b) { return a < b; }
static inline int tks__u128_le(tks__u128 a, tks__u128 b) { return a <= b; }
static inline int tks__s128_lt(tks__u128 a, tks__u128 b)
{
    return (tks__u128_signed)a < (tks__u128_signed)b;
}
static inline int tks__s128_le(tks__u128 a, tks__u128 b)
{
    return (tks__u128_signed)a <= (tks__u128_signed)b;
}
/* a / d, with the remainder in *rem. d > 0. */
static inline tks__u128 tks__u128_divmod64(tks__u128 a, uint64_t d, uint64_t *rem)
{
    *rem = (uint64_t)(a % d);
    return a / d;
}
static inline long double tks__u128_to_ld(tks__u128 a) { return (long double)a; }
static inline long double tks__s128_to_ld(tks__u128 a) { return (long double)(tks__u128_signed)a; }

#else /* two 64-bit halves */

typedef struct tks__u128 {
    uint64_t lo, hi;
} tks__u128;

static inline tks__u128 tks__u128_make(uint64_t hi, uint64_t lo)
{
    tks__u128 r;
    r.lo = lo;
    r.hi = hi;
    return r;
}
static inline tks__u128 tks__u128_from(uint64_t x) { return tks__u128_make(0, x); }
static inline uint64_t tks__u128_lo(tks__u128 a) { return a.lo; }
static inline uint64_t tks__u128_hi(tks__u128 a) { return a.hi; }
static inline tks__u128 tks__u128_add(tks__u128 a, tks__u128 b)
{
    uint64_t lo = a.lo + b.lo;
    return tks__u128_make(a.hi + b.hi + (lo < a.lo), lo);
}
static inline tks__u128 tks__u128_add64(tks__u128 a, uint64_t b)
{
    uint64_t lo = a.lo + b;
    return tks__u128_make(a.hi + (lo < b), lo);
}
static inline tks__u128 tks__u128_sub(tks__u128 a, tks__u128 b)
{
    return tks__u128_make(a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo);
}
/* 64 x 64 -> 128 from four 32 x 32 -> 64 products (schoolbook). */
static inline tks__u128 tks__u128_mul64(uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* Three terms below 2^32 each: the middle column cannot overflow 64 bits. */
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    return tks__u128_make(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (uint32_t)p00);
}
static inline tks__u128 tks__u128_mul_small(tks__u128 a, uint64_t k)
{
    tks__u128 r = tks__u128_mul64(a.lo, k);
    r.hi += a.hi * k;
    return r;
}
static inline int tks__u128_lt(tks__u128 a, tks__u128 b)
{
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
static inline int tks__u128_le(tks__u128 a, tks__u128 b) { return !tks__u128_lt(b, a); }
/* Flipping the sign bits maps two's complement order onto unsigned order. */
static inline int tks__s128_lt(tks__u128 a, tks__u128 b)
{
    a.hi ^= (uint64_t)1 << 63;
    b.hi ^= (uint64_t)1 << 63;
    return tks__u128_lt(a, b);
}
static inline int tks__s128_le(tks__u128 a, tks__u128 b) { return !tks__s128_lt(b, a); }
/* Restoring division one bit at a time: used once per summary, never in a sample loop. */
static inline tks__u128 tks__u128_divmod64(tks__u128 a, uint64_t d, uint64_t *rem)
{
    tks__u128 q = tks__u128_make(0, 0);
    uint64_t r = 0;
    for (int i = 127; i >= 0; i--) {
        uint64_t top = r >> 63;
        uint64_t bit = i >= 64 ? (a.hi >> (i - 64)) & 1 : (a.lo >> i) & 1;
        r = (r << 1) | bit;
        /* r < d before the shift, so the true 65-bit value minus d fits in 64 bits. */
        if (top || r >= d) {
            r -= d;
            if (i >= 64)
                q.hi |= (uint64_t)1 << (i - 64);
            else
                q.lo |= (uint64_t)1 << i;
        }
    }
    *rem = r;
    return q;
}
/* hi * 2^64 is exact in a long double with a 64-bit (x87) or wider significand, so the one
 * rounding is the addition's: the same correctly rounded value the native conversion gives. */
static inline long double tks__u128_to_ld(tks__u128 a)
{
    return (long double)a.hi * 0x1p64L + (long double)a.lo;
}
static inline long double tks__s128_to_ld(tks__u128 a)
{
    if (a.hi >> 63)
        return -tks__u128_to_ld(tks__u128_sub(tks__u128_make(0, 0), a));
    return tks__u128_to_ld(a);
}

#endif
#endif
