/* SPDX-License-Identifier: MIT */
/* json.c: a streaming JSON writer. It keeps only a stack of open containers, so reports of any size
 * are written without building a tree; misuse is recorded once and reported by tks__json_finish. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/double_text.h"
#include "report/common/report.h"
#include "tickscope.h"

void tks__json_init(tks__json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    if (!f)
        j->err = TKS_EINVAL;
}

static void put(tks__json *j, const char *s)
{
    if (!j->err && fputs(s, j->f) == EOF)
        j->err = TKS_EIO;
}

static void put_indent(tks__json *j, int level)
{
    for (int i = 0; i < level && !j->err; i++)
        put(j, "  ");
}

static void put_escaped(tks__json *j, const char *s)
{
    char esc[8];

    put(j, "\"");
    for (; *s && !j->err; s++) {
        unsigned char c = (unsigned char)*s;
        const char *rep = NULL;
        switch (c) {
        case '"':  rep = "\\\""; break;
        case '\\': rep = "\\\\"; break;
        case '\n': rep = "\\n"; break;
        case '\t': rep = "\\t"; break;
        case '\r': rep = "\\r"; break;
        case '\b': rep = "\\b"; break;
        case '\f': rep = "\\f"; break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", (unsigned)c);
                rep = esc;
            }
        }
        if (rep)
            put(j, rep);
        else if (putc(c, j->f) == EOF)
            j->err = TKS_EIO;
    }
    put(j, "\"");
}

/* Everything a value needs before it: the separator, the indentation and the key. The key must
 * be present exactly when the enclosing container is an object. Returns 0 when the value may be
 * written. */
static int begin_value(tks__json *j, const char *key)
{
    int d = j->depth;

    if (j->err)
        return -1;
    if (d == 0 ? (key != NULL || j->count[0] > 0) : ((j->kind[d] == '{') != (key != NULL))) {
        j->err = TKS_EINVAL;
        return -1;
    }
    if (d > 0) {
        put(j, j->count[d] > 0 ? ",\n" : "\n");
        put_indent(j, d);
    }
    if (key) {
        put_escaped(j, key);
        put(j, ": ");
    }
    j->count[d]++;
    return j->err ? -1 : 0;
}

static void begin_container(tks__json *j, const char *key, char kind)
{
    if (!j->err && j->depth >= TKS_JSON_MAX_DEPTH)
        j->err = TKS_EINVAL;
    if (begin_value(j, key) != 0)
        return;
    put(j, kind == '{' ? "{" : "[");
    j->depth++;
    j->kind[j->depth] = kind;
    j->count[j->depth] = 0;
}

static void end_container(tks__json *j, char kind)
{
    if (j->err)
        return;
    if (j->depth == 0 || j->kind[j->depth] != kind) {
        j->err = TKS_EINVAL;
        return;
    }
    /* An empty container stays on one line: "[]" or "{}". */
    if (j->count[j->depth] > 0) {
        put(j, "\n");
        put_indent(j, j->depth - 1);
    }
    put(j, kind == '{' ? "}" : "]");
    j->depth--;
}

void tks__json_begin_object(tks__json *j, const char *key) { begin_container(j, key, '{'); }
void tks__json_end_object(tks__json *j) { end_container(j, '{'); }
void tks__json_begin_array(tks__json *j, const char *key) { begin_container(j, key, '['); }
void tks__json_end_array(tks__json *j) { end_container(j, '['); }

void tks__json_string(tks__json *j, const char *key, const char *value)
{
    if (begin_value(j, key) != 0)
        return;
    if (value)
        put_escaped(j, value);
    else
        put(j, "null");
}

void tks__json_u64(tks__json *j, const char *key, uint64_t value)
{
    char buf[24];

    if (begin_value(j, key) != 0)
        return;
    snprintf(buf, sizeof buf, "%" PRIu64, value);
    put(j, buf);
}

void tks__json_i64(tks__json *j, const char *key, int64_t value)
{
    char buf[24];

    if (begin_value(j, key) != 0)
        return;
    snprintf(buf, sizeof buf, "%" PRId64, value);
    put(j, buf);
}

void tks__json_double(tks__json *j, const char *key, double value)
{
    char buf[40];

    if (begin_value(j, key) != 0)
        return;
    if (!isfinite(value)) {
        put(j, "null");
        return;
    }
    tks__double_text(buf, sizeof buf, value);
    put(j, buf);
}

void tks__json_bool(tks__json *j, const char *key, int value)
{
    if (begin_value(j, key) == 0)
        put(j, value ? "true" : "false");
}

void tks__json_null(tks__json *j, const char *key)
{
    if (begin_value(j, key) == 0)
        put(j, "null");
}

void tks__json_range(tks__json *j, const char *key, double lo, double hi)
{
    tks__json_begin_array(j, key);
    tks__json_double(j, NULL, lo);
    tks__json_double(j, NULL, hi);
    tks__json_end_array(j);
}

/* A document is exactly one top-level value with every container closed. The flush makes a
 * write error show up here rather than later, when nobody is checking. */
int tks__json_finish(tks__json *j)
{
    if (!j->err && (j->depth != 0 || j->count[0] != 1))
        j->err = TKS_EINVAL;
    put(j, "\n");
    if (!j->err && (fflush(j->f) != 0 || ferror(j->f)))
        j->err = TKS_EIO;
    return j->err;
}
