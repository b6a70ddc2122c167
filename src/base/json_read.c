/* SPDX-License-Identifier: MIT */
/* json_read.c: the JSON reader. A state machine over the buffer with an explicit stack of open
 * containers (bounded), so hostile input can neither recurse nor run past the end; every byte is
 * checked against the grammar (RFC 8259) before a node is made. */
#include "base/json_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/common.h"

/* The reader is for result files: a gigabyte is far past any of them, and the bound keeps every
 * offset and count well inside size_t on 32-bit builds. */
#define MAX_INPUT ((size_t)1 << 30)
#define MAX_NUMBER 64 /* characters in one number: 17 significant digits and an exponent fit */

enum state { S_VALUE, S_VALUE_OR_CLOSE, S_KEY_OR_CLOSE, S_KEY, S_COLON, S_COMMA_OR_CLOSE, S_DONE };

static int fail(tks__jr_doc *d, size_t pos, int rc, const char *fmt, ...)
{
    va_list ap;
    size_t line = 1, col = 1;
    char what[100];
    for (size_t i = 0; i < pos && i < d->len; i++) {
        if (d->buf[i] == '\n')
            line++, col = 1;
        else
            col++;
    }
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(d->err, sizeof d->err, "%s at line %zu, column %zu", what, line, col);
    return rc;
}

static size_t add(tks__jr_doc *d, unsigned char type)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        tks__jr_node *v = realloc(d->nodes, cap * sizeof *v);
        if (!v)
            return TKS__JR_NONE;
        d->nodes = v;
        d->cap = cap;
    }
    memset(&d->nodes[d->n], 0, sizeof d->nodes[0]);
    d->nodes[d->n].type = type;
    d->nodes[d->n].end = d->n + 1;
    return d->n++;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string starting at the quote at *pos: checked, and made a node. */
static int string(tks__jr_doc *d, size_t *pos)
{
    size_t p = *pos + 1, i;
    while (p < d->len && d->buf[p] != '"') {
        unsigned char c = (unsigned char)d->buf[p];
        if (c < 0x20)
            return fail(d, p, TKS_EINVAL, "a control character inside a string");
        if (c != '\\') {
            p++;
            continue;
        }
        if (p + 1 >= d->len)
            return fail(d, *pos, TKS_EINVAL, "a string that never ends");
        c = (unsigned char)d->buf[p + 1];
        if (c == 'u') {
            for (int k = 0; k < 4; k++)
                if (p + 2 + k >= d->len || hex(d->buf[p + 2 + k]) < 0)
                    return fail(d, p, TKS_EINVAL, "a \\u escape without four hex digits");
            p += 6;
        } else if (strchr("\"\\/bfnrt", c) && c) {
            p += 2;
        } else {
            return fail(d, p, TKS_EINVAL, "an unknown escape in a string");
        }
    }
    if (p >= d->len)
        return fail(d, *pos, TKS_EINVAL, "a string that never ends");
    if ((i = add(d, TKS__JR_STRING)) == TKS__JR_NONE)
        return TKS_ENOMEM;
    d->nodes[i].off = *pos + 1;
    d->nodes[i].len = p - *pos - 1;
    *pos = p + 1;
    return 0;
}

static int word(const tks__jr_doc *d, size_t p, const char *w)
{
    size_t n = strlen(w);
    return d->len - p >= n && memcmp(d->buf + p, w, n) == 0;
}

/* A number (RFC 8259's grammar), or NaN, Infinity, -Infinity as Google Benchmark writes them. */
static int number(tks__jr_doc *d, size_t *pos)
{
    size_t p = *pos, i;
    char text[MAX_NUMBER + 1];
    double v;
    int neg = p < d->len && d->buf[p] == '-';
    if (word(d, p + neg, "NaN") || word(d, p + neg, "Infinity")) {
        int inf = d->buf[p + neg] == 'I';
        v = inf ? (neg ? -INFINITY : INFINITY) : NAN;
        p += neg + (inf ? 8 : 3);
    } else {
        p += neg;
        if (p < d->len && d->buf[p] == '0')
            p++;
        else if (p < d->len && is_digit(d->buf[p]))
            while (p < d->len && is_digit(d->buf[p]))
                p++;
        else
            return fail(d, *pos, TKS_EINVAL, "not a value");
        if (p < d->len && d->buf[p] == '.') {
            if (++p >= d->len || !is_digit(d->buf[p]))
                return fail(d, p, TKS_EINVAL, "a number with no digits after its point");
            while (p < d->len && is_digit(d->buf[p]))
                p++;
        }
        if (p < d->len && (d->buf[p] == 'e' || d->buf[p] == 'E')) {
            p++;
            if (p < d->len && (d->buf[p] == '+' || d->buf[p] == '-'))
                p++;
            if (p >= d->len || !is_digit(d->buf[p]))
                return fail(d, p, TKS_EINVAL, "a number with no digits in its exponent");
            while (p < d->len && is_digit(d->buf[p]))
                p++;
        }
        if (p - *pos > MAX_NUMBER)
            return fail(d, *pos, TKS_EINVAL, "a number longer than %d characters", MAX_NUMBER);
        memcpy(text, d->buf + *pos, p - *pos);
        text[p - *pos] = 0;
        v = strtod(text, NULL);
    }
    if ((i = add(d, TKS__JR_NUMBER)) == TKS__JR_NONE)
        return TKS_ENOMEM;
    d->nodes[i].num = v;
    *pos = p;
    return 0;
}

