/* SPDX-License-Identifier: MIT */
/* acc.c: exact moments of a region's passes merged over threads, in 32-bit limbs so that
 * every architecture (i386 has no 128-bit integers) computes the same figures, and the merge of
 * per-thread reservoirs into one uniform sample. */
#include "region/acc.h"

#include <math.h>
#include <string.h>

void tks__region_acc_init(tks__region_acc *a)
{
    memset(a, 0, sizeof *a);
    a->min = UINT64_MAX;
}

/* acc[0..n) += v (v given as limbs, nv <= n); the caller keeps the total below 2^(32n). */
static void add_limbs(uint32_t *acc, int n, const uint32_t *v, int nv)
{
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint64_t t = (uint64_t)acc[i] + (i < nv ? v[i] : 0) + carry;
        acc[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

static void u64_limbs(uint64_t v, uint32_t out[2])
{
    out[0] = (uint32_t)v;
    out[1] = (uint32_t)(v >> 32);
}

/* out[0..na+nb) = a * b, schoolbook on 32-bit limbs with 64-bit partial products. */
static void mul_limbs(const uint32_t *a, int na, const uint32_t *b, int nb, uint32_t *out)
{
    for (int i = 0; i < na + nb; i++)
        out[i] = 0;
    for (int i = 0; i < na; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < nb; j++) {
            /* (2^32-1)^2 + 2 (2^32-1) = 2^64 - 1: cannot overflow */
            uint64_t t = (uint64_t)a[i] * b[j] + out[i + j] + carry;
            out[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        out[i + nb] = (uint32_t)carry;
    }
}

static long double limbs_ld(const uint32_t *a, int n)
{
    long double v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v * 4294967296.0L + (long double)a[i];
    return v;
}

void tks__region_acc_merge_slot(tks__region_acc *a, const struct tks__region_slot *s)
{
    uint32_t v[4];
    if (!s->open && !s->count && !s->ends_without_begin && !s->unterminated && !s->negative)
        return; /* never used on that thread */
    a->count += s->count;
    u64_limbs(s->sum, v);
    add_limbs(a->sum, 4, v, 2);
    u64_limbs(s->sq_lo, v);
    u64_limbs(s->sq_hi, v + 2);
    add_limbs(a->sq, 6, v, 4);
    if (s->count && s->min < a->min)
        a->min = s->min;
    if (s->count && s->max > a->max)
        a->max = s->max;
    a->ends_without_begin += s->ends_without_begin;
    a->unterminated += s->unterminated + (s->open > 1 ? s->open - 1 : 0);
    a->negative += s->negative;
    a->moved += s->moved;
    a->threads += s->threads;
}

long double tks__region_acc_sum(const tks__region_acc *a)
{
    return limbs_ld(a->sum, 4);
}

double tks__region_acc_mean(const tks__region_acc *a)
{
    return a->count ? (double)(limbs_ld(a->sum, 4) / (long double)a->count) : NAN;
}

double tks__region_acc_variance(const tks__region_acc *a)
{
    uint32_t n[2], nq[8], s2[8];
    uint64_t borrow = 0;
    long double n2;

    if (a->count == 0)
        return NAN;
    /* n * sum(x^2) < 2^64 * 2^192 and sum(x)^2 < 2^256: both fit in eight limbs; the first is
     * never smaller than the second (Cauchy-Schwarz), so the difference is exact and >= 0. */
    u64_limbs(a->count, n);
    mul_limbs(n, 2, a->sq, 6, nq);
    mul_limbs(a->sum, 4, a->sum, 4, s2);
    for (int i = 0; i < 8; i++) {
        uint64_t d = (uint64_t)nq[i] - s2[i] - borrow;
        nq[i] = (uint32_t)d;
        borrow = (d >> 32) & 1;
    }
    n2 = (long double)a->count * (long double)a->count;
    return (double)(limbs_ld(nq, 8) / n2);
}

static uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

size_t tks__region_merge_kept(const uint64_t *const *kept, const size_t *len, const uint64_t *count,
                             size_t nsources, size_t cap, uint64_t seed, uint64_t *out)
{
    long double total = 0;
    size_t w = 0;
    uint64_t rng = seed ? seed : 0x9e3779b97f4a7c15ull;

    for (size_t i = 0; i < nsources; i++)
        total += (long double)count[i];
    if (total <= 0 || cap == 0)
        return 0;
    for (size_t i = 0; i < nsources; i++) {
        /* Every kept value stands for count/len passes; taking a share of cap proportional to
         * count keeps that weight equal across sources. When everything fits, take it all. */
        size_t take = len[i];
        if (total > (long double)cap) {
            long double share = (long double)cap * (long double)count[i] / total;
            take = (size_t)share;
            if (take > len[i])
                take = len[i];
        }
        if (take == len[i]) {
            memcpy(out + w, kept[i], take * sizeof *out);
            w += take;
            continue;
        }
        /* A random subset of take values: a partial Fisher-Yates over indices, in place in out's
         * unused tail would need len[i] room, so draw without replacement by selection sampling
         * (Knuth's algorithm S), which needs no scratch. */
        size_t need = take;
        for (size_t k = 0; k < len[i] && need; k++) {
            uint64_t r = xorshift(&rng) >> 11; /* 53 bits */
            if ((long double)r * (long double)(len[i] - k) < (long double)need * 9007199254740992.0L) {
                out[w++] = kept[i][k];
                need--;
            }
        }
    }
    return w;
}

uint64_t tks__region_step_of(const uint64_t *sorted, size_t n)
{
    uint64_t g = 0, base = 0;
    int have_base = 0;
    size_t need = n / 1000 > 2 ? n / 1000 : 2;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && sorted[j] == sorted[i])
            j++;
        if (j - i >= need) {
            if (!have_base) {
                base = sorted[i];
                have_base = 1;
            } else {
                uint64_t a = sorted[i] - base, b = g;
                while (b) {
                    uint64_t t = a % b;
                    a = b;
                    b = t;
                }
                g = a;
            }
        }
        i = j;
    }
    return g ? g : 1;
}

double tks__region_net(double raw, double sub, double resolution, unsigned bit, unsigned *below)
{
    double v = raw - sub;
    if (isnan(raw))
        return NAN;
    if (v < resolution) {
        *below |= bit;
        return v > 0 ? v : 0;
    }
    return v;
}
