/* SPDX-License-Identifier: MIT */
/* test_stats_u128.c: the two-halves 128-bit arithmetic the statistics use where the compiler has
 * no __int128 (i386). It is built here on every target, checked on hand-worked values, and, where
 * __int128 exists, against it on a million pseudo-random operands, bit for bit. */
#define TKS_U128_PORTABLE 1
#include "stats/u128.h"

#include <stdint.h>

#include "check.h"

#define M UINT64_MAX
#define HI ((uint64_t)1 << 63)

#define CHECK_U128(v, hi, lo)                                                         \
    do {                                                                              \
        tks__u128 check_v_ = (v);                                                      \
        CHECK_EQ_U64(tks__u128_hi(check_v_), (hi));                                    \
        CHECK_EQ_U64(tks__u128_lo(check_v_), (lo));                                    \
    } while (0)

static void test_by_hand(void)
{
    uint64_t rem = 0;

    CHECK_U128(tks__u128_mul64(M, M), M - 1, 1);                   /* (2^64-1)^2 */
    CHECK_U128(tks__u128_mul64(0xffffffffu, 0xffffffffu), 0, 0xfffffffe00000001u);
    CHECK_U128(tks__u128_mul64((uint64_t)1 << 32, (uint64_t)1 << 32), 1, 0);
    CHECK_U128(tks__u128_mul64(12345, 0), 0, 0);
    CHECK_U128(tks__u128_add64(tks__u128_from(M), 1), 1, 0);        /* carry into the top half */
    CHECK_U128(tks__u128_add(tks__u128_make(M, M), tks__u128_from(1)), 0, 0); /* wraps */
    CHECK_U128(tks__u128_sub(tks__u128_make(1, 0), tks__u128_from(1)), 0, M); /* borrow */
    CHECK_U128(tks__u128_sub(tks__u128_from(0), tks__u128_from(3)), M, M - 2); /* -3 */
    CHECK_U128(tks__u128_mul_small(tks__u128_make(1, M), 3), 5, M - 2); /* (2^65 - 1) * 3 */

    CHECK(tks__u128_lt(tks__u128_from(M), tks__u128_make(1, 0)));
    CHECK(!tks__u128_lt(tks__u128_make(1, 0), tks__u128_make(1, 0)));
    CHECK(tks__u128_le(tks__u128_make(1, 0), tks__u128_make(1, 0)));
    /* Signed: -1 < 0 < 2^127 - 1, and -2^127 is the smallest of all. */
    CHECK(tks__s128_lt(tks__u128_make(M, M), tks__u128_from(0)));
    CHECK(!tks__u128_lt(tks__u128_make(M, M), tks__u128_from(0)));
    CHECK(tks__s128_lt(tks__u128_from(0), tks__u128_make(HI - 1, M)));
    CHECK(tks__s128_lt(tks__u128_make(HI, 0), tks__u128_make(M, M)));
    CHECK(tks__s128_le(tks__u128_make(M, M), tks__u128_make(M, M)));

    /* 2^128 = 2^(3*42+2) = 4 (mod 7), so (2^128 - 1) / 7 leaves 3. */
    CHECK_U128(tks__u128_divmod64(tks__u128_make(M, M), 7, &rem), 0x2492492492492492u,
               0x4924924924924924u);
    CHECK_EQ_U64(rem, 3);
    /* A divisor above 2^63 makes the running remainder overflow 64 bits: the carried bit path. */
    CHECK_U128(tks__u128_divmod64(tks__u128_make(M - 1, 1), M, &rem), 0, M); /* (2^64-1)^2 / (2^64-1) */
    CHECK_EQ_U64(rem, 0);
    CHECK_U128(tks__u128_divmod64(tks__u128_make(HI, 5), HI + 1, &rem), 0, M - 1);
    CHECK_EQ_U64(rem, 7); /* 2^127 + 5 = (2^63 + 1)(2^64 - 2) + 7 */
    CHECK_U128(tks__u128_divmod64(tks__u128_from(10), 4, &rem), 0, 2);
    CHECK_EQ_U64(rem, 2);

    CHECK(tks__u128_to_ld(tks__u128_make(1, 1)) == 0x1p64L + 1);
    CHECK(tks__u128_to_ld(tks__u128_make(M, M)) == 0x1p128L); /* rounds up to 2^128 */
    CHECK(tks__s128_to_ld(tks__u128_make(M, M - 4)) == -5.0L);
    CHECK(tks__s128_to_ld(tks__u128_make(HI, 0)) == -0x1p127L);
    CHECK(tks__s128_to_ld(tks__u128_from(7)) == 7.0L);
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 native_u128;
__extension__ typedef __int128 native_s128;

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void)
{
    /* xorshift64*, with a third of the draws pushed to the extremes the carries care about. */
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    x *= 0x2545f4914f6cdd1du;
    switch (x % 6) {
    case 0: return M - (x >> 60);
    case 1: return x >> 58;
    default: return x;
    }
}

static tks__u128 to_p(native_u128 v) { return tks__u128_make((uint64_t)(v >> 64), (uint64_t)v); }

#define SAME(p, n)                                                                    \
    do {                                                                              \
        native_u128 same_n_ = (n);                                                    \
        tks__u128 same_p_ = (p);                                                       \
        if (tks__u128_hi(same_p_) != (uint64_t)(same_n_ >> 64) ||                      \
            tks__u128_lo(same_p_) != (uint64_t)same_n_)                                \
            bad++;                                                                    \
    } while (0)

static void test_against_native(void)
{
    long bad = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t a = next_u64(), b = next_u64(), c = next_u64(), d = next_u64(), k = next_u64();
        native_u128 x = ((native_u128)a << 64) | b, y = ((native_u128)c << 64) | d;
        tks__u128 px = to_p(x), py = to_p(y);
        uint64_t div = k ? k : 1, rem, nrem = (uint64_t)(x % div);

        SAME(tks__u128_mul64(a, c), (native_u128)a * c);
        SAME(tks__u128_add(px, py), x + y);
        SAME(tks__u128_add64(px, d), x + d);
        SAME(tks__u128_sub(px, py), x - y);
        SAME(tks__u128_mul_small(px, k), x * k);
        SAME(tks__u128_divmod64(px, div, &rem), x / div);
        bad += rem != nrem;
        bad += tks__u128_lt(px, py) != (x < y) || tks__u128_le(px, py) != (x <= y);
        bad += tks__s128_lt(px, py) != ((native_s128)x < (native_s128)y);
        bad += tks__s128_le(px, py) != ((native_s128)x <= (native_s128)y);
        bad += tks__u128_to_ld(px) != (long double)x;
        bad += tks__s128_to_ld(px) != (long double)(native_s128)x;
    }
    CHECK_EQ_U64(bad, 0);
}
#endif

int main(void)
{
    test_by_hand();
#if defined(__SIZEOF_INT128__)
    test_against_native();
#else
    printf("no __int128 on this target: hand-worked values only\n");
#endif
    CHECK_DONE();
}