/* A scalar value at *pos (the caller handles containers). */
static int scalar(tks__jr_doc *d, size_t *pos)
{
    static const struct { const char *w; unsigned char t; } lit[] = {
        {"true", TKS__JR_TRUE}, {"false", TKS__JR_FALSE}, {"null", TKS__JR_NULL}};
    char c = d->buf[*pos];
    if (c == '"')
        return string(d, pos);
    for (size_t k = 0; k < sizeof lit / sizeof lit[0]; k++)
        if (word(d, *pos, lit[k].w)) {
            if (add(d, lit[k].t) == TKS__JR_NONE)
                return TKS_ENOMEM;
            *pos += strlen(lit[k].w);
            return 0;
        }
    if (c == '-' || is_digit(c) || c == 'N' || c == 'I')
        return number(d, pos);
    if (c >= 0x20 && c < 0x7f)
        return fail(d, *pos, TKS_EINVAL, "unexpected '%c'", c);
    return fail(d, *pos, TKS_EINVAL, "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
}

int tks__jr_parse(tks__jr_doc *d, const char *buf, size_t len)
{
    size_t stack[TKS__JR_MAX_DEPTH], pos = 0, depth = 0;
    enum state st = S_VALUE;
    int rc;
    if (!d)
        return TKS_EINVAL;
    memset(d, 0, sizeof *d);
    d->buf = buf;
    d->len = len;
    if (!buf && len)
        return TKS_EINVAL;
    if (len > MAX_INPUT)
        return fail(d, 0, TKS_ERANGE, "more than %zu bytes", MAX_INPUT);
    for (;;) {
        char c;
        while (pos < len && is_ws(buf[pos]))
            pos++;
        if (st == S_DONE) {
            if (pos < len)
                return fail(d, pos, TKS_EINVAL, "text after the end of the document");
            return 0;
        }
        if (pos >= len)
            return fail(d, pos, TKS_EINVAL, d->n ? "the document ends early" : "an empty document");
        c = buf[pos];
        switch (st) {
        case S_VALUE_OR_CLOSE:
        case S_KEY_OR_CLOSE:
            if (c == (st == S_KEY_OR_CLOSE ? '}' : ']'))
                goto close;
            st = st == S_KEY_OR_CLOSE ? S_KEY : S_VALUE;
            continue;
        case S_KEY:
            if (c != '"')
                return fail(d, pos, TKS_EINVAL, "an object key that is not a string");
            if ((rc = string(d, &pos)) != 0)
                return rc;
            st = S_COLON;
            continue;
        case S_COLON:
            if (c != ':')
                return fail(d, pos, TKS_EINVAL, "no ':' after an object key");
            pos++;
            st = S_VALUE;
            continue;
        case S_COMMA_OR_CLOSE: {
            int obj = d->nodes[stack[depth - 1]].type == TKS__JR_OBJECT;
            if (c == ',') {
                pos++;
                st = obj ? S_KEY : S_VALUE;
                continue;
            }
            if (c == (obj ? '}' : ']'))
                goto close;
            return fail(d, pos, TKS_EINVAL, "expected ',' or '%c'", obj ? '}' : ']');
        }
        case S_VALUE:
            if (c == '{' || c == '[') {
                size_t i;
                if (depth == TKS__JR_MAX_DEPTH)
                    return fail(d, pos, TKS_ERANGE, "nested deeper than %d", TKS__JR_MAX_DEPTH);
                if ((i = add(d, c == '{' ? TKS__JR_OBJECT : TKS__JR_ARRAY)) == TKS__JR_NONE)
                    return TKS_ENOMEM;
                stack[depth++] = i;
                pos++;
                st = c == '{' ? S_KEY_OR_CLOSE : S_VALUE_OR_CLOSE;
                continue;
            }
            if ((rc = scalar(d, &pos)) != 0)
                return rc;
            st = depth ? S_COMMA_OR_CLOSE : S_DONE;
            continue;
        default:
            return TKS_EINVAL;
        }
    close:
        pos++;
        d->nodes[stack[--depth]].end = d->n;
        st = depth ? S_COMMA_OR_CLOSE : S_DONE;
    }
}

void tks__jr_free(tks__jr_doc *d)
{
    if (!d)
        return;
    free(d->nodes);
    d->nodes = NULL;
    d->n = d->cap = 0;
}

static int valid(const tks__jr_doc *d, size_t i) { return d && i != TKS__JR_NONE && i < d->n; }

int tks__jr_is(const tks__jr_doc *d, size_t i, enum tks__jr_type t)
{
    return valid(d, i) && d->nodes[i].type == (unsigned char)t;
}

size_t tks__jr_first(const tks__jr_doc *d, size_t node)
{
    if (!valid(d, node) || (d->nodes[node].type != TKS__JR_ARRAY &&
                            d->nodes[node].type != TKS__JR_OBJECT))
        return TKS__JR_NONE;
    return node + 1 < d->nodes[node].end ? node + 1 : TKS__JR_NONE;
}

size_t tks__jr_next(const tks__jr_doc *d, size_t parent, size_t child)
{
    size_t n;
    if (!valid(d, parent) || !valid(d, child))
        return TKS__JR_NONE;
    /* an object's child is a key: skip its value too */
    n = d->nodes[parent].type == TKS__JR_OBJECT ? (child + 1 < d->n ? d->nodes[child + 1].end : d->n)
                                                : d->nodes[child].end;
    return n < d->nodes[parent].end ? n : TKS__JR_NONE;
}

size_t tks__jr_count(const tks__jr_doc *d, size_t node)
{
    size_t n = 0;
    for (size_t c = tks__jr_first(d, node); c != TKS__JR_NONE; c = tks__jr_next(d, node, c))
        n++;
    return n;
}

int tks__jr_string_is(const tks__jr_doc *d, size_t node, const char *s)
{
    char buf[256];
    size_t n = strlen(s);
    if (!tks__jr_is(d, node, TKS__JR_STRING) || n >= sizeof buf)
        return 0;
    /* without escapes the raw bytes are the string */
    if (d->nodes[node].len == n && memcmp(d->buf + d->nodes[node].off, s, n) == 0)
        return 1;
    if (tks__jr_string(d, node, buf, sizeof buf) != 0)
        return 0;
    return strcmp(buf, s) == 0;
}

size_t tks__jr_get(const tks__jr_doc *d, size_t obj, const char *key)
{
    if (!tks__jr_is(d, obj, TKS__JR_OBJECT) || !key)
        return TKS__JR_NONE;
    for (size_t k = tks__jr_first(d, obj); k != TKS__JR_NONE; k = tks__jr_next(d, obj, k))
        if (tks__jr_string_is(d, k, key))
            return k + 1;
    return TKS__JR_NONE;
}

double tks__jr_number(const tks__jr_doc *d, size_t node)
{
    return tks__jr_is(d, node, TKS__JR_NUMBER) ? d->nodes[node].num : NAN;
}

/* Append code point cp as UTF-8 if it fits (with room for the NUL). */
static void put_utf8(char *out, size_t size, size_t *o, unsigned long cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80)
        b[0] = (unsigned char)cp, n = 1;
    else if (cp < 0x800)
        b[0] = (unsigned char)(0xC0 | cp >> 6), b[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        b[0] = (unsigned char)(0xE0 | cp >> 12), b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)),
        b[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
    else
        b[0] = (unsigned char)(0xF0 | cp >> 18), b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F)),
        b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)), b[3] = (unsigned char)(0x80 | (cp & 0x3F)),
        n = 4;
    if (*o + n < size) {
        memcpy(out + *o, b, n);
        *o += n;
    }
}

