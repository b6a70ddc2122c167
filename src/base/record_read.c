/* SPDX-License-Identifier: MIT */
/* record_read.c: a recording's container read (record_codec.h, docs/recording.md): every length
 * and count checked against the bytes there are, so that damage is a refusal, never a read past
 * the end. */
#include "base/record_codec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int get_varint(const unsigned char *p, size_t n, size_t *pos, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        unsigned char c;
        if (*pos >= n)
            return -1;
        c = p[(*pos)++];
        if (shift == 63 && (c & 0x7e))
            return -1; /* more than 64 bits */
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

static double get_f64(const unsigned char *p)
{
    uint64_t u = 0;
    double d;
    for (int i = 0; i < 8; i++)
        u |= (uint64_t)p[i] << (8 * i);
    memcpy(&d, &u, sizeof d);
    return d;
}

int tks__rec_header(const unsigned char *p, size_t n, size_t *pos, unsigned *version)
{
    uint64_t v;
    *pos = TKS__REC_MAGIC_LEN;
    if (n < TKS__REC_MAGIC_LEN || memcmp(p, TKS__REC_MAGIC, TKS__REC_MAGIC_LEN) != 0 ||
        get_varint(p, n, pos, &v) != 0 || v > 0xffff)
        return -1;
    *version = (unsigned)v;
    return 0;
}

int tks__rec_section(const unsigned char *p, size_t n, size_t *pos, int *kind,
                     const unsigned char **body, size_t *len)
{
    uint64_t l;
    if (*pos == n)
        return 0;
    *kind = p[(*pos)++];
    if (get_varint(p, n, pos, &l) != 0 || l > n - *pos)
        return -1;
    *body = p + *pos;
    *len = (size_t)l;
    *pos += (size_t)l;
    return 1;
}

/* A block's values that did not fit its width: past them, and (out not NULL) each put in its
 * place, lo + x * step. */
static int exceptions(const unsigned char *p, size_t n, size_t *pos, size_t m, uint64_t *out,
                      uint64_t lo, uint64_t step)
{
    uint64_t e, x;
    if (get_varint(p, n, pos, &e) != 0 || e > m)
        return -1;
    for (uint64_t i = 0; i < e; i++) {
        unsigned idx;
        if (*pos >= n || (idx = p[(*pos)++]) >= m || get_varint(p, n, pos, &x) != 0)
            return -1;
        if (out)
            out[idx] = lo + x * step;
    }
    return 0;
}

/* Past one packed block of m values; its width in *width. */
static int skip_block(const unsigned char *p, size_t n, size_t *pos, size_t m, unsigned *width)
{
    uint64_t lo, step, bytes_needed;
    if (get_varint(p, n, pos, &lo) != 0 || get_varint(p, n, pos, &step) != 0 || *pos >= n)
        return -1;
    *width = p[(*pos)++];
    if (*width > 64 || (*width && !step))
        return -1;
    bytes_needed = ((uint64_t)m * *width + 7) / 8;
    if (bytes_needed > n - *pos)
        return -1;
    *pos += (size_t)bytes_needed;
    return exceptions(p, n, pos, m, NULL, 0, 0);
}

static int skip_array(const unsigned char *p, size_t n, size_t *pos, int type, size_t count)
{
    uint64_t v;
    unsigned w;
    switch (type) {
    case TKS__REC_U64S:
        for (size_t i = 0; i < count; i += TKS__REC_BLOCK)
            if (skip_block(p, n, pos, count - i < TKS__REC_BLOCK ? count - i : TKS__REC_BLOCK, &w) != 0)
                return -1;
        return 0;
    case TKS__REC_VARINTS:
        for (size_t i = 0; i < count; i++)
            if (get_varint(p, n, pos, &v) != 0)
                return -1;
        return 0;
    case TKS__REC_F64S:
        if (count > (n - *pos) / 8)
            return -1;
        *pos += count * 8;
        return 0;
    default:
        return -1;
    }
}

