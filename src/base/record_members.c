/* SPDX-License-Identifier: MIT */
/* record_members.c: a struct's scalar members as fields (record_members.h). */
#include "base/record_members.h"

#include <stdint.h>
#include <string.h>

static uint64_t get_unsigned(const unsigned char *p, size_t size)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64 = 0;
    switch (size) {
    case 1: memcpy(&u8, p, 1); return u8;
    case 2: memcpy(&u16, p, 2); return u16;
    case 4: memcpy(&u32, p, 4); return u32;
    default: memcpy(&u64, p, 8); return u64;
    }
}

static int64_t get_signed(const unsigned char *p, size_t size)
{
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64 = 0;
    switch (size) {
    case 1: memcpy(&i8, p, 1); return i8;
    case 2: memcpy(&i16, p, 2); return i16;
    case 4: memcpy(&i32, p, 4); return i32;
    default: memcpy(&i64, p, 8); return i64;
    }
}

void tks__rec_put_members(tks__rec_buf *b, const void *base, const tks__rec_member *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)base + m[i].offset;
        double d;
        switch (m[i].kind) {
        case TKS__REC_K_UNSIGNED:
            tks__rec_put_u64(b, m[i].name, get_unsigned(p, m[i].size));
            break;
        case TKS__REC_K_SIGNED:
            tks__rec_put_i64(b, m[i].name, get_signed(p, m[i].size));
            break;
        case TKS__REC_K_DOUBLE:
            memcpy(&d, p, sizeof d);
            tks__rec_put_f64(b, m[i].name, d);
            break;
        default:
            tks__rec_put_str(b, m[i].name, memchr(p, 0, m[i].size) ? (const char *)p : "");
        }
    }
}

static int store(unsigned char *p, size_t size, uint64_t u)
{
    uint8_t u8 = (uint8_t)u;
    uint16_t u16 = (uint16_t)u;
    uint32_t u32 = (uint32_t)u;
    switch (size) {
    case 1: memcpy(p, &u8, 1); return 0;
    case 2: memcpy(p, &u16, 2); return 0;
    case 4: memcpy(p, &u32, 4); return 0;
    case 8: memcpy(p, &u, 8); return 0;
    default: return -1;
    }
}

int tks__rec_get_member(const tks__rec_field *f, void *base, const tks__rec_member *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)base + m[i].offset;
        unsigned bits = (unsigned)(8 * m[i].size);
        if (!tks__rec_is(f, m[i].name))
            continue;
        switch (m[i].kind) {
        case TKS__REC_K_UNSIGNED:
            if (f->type != TKS__REC_U64 || (bits < 64 && f->u >> bits))
                return -1;
            return store(p, m[i].size, f->u) == 0 ? 1 : -1;
        case TKS__REC_K_SIGNED:
            if (f->type != TKS__REC_I64 ||
                (bits < 64 && (f->i < -((int64_t)1 << (bits - 1)) ||
                               f->i >= ((int64_t)1 << (bits - 1)))))
                return -1;
            return store(p, m[i].size, (uint64_t)f->i) == 0 ? 1 : -1;
        case TKS__REC_K_DOUBLE:
            if (f->type != TKS__REC_F64)
                return -1;
            memcpy(p, &f->d, sizeof f->d);
            return 1;
        default:
            if (f->type != TKS__REC_STR)
                return -1;
            tks__rec_str(f, (char *)p, m[i].size);
            return 1;
        }
    }
    return 0;
}