static unsigned long hex4(const char *s)
{
    unsigned long v = 0;
    for (int k = 0; k < 4; k++)
        v = v << 4 | (unsigned long)hex(s[k]);
    return v;
}

int tks__jr_string(const tks__jr_doc *d, size_t node, char *out, size_t size)
{
    const char *s;
    size_t n, o = 0;
    if (!out || !size)
        return TKS_EINVAL;
    out[0] = 0;
    if (!tks__jr_is(d, node, TKS__JR_STRING))
        return TKS_EINVAL;
    s = d->buf + d->nodes[node].off;
    n = d->nodes[node].len;
    /* the parser checked every escape, so each is whole */
    for (size_t i = 0; i < n;) {
        unsigned long cp;
        if (s[i] != '\\') {
            if (o + 1 < size)
                out[o++] = s[i];
            i++;
            continue;
        }
        switch (s[i + 1]) {
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u': cp = hex4(s + i + 2); break;
        default: cp = (unsigned char)s[i + 1]; break;
        }
        i += s[i + 1] == 'u' ? 6 : 2;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
            unsigned long lo = hex4(s + i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            }
        }
        if (cp >= 0xD800 && cp < 0xE000)
            cp = 0xFFFD; /* a lone surrogate is no character */
        put_utf8(out, size, &o, cp);
    }
    out[o] = 0;
    return 0;
}
