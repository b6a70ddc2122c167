/* SPDX-License-Identifier: MIT */
/* diag.h: adding diagnostics to a result (tickscope/diag.h has the list and the public side).
 * A finder adds a code and its values; it never writes the message (report/ renders it). */
#ifndef TKS_BASE_DIAG_H
#define TKS_BASE_DIAG_H

#include "tickscope/diag.h"

/* Add code with n values (the list's count for it: a mismatch is refused with TKS_EINVAL and
 * asserted in debug builds); names are copied. 0, TKS_ENOMEM or TKS_EINVAL. */
int tks__diag_add(tks_diags *ds, enum tks_diag_code code, const tks_diag_value *v, size_t n);
/* Append copies of every diagnostic of from. 0 or TKS_ENOMEM. */
int tks__diags_append(tks_diags *to, const tks_diags *from);
/* How many values the list names for code. */
size_t tks__diag_count(enum tks_diag_code code);
/* Value i of code as the list names it: its name and its kind ("%.3f", "s", "e") into the
 * buffers; 0, or -1 past the last value (or a name or kind longer than its buffer). The one
 * reader of the list's "name:kind name:kind" strings. */
int tks__diag_spec(enum tks_diag_code code, size_t i, char *name, size_t nlen, char *kind,
                   size_t klen);

#define TKS__DN(x) ((tks_diag_value){(double)(x), NULL})
#define TKS__DS(s) ((tks_diag_value){0, (char *)(s)})
#define TKS__DIAG_ARGS(...) ((const tks_diag_value[]){__VA_ARGS__})
#define tks__diag(ds, code, ...)                                                                   \
    tks__diag_add((ds), (code), TKS__DIAG_ARGS(__VA_ARGS__),                                       \
                  sizeof TKS__DIAG_ARGS(__VA_ARGS__) / sizeof(tks_diag_value))
#define tks__diag0(ds, code) tks__diag_add((ds), (code), NULL, 0)

#endif
