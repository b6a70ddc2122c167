/* SPDX-License-Identifier: MIT */
/* writers.c: the lookups in a result kind's writer table (writers.h). */
#include "report/common/writers.h"

#include <string.h>

#include "tickscope.h"

tks__write_fn tks__writers_find(const tks__writers *t, enum tks_format f)
{
    if (f == TKS_FORMAT_DEFAULT)
        return t->n ? t->rows[0].write : NULL;
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].format == f)
            return t->rows[i].write;
    return NULL;
}

int tks__writers_write(const tks__writers *t, enum tks_format f, FILE *out, const void *doc)
{
    tks__write_fn w = tks__writers_find(t, f);
    return w ? w(out, doc) : TKS_EINVAL;
}

int tks__writers_parse(const tks__writers *t, const char *name)
{
    int f = tks_format_from_name(name);
    return f >= 0 && tks__writers_find(t, (enum tks_format)f) ? f : -1;
}

const char *tks__writers_list(const tks__writers *t, char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < t->n && used < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                         tks_format_name(t->rows[i].format));
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

const char *tks__writers_unknown(const tks__writers *t, const char *opt, const char *name, char *buf,
                                 size_t size)
{
    char list[128];
    snprintf(buf, size, "%s: '%.60s' is not a format of %s; its formats are %s", opt,
             name ? name : "", t->kind, tks__writers_list(t, list, sizeof list));
    return buf;
}
