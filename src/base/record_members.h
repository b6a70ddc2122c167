/* SPDX-License-Identifier: MIT */
/* record_members.h: a struct's scalar members as a recording's fields, from one table that
 * both writes and reads them (docs/recording.md), so that a member added to the table is
 * recorded and replayed with no other line. */
#ifndef TKS_BASE_RECORD_MEMBERS_H
#define TKS_BASE_RECORD_MEMBERS_H

#include <stddef.h>

#include "base/record_codec.h"

enum tks__rec_kind {
    TKS__REC_K_UNSIGNED, /* an unsigned integer of any size, as 'u' */
    TKS__REC_K_SIGNED,   /* a signed integer (or an enum) of any size, as 'i' */
    TKS__REC_K_DOUBLE,   /* as 'd' */
    TKS__REC_K_TEXT      /* a char array, as 's' (cut to its size, always terminated) */
};

typedef struct tks__rec_member {
    const char *name;
    int kind;
    size_t offset, size;
} tks__rec_member;

#define TKS__REC_MEMBER(T, kind, name, member)                                                  \
    {name, TKS__REC_K_##kind, offsetof(T, member), sizeof(((T *)0)->member)}

/* Every member of the table, from the struct at base. */
void tks__rec_put_members(tks__rec_buf *b, const void *base, const tks__rec_member *m, size_t n);
/* f into its member of the struct at base: 1 when it is one of the table's, 0 when not, -1 when
 * it is but its type or value does not fit the member (damage). */
int tks__rec_get_member(const tks__rec_field *f, void *base, const tks__rec_member *m, size_t n);

#endif
