/* SPDX-License-Identifier: MIT */
/* test_report_json.c: the streaming JSON writer: exact text for nesting and escaping, numbers that
 * read back as written, and every kind of misuse reported as an error rather than bad JSON. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "report/common/report.h"
#include "tickscope.h"

/* A writer on a memory buffer; text() closes the stream and returns what was written. */
typedef struct capture {
    FILE *f;
    char *buf;
    size_t len;
    tks__json j;
} capture;

static void cap_open(capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    tks__json_init(&c->j, c->f);
}

static char *cap_text(capture *c)
{
    fclose(c->f);
    c->f = NULL;
    return c->buf;
}

static void test_nesting(void)
{
    capture c;

    cap_open(&c);
    tks__json_begin_object(&c.j, NULL);
    tks__json_string(&c.j, "name", "lfence");
    tks__json_u64(&c.j, "n", 3);
    tks__json_i64(&c.j, "delta", -42);
    tks__json_bool(&c.j, "ok", 1);
    tks__json_bool(&c.j, "bad", 0);
    tks__json_null(&c.j, "none");
    tks__json_string(&c.j, "nothing", NULL);
    tks__json_begin_array(&c.j, "xs");
    tks__json_u64(&c.j, NULL, 1);
    tks__json_begin_object(&c.j, NULL);
    tks__json_double(&c.j, "half", 0.5);
    tks__json_end_object(&c.j);
    tks__json_begin_array(&c.j, NULL);
    tks__json_end_array(&c.j);
    tks__json_end_array(&c.j);
    tks__json_begin_object(&c.j, "empty");
    tks__json_end_object(&c.j);
    tks__json_end_object(&c.j);
    CHECK_EQ_U64(tks__json_finish(&c.j), 0);
    CHECK_STR(cap_text(&c),
              "{\n"
              "  \"name\": \"lfence\",\n"
              "  \"n\": 3,\n"
              "  \"delta\": -42,\n"
              "  \"ok\": true,\n"
              "  \"bad\": false,\n"
              "  \"none\": null,\n"
              "  \"nothing\": null,\n"
              "  \"xs\": [\n"
              "    1,\n"
              "    {\n"
              "      \"half\": 0.5\n"
              "    },\n"
              "    []\n"
              "  ],\n"
              "  \"empty\": {}\n"
              "}\n");
    free(c.buf);
}

static void test_scalar_top_level(void)
{
    capture c;

    cap_open(&c);
    tks__json_u64(&c.j, NULL, 7);
    CHECK_EQ_U64(tks__json_finish(&c.j), 0);
    CHECK_STR(cap_text(&c), "7\n");
    free(c.buf);
}

static void test_escaping(void)
{
    capture c;

    cap_open(&c);
    tks__json_begin_object(&c.j, NULL);
    tks__json_string(&c.j, "q\"k\\", "a\"b\\c/d");
    tks__json_string(&c.j, "ws", "\n\t\r\b\f");
    tks__json_string(&c.j, "ctl", "\x01\x1f\x7f");
    tks__json_string(&c.j, "utf8", "\xc2\xb1 \xc2\xb5s");
    tks__json_string(&c.j, "", "");
    tks__json_end_object(&c.j);
    CHECK_EQ_U64(tks__json_finish(&c.j), 0);
    CHECK_STR(cap_text(&c),
              "{\n"
              "  \"q\\\"k\\\\\": \"a\\\"b\\\\c/d\",\n"
              "  \"ws\": \"\\n\\t\\r\\b\\f\",\n"
              "  \"ctl\": \"\\u0001\\u001f\x7f\",\n"
              "  \"utf8\": \"\xc2\xb1 \xc2\xb5s\",\n"
              "  \"\": \"\"\n"
              "}\n");
    free(c.buf);
}

/* Writes one double as the whole document and returns the text without the newline. */
static char *double_text(double v)
{
    capture c;
    size_t n;

    cap_open(&c);
    tks__json_double(&c.j, NULL, v);
    CHECK_EQ_U64(tks__json_finish(&c.j), 0);
    cap_text(&c);
    n = strlen(c.buf);
    if (n > 0 && c.buf[n - 1] == '\n')
        c.buf[n - 1] = '\0';
    return c.buf;
}

