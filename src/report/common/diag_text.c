/* SPDX-License-Identifier: MIT */
/* diag_text.c: a diagnostic's message, rendered from its code's template (tickscope/diag.h), and
 * the diagnostics of a result as JSON and as text lines. The only place a diagnostic becomes
 * words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "report/common/report.h"

/* The index of the value named name[0..len) in d's code, its kind into kind; -1 if none. */
static int value_of(const tks_diag *d, const char *name, size_t len, char *kind, size_t klen)
{
    char n[64];
    for (size_t i = 0; tks__diag_spec(d->code, i, n, sizeof n, kind, klen) == 0; i++)
        if (strlen(n) == len && !strncmp(n, name, len))
            return (int)i;
    return -1;
}

static void put_value(FILE *f, const tks_diag *d, int i, const char *kind)
{
    const tks_diag_value *v = (size_t)i < d->n_values ? &d->values[i] : NULL;
    if (!v)
        fputs("?", f);
    else if (!strcmp(kind, "s"))
        fputs(v->str ? v->str : "?", f);
    else if (!strcmp(kind, "e"))
        fputs(strerror((int)v->num), f);
    else if (v->num != v->num)
        fputs("n/a", f); /* not measured (NaN) */
    else
        fprintf(f, kind, v->num);
}

char *tks_diag_message(const tks_diag *d)
{
    const tks_diag_info *in = d ? tks_diag_info_of(d->code) : NULL;
    char *buf = NULL, kind[16];
    size_t size = 0;
    FILE *f;
    if (!in)
        return NULL;
    f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    for (const char *p = in->text; *p; p++) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        int i = close ? value_of(d, p + 1, (size_t)(close - p - 1), kind, sizeof kind) : -1;
        if (i < 0) {
            fputc(*p, f); /* not a value: "{r}" in asm's advice stays as it is */
            continue;
        }
        put_value(f, d, i, kind);
        p = close;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

void tks__json_diags(tks__json *j, const tks_diags *ds)
{
    tks__json_begin_array(j, "diagnostics");
    tks__json_diag_items(j, ds);
    tks__json_end_array(j);
}

void tks__json_diag_items(tks__json *j, const tks_diags *ds)
{
    for (size_t i = 0; ds && i < ds->n; i++) {
        const tks_diag *d = &ds->items[i];
        const tks_diag_info *in = tks_diag_info_of(d->code);
        char *msg = tks_diag_message(d), name[64], kind[16];
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "code", in->id);
        tks__json_string(j, "severity", tks_severity_name(in->severity));
        tks__json_string(j, "message", msg ? msg : "");
        tks__json_begin_object(j, "values");
        for (size_t k = 0; k < d->n_values &&
                           tks__diag_spec(d->code, k, name, sizeof name, kind, sizeof kind) == 0;
             k++) {
            if (!strcmp(kind, "s"))
                tks__json_string(j, name, d->values[k].str);
            else
                tks__json_double(j, name, d->values[k].num);
        }
        tks__json_end_object(j);
        tks__json_end_object(j);
        free(msg);
    }
}

void tks__json_diag_messages(tks__json *j, const char *key, const tks_diags *ds)
{
    tks__json_begin_array(j, key);
    for (size_t i = 0; ds && i < ds->n; i++) {
        char *msg = tks_diag_message(&ds->items[i]);
        tks__json_string(j, NULL, msg ? msg : "");
        free(msg);
    }
    tks__json_end_array(j);
}

void tks__diags_print(FILE *f, const tks_diags *ds, const char *prefix, const char *subject)
{
    for (size_t i = 0; ds && i < ds->n; i++) {
        const tks_diag_info *in = tks_diag_info_of(ds->items[i].code);
        char *msg = tks_diag_message(&ds->items[i]);
        fprintf(f, "%s%s: %s%s%s\n", prefix ? prefix : "", tks_severity_name(in->severity),
                subject ? subject : "", subject ? ": " : "", msg ? msg : in->id);
        free(msg);
    }
}

void tks__diags_join(FILE *f, const tks_diags *ds, const char *sep)
{
    for (size_t i = 0; ds && i < ds->n; i++) {
        char *msg = tks_diag_message(&ds->items[i]);
        fprintf(f, "%s%s", i ? sep : "", msg ? msg : tks_diag_info_of(ds->items[i].code)->id);
        free(msg);
    }
}

void tks__csv_diag_codes(FILE *f, const tks_diags *ds)
{
    for (size_t i = 0; ds && i < ds->n; i++)
        fprintf(f, "%s%s", i ? " " : "", tks_diag_info_of(ds->items[i].code)->id);
}

void tks__diags_markdown(FILE *f, const tks_diags *ds)
{
    for (size_t i = 0; ds && i < ds->n; i++) {
        const tks_diag_info *in = tks_diag_info_of(ds->items[i].code);
        char *msg = tks_diag_message(&ds->items[i]);
        fprintf(f, "\n> **%s** (`%s`): %s\n",
                in->severity == TKS_SEV_NOTE ? "Note" : in->severity == TKS_SEV_ERROR ? "Error" : "Warning",
                in->id, msg ? msg : "");
        free(msg);
    }
}

char *tks__diags_text(const tks_diags *ds, const char *sep)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    tks__diags_join(f, ds, sep);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

void tks__json_diags_text(tks__json *j, const char *key, const tks_diags *ds, const char *sep)
{
    char *text = tks__diags_text(ds, sep);
    tks__json_string(j, key, text ? text : "");
    free(text);
}
