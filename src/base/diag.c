/* SPDX-License-Identifier: MIT */
/* diag.c: the diagnostics list as data, and the collections results carry. Rendering a message
 * is report/'s (report/common/diag_text.c). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"

static const tks_diag_info infos[TKS_DIAG_COUNT] = {
#define ROW(name, sev, id, values, text) {id, TKS_SEV_##sev, values, text},
    TKS_DIAG_LIST(ROW)
#undef ROW
};

const tks_diag_info *tks_diag_info_of(enum tks_diag_code code)
{
    return (int)code >= 0 && code < TKS_DIAG_COUNT ? &infos[code] : NULL;
}

int tks_diag_code_from_id(const char *id)
{
    for (int c = 0; id && c < TKS_DIAG_COUNT; c++)
        if (!strcmp(infos[c].id, id))
            return c;
    return -1;
}

const char *tks_severity_name(enum tks_severity s)
{
    switch (s) {
    case TKS_SEV_NOTE:
        return "note";
    case TKS_SEV_WARNING:
        return "warning";
    case TKS_SEV_ERROR:
        return "error";
    }
    return "?";
}

size_t tks__diag_count(enum tks_diag_code code)
{
    const tks_diag_info *in = tks_diag_info_of(code);
    size_t n = 0;
    if (!in)
        return 0;
    for (const char *p = in->values; *p; p++)
        n += *p == ':';
    return n;
}

double tks_diag_number(const tks_diag *d, const char *name)
{
    const tks_diag_info *in = d ? tks_diag_info_of(d->code) : NULL;
    size_t len = name ? strlen(name) : 0, i = 0;
    if (!in || !len)
        return NAN;
    for (const char *p = in->values; *p && i < d->n_values; i++) {
        const char *colon = strchr(p, ':'), *end = strchr(p, ' ');
        if (!colon)
            break;
        if ((size_t)(colon - p) == len && !strncmp(p, name, len))
            return d->values[i].str ? NAN : d->values[i].num;
        if (!end)
            break;
        p = end + 1;
    }
    return NAN;
}

static void diag_clear(tks_diag *d)
{
    for (size_t i = 0; i < d->n_values; i++)
        free(d->values[i].str);
    d->n_values = 0;
}

int tks__diag_add(tks_diags *ds, enum tks_diag_code code, const tks_diag_value *v, size_t n)
{
    tks_diag *d;
    assert(n == tks__diag_count(code) && n <= TKS_DIAG_VALUES_MAX);
    if (!tks_diag_info_of(code) || n != tks__diag_count(code) || n > TKS_DIAG_VALUES_MAX)
        return TKS_EINVAL;
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? 2 * ds->cap : 4;
        tks_diag *grown = realloc(ds->items, cap * sizeof *grown);
        if (!grown)
            return TKS_ENOMEM;
        ds->items = grown;
        ds->cap = cap;
    }
    d = &ds->items[ds->n];
    memset(d, 0, sizeof *d);
    d->code = code;
    for (size_t i = 0; i < n; i++) {
        d->values[i].num = v[i].num;
        if (v[i].str && !(d->values[i].str = strdup(v[i].str))) {
            diag_clear(d);
            return TKS_ENOMEM;
        }
        d->n_values = i + 1;
    }
    d->n_values = n;
    ds->n++;
    return 0;
}

int tks__diags_append(tks_diags *to, const tks_diags *from)
{
    for (size_t i = 0; from && i < from->n; i++) {
        const tks_diag *d = &from->items[i];
        int rc = tks__diag_add(to, d->code, d->values, d->n_values);
        if (rc)
            return rc;
    }
    return 0;
}

int tks_diags_has(const tks_diags *ds, enum tks_diag_code code)
{
    for (size_t i = 0; ds && i < ds->n; i++)
        if (ds->items[i].code == code)
            return 1;
    return 0;
}

void tks_diags_free(tks_diags *ds)
{
    if (!ds)
        return;
    for (size_t i = 0; i < ds->n; i++)
        diag_clear(&ds->items[i]);
    free(ds->items);
    ds->items = NULL;
    ds->n = ds->cap = 0;
}