static void check_double(double v, const char *expected)
{
    char *s = double_text(v);

    CHECK_STR(s, expected);
    if (expected && strcmp(expected, "null") != 0)
        CHECK(strtod(s, NULL) == v);
    free(s);
}

static void test_doubles(void)
{
    check_double(0.1, "0.1");
    check_double(1e300, "1e+300");
    check_double(0.5, "0.5");
    check_double(-2.25, "-2.25");
    check_double(0.0, "0");
    check_double(1.0 / 3.0, "0.3333333333333333");
    {
        /* Summed at run time in double: i386's x87 would fold the constants in long double. */
        volatile double tenth = 0.1, fifth = 0.2;
        check_double(tenth + fifth, "0.30000000000000004");
    }
    check_double(DBL_MAX, "1.7976931348623157e+308");
    check_double(5e-324, "4.94065645841247e-324");
    check_double(NAN, "null");
    check_double(INFINITY, "null");
    check_double(-INFINITY, "null");
}

static void test_integers(void)
{
    capture c;

    cap_open(&c);
    tks__json_begin_array(&c.j, NULL);
    tks__json_u64(&c.j, NULL, UINT64_MAX);
    tks__json_i64(&c.j, NULL, INT64_MIN);
    tks__json_i64(&c.j, NULL, INT64_MAX);
    tks__json_u64(&c.j, NULL, 0);
    tks__json_end_array(&c.j);
    CHECK_EQ_U64(tks__json_finish(&c.j), 0);
    CHECK_STR(cap_text(&c),
              "[\n"
              "  18446744073709551615,\n"
              "  -9223372036854775808,\n"
              "  9223372036854775807,\n"
              "  0\n"
              "]\n");
    CHECK(strtoull("18446744073709551615", NULL, 10) == UINT64_MAX);
    free(c.buf);
}

/* Misuse: each scenario must end in TKS_EINVAL, and nothing after the error is written. */
enum misuse {
    KEY_IN_ARRAY, NO_KEY_IN_OBJECT, KEY_AT_TOP, END_OBJECT_ON_ARRAY, END_ARRAY_ON_OBJECT,
    END_AT_TOP, UNCLOSED, TWO_TOP_LEVEL, NOTHING_WRITTEN, TOO_DEEP, MISUSE_COUNT
};

static void run_misuse(tks__json *j, enum misuse m)
{
    switch (m) {
    case KEY_IN_ARRAY:
        tks__json_begin_array(j, NULL);
        tks__json_u64(j, "k", 1);
        tks__json_end_array(j);
        break;
    case NO_KEY_IN_OBJECT:
        tks__json_begin_object(j, NULL);
        tks__json_u64(j, NULL, 1);
        tks__json_end_object(j);
        break;
    case KEY_AT_TOP:
        tks__json_u64(j, "k", 1);
        break;
    case END_OBJECT_ON_ARRAY:
        tks__json_begin_array(j, NULL);
        tks__json_end_object(j);
        break;
    case END_ARRAY_ON_OBJECT:
        tks__json_begin_object(j, NULL);
        tks__json_end_array(j);
        break;
    case END_AT_TOP:
        tks__json_u64(j, NULL, 1);
        tks__json_end_array(j);
        break;
    case UNCLOSED:
        tks__json_begin_object(j, NULL);
        tks__json_begin_array(j, "a");
        tks__json_end_array(j);
        break;
    case TWO_TOP_LEVEL:
        tks__json_u64(j, NULL, 1);
        tks__json_u64(j, NULL, 2);
        break;
    case NOTHING_WRITTEN:
        break;
    case TOO_DEEP:
        for (int i = 0; i <= TKS_JSON_MAX_DEPTH; i++)
            tks__json_begin_array(j, NULL);
        for (int i = 0; i <= TKS_JSON_MAX_DEPTH; i++)
            tks__json_end_array(j);
        break;
    case MISUSE_COUNT:
        break;
    }
}

