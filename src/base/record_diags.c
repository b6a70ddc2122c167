/* SPDX-License-Identifier: MIT */
/* record_diags.c: diagnostics in a recording (record_diags.h). */
#include "base/record_diags.h"

#include <stdio.h>
#include <string.h>

#include "base/diag.h"

void tks__rec_put_diags(tks__rec_buf *b, const char *name, const tks_diags *d)
{
    char num[72], str[72];
    snprintf(num, sizeof num, "%s#", name);
    snprintf(str, sizeof str, "%s$", name);
    for (size_t i = 0; d && i < d->n; i++) {
        const tks_diag_info *info = tks_diag_info_of(d->items[i].code);
        if (!info)
            continue;
        tks__rec_put_str(b, name, info->id);
        for (size_t k = 0; k < d->items[i].n_values; k++)
            if (d->items[i].values[k].str)
                tks__rec_put_str(b, str, d->items[i].values[k].str);
            else
                tks__rec_put_f64(b, num, d->items[i].values[k].num);
    }
}

void tks__rec_diags_begin(tks__rec_diags_reader *r, const char *name, tks_diags *into)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->into = into;
    r->code = -1;
}

/* Whether the values read are the code's: as many, a name where it names one, else a number. */
static int values_fit(const tks__rec_diags_reader *r)
{
    char name[64], kind[16];
    if (r->n != tks__diag_count((enum tks_diag_code)r->code))
        return 0;
    for (size_t i = 0; i < r->n; i++)
        if (tks__diag_spec((enum tks_diag_code)r->code, i, name, sizeof name, kind,
                           sizeof kind) != 0 ||
            (strcmp(kind, "s") == 0) != (r->v[i].str != NULL))
            return 0;
    return 1;
}

static void flush(tks__rec_diags_reader *r)
{
    if (r->code >= 0 && values_fit(r))
        tks__diag_add(r->into, (enum tks_diag_code)r->code, r->v, r->n);
    r->code = -1;
    r->n = 0;
}

int tks__rec_diags_field(tks__rec_diags_reader *r, const tks__rec_field *f)
{
    size_t len = strlen(r->name);
    char id[64];
    if (f->name_len < len || memcmp(f->name, r->name, len) != 0)
        return 0;
    if (f->name_len == len) {
        flush(r);
        tks__rec_str(f, id, sizeof id);
        r->code = tks_diag_code_from_id(id);
        return 1;
    }
    if (f->name_len != len + 1 || (f->name[len] != '#' && f->name[len] != '$'))
        return 0;
    if (r->code < 0 || r->n >= TKS_DIAG_VALUES_MAX) {
        r->code = -1; /* more values than any code has: leave it out */
        return 1;
    }
    if (f->name[len] == '$') {
        tks__rec_str(f, r->str[r->n], sizeof r->str[0]);
        r->v[r->n] = (tks_diag_value){0, r->str[r->n]};
    } else
        r->v[r->n] = (tks_diag_value){tks__rec_number(f), NULL};
    r->n++;
    return 1;
}

void tks__rec_diags_end(tks__rec_diags_reader *r)
{
    flush(r);
}
