/* SPDX-License-Identifier: MIT */
/* record_write.c: a recording's container written (record_codec.h, docs/recording.md): fields,
 * sections and the packed arrays. */
#include "base/record_codec.h"

#include <stdlib.h>
#include <string.h>

void tks__rec_free(tks__rec_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static int room(tks__rec_buf *b, size_t more)
{
    unsigned char *p;
    size_t cap;
    if (b->oom)
        return -1;
    if (b->n + more <= b->cap)
        return 0;
    cap = b->cap ? b->cap : 256;
    while (cap < b->n + more)
        cap *= 2;
    if (!(p = realloc(b->p, cap))) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static void bytes(tks__rec_buf *b, const void *v, size_t n)
{
    if (n && room(b, n) == 0) {
        memcpy(b->p + b->n, v, n);
        b->n += n;
    }
}

static void varint(tks__rec_buf *b, uint64_t v)
{
    unsigned char t[10];
    size_t n = 0;
    do {
        t[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        t[n] |= v ? 0x80 : 0;
        n++;
    } while (v);
    bytes(b, t, n);
}

static void f64(tks__rec_buf *b, double d)
{
    unsigned char t[8];
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    for (int i = 0; i < 8; i++)
        t[i] = (unsigned char)(u >> (8 * i));
    bytes(b, t, 8);
}

static void name_type(tks__rec_buf *b, const char *name, int type)
{
    size_t n = strlen(name);
    unsigned char t = (unsigned char)type;
    varint(b, n);
    bytes(b, name, n);
    bytes(b, &t, 1);
}

void tks__rec_put_u64(tks__rec_buf *b, const char *name, uint64_t v)
{
    name_type(b, name, TKS__REC_U64);
    varint(b, v);
}

void tks__rec_put_i64(tks__rec_buf *b, const char *name, int64_t v)
{
    name_type(b, name, TKS__REC_I64);
    varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0));
}

void tks__rec_put_f64(tks__rec_buf *b, const char *name, double v)
{
    name_type(b, name, TKS__REC_F64);
    f64(b, v);
}

void tks__rec_put_str(tks__rec_buf *b, const char *name, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    name_type(b, name, TKS__REC_STR);
    varint(b, n);
    bytes(b, s, n);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static unsigned bit_length(uint64_t x)
{
    unsigned w = 0;
    while (w < 64 && (x >> w))
        w++;
    return w;
}

static unsigned varint_len(uint64_t x)
{
    return x ? (bit_length(x) + 6) / 7 : 1;
}

/* One block of up to 64 values: its smallest, the step all lie on above it, the bits each takes
 * (the width that packs the block smallest), then the few that do not fit, each its index and
 * value (an interrupted window among 63 quiet ones widens nothing). */
static void block(tks__rec_buf *b, const uint64_t *v, size_t n)
{
    uint64_t lo = v[0], step = 0, x[TKS__REC_BLOCK];
    unsigned width = 0, used = 0, len[TKS__REC_BLOCK];
    size_t best = SIZE_MAX, exceptions = 0;
    unsigned char acc = 0;
    for (size_t i = 1; i < n; i++)
        lo = v[i] < lo ? v[i] : lo;
    for (size_t i = 0; i < n; i++)
        step = gcd(step, v[i] - lo);
    for (size_t i = 0; i < n; i++) {
        x[i] = step ? (v[i] - lo) / step : 0;
        len[i] = bit_length(x[i]);
    }
    for (unsigned w = 0; w <= 64; w++) {
        size_t cost = (n * w + 7) / 8, e = 0;
        for (size_t i = 0; i < n; i++)
            if (len[i] > w) {
                cost += 1 + varint_len(x[i]);
                e++;
            }
        cost += varint_len(e);
        if (cost < best) {
            best = cost;
            width = w;
            exceptions = e;
        }
    }
    varint(b, lo);
    varint(b, step);
    bytes(b, &(unsigned char){(unsigned char)width}, 1);
    for (size_t i = 0; i < n && width; i++) {
        uint64_t y = len[i] > width ? 0 : x[i];
        for (unsigned bit = 0; bit < width; bit++) {
            acc |= (unsigned char)(((y >> bit) & 1u) << used);
            if (++used == 8) {
                bytes(b, &acc, 1);
                acc = 0;
                used = 0;
            }
        }
    }
    if (used)
        bytes(b, &acc, 1);
    varint(b, exceptions);
    for (size_t i = 0; i < n; i++)
        if (len[i] > width) {
            bytes(b, &(unsigned char){(unsigned char)i}, 1);
            varint(b, x[i]);
        }
}

void tks__rec_put_u64s(tks__rec_buf *b, const char *name, const uint64_t *v, size_t n)
{
    name_type(b, name, TKS__REC_U64S);
    varint(b, n);
    for (size_t i = 0; i < n; i += TKS__REC_BLOCK)
        block(b, v + i, n - i < TKS__REC_BLOCK ? n - i : TKS__REC_BLOCK);
}

/* An array of another unsigned type, packed as tks__rec_put_u64s packs: get(v, i) its i-th. */
static void put_widened(tks__rec_buf *b, const char *name, const void *v, size_t n,
                        uint64_t (*get)(const void *, size_t))
{
    uint64_t t[TKS__REC_BLOCK];
    name_type(b, name, TKS__REC_U64S);
    varint(b, n);
    for (size_t i = 0; i < n; i += TKS__REC_BLOCK) {
        size_t m = n - i < TKS__REC_BLOCK ? n - i : TKS__REC_BLOCK;
        for (size_t j = 0; j < m; j++)
            t[j] = get(v, i + j);
        block(b, t, m);
    }
}

static uint64_t get_u32(const void *v, size_t i) { return ((const uint32_t *)v)[i]; }
static uint64_t get_size(const void *v, size_t i) { return ((const size_t *)v)[i]; }

void tks__rec_put_u32s(tks__rec_buf *b, const char *name, const uint32_t *v, size_t n)
{
    put_widened(b, name, v, n, get_u32);
}

void tks__rec_put_sizes(tks__rec_buf *b, const char *name, const size_t *v, size_t n)
{
    put_widened(b, name, v, n, get_size);
}

void tks__rec_put_f64s(tks__rec_buf *b, const char *name, const double *v, size_t n)
{
    name_type(b, name, TKS__REC_F64S);
    varint(b, n);
    for (size_t i = 0; i < n; i++)
        f64(b, v[i]);
}

void tks__rec_put_header(tks__rec_buf *b)
{
    bytes(b, TKS__REC_MAGIC, TKS__REC_MAGIC_LEN);
    varint(b, TKS__REC_VERSION);
}

void tks__rec_put_section(tks__rec_buf *b, int kind, const tks__rec_buf *body)
{
    unsigned char k = (unsigned char)kind;
    if (body->oom) {
        b->oom = 1;
        return;
    }
    bytes(b, &k, 1);
    varint(b, body->n);
    bytes(b, body->p, body->n);
}