/* What each scenario leaves in the stream: everything up to the misuse and nothing after it. */
static const char *misuse_text(enum misuse m, char *deep, size_t size)
{
    static const char *const text[MISUSE_COUNT] = {
        [KEY_IN_ARRAY] = "[", [NO_KEY_IN_OBJECT] = "{", [KEY_AT_TOP] = "",
        [END_OBJECT_ON_ARRAY] = "[", [END_ARRAY_ON_OBJECT] = "{", [END_AT_TOP] = "1",
        [UNCLOSED] = "{\n  \"a\": []", [TWO_TOP_LEVEL] = "1", [NOTHING_WRITTEN] = "",
    };
    size_t len = 0;

    if (m != TOO_DEEP)
        return text[m];
    /* The legal TKS_JSON_MAX_DEPTH openings, each on its own line and indented by its level. */
    for (int d = 0; d < TKS_JSON_MAX_DEPTH && len + 2 * (size_t)d + 3 < size; d++) {
        if (d > 0) {
            deep[len++] = '\n';
            memset(deep + len, ' ', 2 * (size_t)d);
            len += 2 * (size_t)d;
        }
        deep[len++] = '[';
    }
    deep[len] = '\0';
    return deep;
}

static void test_misuse(void)
{
    for (int m = 0; m < MISUSE_COUNT; m++) {
        capture c;
        char deep[2048];
        char *text;
        int rc;

        cap_open(&c);
        run_misuse(&c.j, (enum misuse)m);
        rc = tks__json_finish(&c.j);
        if (rc != TKS_EINVAL)
            fprintf(stderr, "misuse scenario %d not reported\n", m);
        CHECK_EQ_U64(rc, (uint64_t)(int64_t)TKS_EINVAL);
        text = cap_text(&c);
        CHECK_STR(text, misuse_text((enum misuse)m, deep, sizeof deep));
        free(text);
    }
}

/* The deepest legal nesting is accepted, and the error is sticky: once set, nothing more is
 * written, even values that would otherwise be fine. */
static void test_depth_limit_and_sticky(void)
{
    capture c;
    char *text;

    cap_open(&c);
    for (int i = 0; i < TKS_JSON_MAX_DEPTH; i++)
        tks__json_begin_array(&c.j, NULL);
    for (int i = 0; i < TKS_JSON_MAX_DEPTH; i++)
        tks__json_end_array(&c.j);
    CHECK_EQ_U64(tks__json_finish(&c.j), 0);
    free(cap_text(&c));

    cap_open(&c);
    tks__json_begin_array(&c.j, NULL);
    tks__json_u64(&c.j, "bad", 1);
    tks__json_u64(&c.j, NULL, 2);
    tks__json_end_array(&c.j);
    CHECK_EQ_U64(tks__json_finish(&c.j), (uint64_t)(int64_t)TKS_EINVAL);
    text = cap_text(&c);
    CHECK_STR(text, "[");
    free(text);
}

static void test_io_errors(void)
{
    tks__json j;
    FILE *f;

    /* A stream opened for reading refuses every write. */
    f = fopen("/dev/null", "r");
    CHECK(f != NULL);
    if (f) {
        tks__json_init(&j, f);
        tks__json_u64(&j, NULL, 1);
        CHECK_EQ_U64(tks__json_finish(&j), (uint64_t)(int64_t)TKS_EIO);
        fclose(f);
    }
    /* /dev/full accepts buffered writes and fails when they are flushed: finish must flush. */
    f = fopen("/dev/full", "w");
    if (f) {
        tks__json_init(&j, f);
        tks__json_string(&j, NULL, "lost");
        CHECK_EQ_U64(tks__json_finish(&j), (uint64_t)(int64_t)TKS_EIO);
        fclose(f);
    }
}

int main(void)
{
    test_nesting();
    test_scalar_top_level();
    test_escaping();
    test_doubles();
    test_integers();
    test_misuse();
    test_depth_limit_and_sticky();
    test_io_errors();
    CHECK_DONE();
}