int tks__rec_field_next(const unsigned char *p, size_t n, size_t *pos, tks__rec_field *f)
{
    uint64_t l, v;
    memset(f, 0, sizeof *f);
    if (*pos == n)
        return 0;
    if (get_varint(p, n, pos, &l) != 0 || l == 0 || l > 64 || l >= n - *pos)
        return -1;
    f->name = (const char *)p + *pos;
    f->name_len = (size_t)l;
    *pos += (size_t)l;
    f->type = p[(*pos)++];
    switch (f->type) {
    case TKS__REC_U64:
        return get_varint(p, n, pos, &f->u) == 0 ? 1 : -1;
    case TKS__REC_I64:
        if (get_varint(p, n, pos, &v) != 0)
            return -1;
        f->i = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
        return 1;
    case TKS__REC_F64:
        if (n - *pos < 8)
            return -1;
        f->d = get_f64(p + *pos);
        *pos += 8;
        return 1;
    case TKS__REC_STR:
        if (get_varint(p, n, pos, &l) != 0 || l > n - *pos)
            return -1;
        f->data = p + *pos;
        f->len = (size_t)l;
        *pos += (size_t)l;
        return 1;
    case TKS__REC_U64S:
    case TKS__REC_VARINTS:
    case TKS__REC_F64S:
        if (get_varint(p, n, pos, &v) != 0 || v > n * TKS__REC_BLOCK)
            return -1;
        f->count = (size_t)v;
        f->data = p + *pos;
        if (skip_array(p, n, pos, f->type, f->count) != 0)
            return -1;
        f->len = (size_t)(p + *pos - f->data);
        return 1;
    default:
        return -1;
    }
}

int tks__rec_is(const tks__rec_field *f, const char *name)
{
    return strlen(name) == f->name_len && memcmp(f->name, name, f->name_len) == 0;
}

int tks__rec_u64s(const tks__rec_field *f, uint64_t *out)
{
    size_t pos = 0, n = f->len;
    const unsigned char *p = f->data;
    if (f->type == TKS__REC_VARINTS) {
        for (size_t i = 0; i < f->count; i++)
            if (get_varint(p, n, &pos, &out[i]) != 0)
                return -1;
        return 0;
    }
    if (f->type != TKS__REC_U64S)
        return -1;
    for (size_t i = 0; i < f->count; i += TKS__REC_BLOCK) {
        size_t m = f->count - i < TKS__REC_BLOCK ? f->count - i : TKS__REC_BLOCK;
        uint64_t lo, step;
        unsigned width, used = 0;
        if (get_varint(p, n, &pos, &lo) != 0 || get_varint(p, n, &pos, &step) != 0 || pos >= n)
            return -1;
        width = p[pos++];
        if (width > 64 || (width && !step) || ((uint64_t)m * width + 7) / 8 > n - pos)
            return -1;
        for (size_t j = 0; j < m; j++) {
            uint64_t x = 0;
            for (unsigned bit = 0; bit < width; bit++) {
                x |= (uint64_t)((p[pos] >> used) & 1u) << bit;
                if (++used == 8) {
                    used = 0;
                    pos++;
                }
            }
            out[i + j] = lo + x * step; /* wraps only for damaged input: no overflow trap */
        }
        if (used)
            pos++;
        if (exceptions(p, n, &pos, m, out + i, lo, step) != 0)
            return -1;
    }
    return 0;
}

int tks__rec_u32s(const tks__rec_field *f, uint32_t *out)
{
    uint64_t *t = malloc((f->count ? f->count : 1) * sizeof *t);
    int rc = t ? tks__rec_u64s(f, t) : -1;
    for (size_t i = 0; rc == 0 && i < f->count; i++) {
        if (t[i] > UINT32_MAX)
            rc = -1;
        out[i] = (uint32_t)t[i];
    }
    free(t);
    return rc;
}

int tks__rec_sizes(const tks__rec_field *f, size_t *out)
{
    uint64_t *t = malloc((f->count ? f->count : 1) * sizeof *t);
    int rc = t ? tks__rec_u64s(f, t) : -1;
    for (size_t i = 0; rc == 0 && i < f->count; i++) {
        if (t[i] > SIZE_MAX)
            rc = -1;
        out[i] = (size_t)t[i];
    }
    free(t);
    return rc;
}

int tks__rec_f64s(const tks__rec_field *f, double *out)
{
    if (f->type != TKS__REC_F64S)
        return -1;
    for (size_t i = 0; i < f->count; i++)
        out[i] = get_f64(f->data + 8 * i);
    return 0;
}

double tks__rec_number(const tks__rec_field *f)
{
    switch (f->type) {
    case TKS__REC_U64:
        return (double)f->u;
    case TKS__REC_I64:
        return (double)f->i;
    case TKS__REC_F64:
        return f->d;
    default:
        return NAN;
    }
}

void tks__rec_str(const tks__rec_field *f, char *buf, size_t size)
{
    size_t n = f->type == TKS__REC_STR ? f->len : 0;
    if (!size)
        return;
    n = n < size - 1 ? n : size - 1;
    if (n)
        memcpy(buf, f->data, n);
    buf[n] = 0;
}
