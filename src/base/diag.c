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
    char name[64], kind[16];
    size_t n = 0;
    while (tks__diag_spec(code, n, name, sizeof name, kind, sizeof kind) == 0)
        n++;
    return n;
}

int tks__diag_spec(enum tks_diag_code code, size_t i, char *name, size_t nlen, char *kind,
                   size_t klen)
{
    const tks_diag_info *in = tks_diag_info_of(code);
    const char *p = in ? in->values : "";
    for (size_t k = 0; *p; k++) {
        const char *colon = strchr(p, ':'), *end = strchr(p, ' ');
        size_t n, kl;
        if (!colon)
            return -1;
        n = (size_t)(colon - p);
        kl = end ? (size_t)(end - colon - 1) : strlen(colon + 1);
        if (k == i) {
            if (n >= nlen || kl >= klen)
                return -1;
            memcpy(name, p, n);
            name[n] = 0;
            memcpy(kind, colon + 1, kl);
            kind[kl] = 0;
            return 0;
        }
        if (!end)
            return -1;
        p = end + 1;
    }
    return -1;
}

double tks_diag_number(const tks_diag *d, const char *name)
{
    char n[64], kind[16];
    for (size_t i = 0; d && name && i < d->n_values; i++)
        if (tks__diag_spec(d->code, i, n, sizeof n, kind, sizeof kind) == 0 && !strcmp(n, name))
            return d->values[i].str ? NAN : d->values[i].num;
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
