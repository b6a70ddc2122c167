/* SPDX-License-Identifier: MIT */
/* test_base_json_read.c: the JSON reader: documents it must take (with their nodes and decoded
 * strings), documents it must refuse (with a reason and position), and its bounds: nesting
 * past the limit and buffers that end mid-token or hold NUL bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_read.h"
#include "check.h"
#include "tickscope/common.h"

static int parse(const char *s, tks__jr_doc *d) { return tks__jr_parse(d, s, strlen(s)); }

static void good(void)
{
    tks__jr_doc d;
    size_t a, c;
    char buf[64];
    const char *doc = " {\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {\"c\": {}},"
                      " \"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\", \"e\": [],"
                      " \"n\": NaN, \"i\": -Infinity, \"z\": 0, \"a\": 2}\n";
    CHECK(parse(doc, &d) == 0);
    CHECK(tks__jr_is(&d, 0, TKS__JR_OBJECT));
    CHECK_EQ_U64(tks__jr_count(&d, 0), 8);
    a = tks__jr_get(&d, 0, "a"); /* the first of a repeated key */
    CHECK(tks__jr_is(&d, a, TKS__JR_ARRAY));
    CHECK_EQ_U64(tks__jr_count(&d, a), 6);
    c = tks__jr_first(&d, a);
    CHECK_NEAR(tks__jr_number(&d, c), 1, 0);
    c = tks__jr_next(&d, a, c);
    CHECK_NEAR(tks__jr_number(&d, c), -2500, 0);
    c = tks__jr_next(&d, a, c);
    CHECK(tks__jr_is(&d, c, TKS__JR_TRUE));
    c = tks__jr_next(&d, a, tks__jr_next(&d, a, c));
    CHECK(tks__jr_is(&d, c, TKS__JR_NULL));
    c = tks__jr_next(&d, a, c);
    CHECK(tks__jr_string_is(&d, c, "x"));
    CHECK(tks__jr_next(&d, a, c) == TKS__JR_NONE);
    /* nested objects skip whole subtrees */
    CHECK(tks__jr_is(&d, tks__jr_get(&d, tks__jr_get(&d, 0, "b"), "c"), TKS__JR_OBJECT));
    CHECK(tks__jr_first(&d, tks__jr_get(&d, tks__jr_get(&d, 0, "b"), "c")) == TKS__JR_NONE);
    CHECK(tks__jr_first(&d, tks__jr_get(&d, 0, "e")) == TKS__JR_NONE);
    /* escapes decoded to UTF-8, a surrogate pair to one four-byte character */
    CHECK(tks__jr_string(&d, tks__jr_get(&d, 0, "s"), buf, sizeof buf) == 0);
    CHECK_STR(buf, "q\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
    /* truncated to the buffer, always terminated */
    CHECK(tks__jr_string(&d, tks__jr_get(&d, 0, "s"), buf, 3) == 0);
    CHECK_STR(buf, "q\"");
    CHECK(isnan(tks__jr_number(&d, tks__jr_get(&d, 0, "n"))));
    CHECK(isinf(tks__jr_number(&d, tks__jr_get(&d, 0, "i"))) &&
          tks__jr_number(&d, tks__jr_get(&d, 0, "i")) < 0);
    CHECK_NEAR(tks__jr_number(&d, tks__jr_get(&d, 0, "z")), 0, 0);
    /* missing keys and wrong types */
    CHECK(tks__jr_get(&d, 0, "missing") == TKS__JR_NONE);
    CHECK(tks__jr_get(&d, a, "a") == TKS__JR_NONE);
    CHECK(isnan(tks__jr_number(&d, a)));
    CHECK(tks__jr_string(&d, a, buf, sizeof buf) == TKS_EINVAL && buf[0] == 0);
    CHECK(isnan(tks__jr_number(&d, TKS__JR_NONE)));
    tks__jr_free(&d);
    /* scalars at the top level */
    CHECK(parse("  42 ", &d) == 0 && tks__jr_number(&d, 0) == 42);
    tks__jr_free(&d);
    CHECK(parse("\"\\ud800x\"", &d) == 0); /* a lone surrogate becomes U+FFFD */
    CHECK(tks__jr_string(&d, 0, buf, sizeof buf) == 0);
    CHECK_STR(buf, "\xef\xbf\xbdx");
    tks__jr_free(&d);
}

static void bad(void)
{
    static const char *const docs[] = {
        "", "   ", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "{\"a\":1,}",
        "[01]", "[1.]", "[1e]", "[-]", "[.5]", "[+1]", "tru", "nul", "[true false]",
        "\"abc", "\"a\\x\"", "\"\\u12g4\"", "\"a\nb\"", "[1]]", "{} {}", "[\"a\"", "NaNa",
        "[Inf]", "{\"a\":1}x", "'a'", "[1,2", "{\"a\":[}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        tks__jr_doc d;
        int rc = parse(docs[i], &d);
        CHECK(rc == TKS_EINVAL);
        if (rc != TKS_EINVAL)
            fprintf(stderr, "accepted: '%s'\n", docs[i]);
        CHECK(strstr(d.err, "line 1, column") != NULL);
        tks__jr_free(&d);
    }
    {
        /* a NUL byte inside the buffer, and the buffer ending inside a token */
        tks__jr_doc d;
        CHECK(tks__jr_parse(&d, "[1,\0 2]", 7) == TKS_EINVAL);
        tks__jr_free(&d);
        CHECK(tks__jr_parse(&d, "[\"a\\u00", 7) == TKS_EINVAL);
        tks__jr_free(&d);
        CHECK(tks__jr_parse(&d, "\"\\", 2) == TKS_EINVAL);
        tks__jr_free(&d);
        CHECK(tks__jr_parse(&d, "[true]", 3) == TKS_EINVAL); /* "[tr" */
        tks__jr_free(&d);
        CHECK(tks__jr_parse(&d, "{\"a\":1}\n\n  ?", 12) == TKS_EINVAL);
        CHECK(strstr(d.err, "line 3, column 3") != NULL);
        tks__jr_free(&d);
        CHECK(tks__jr_parse(&d, NULL, 1) == TKS_EINVAL);
        tks__jr_free(&d);
    }
}

static void depth(void)
{
    /* the limit itself is taken, one more is refused: no recursion, no stack to overflow */
    char *s = malloc(2 * 100000 + 1);
    tks__jr_doc d;
    size_t n = TKS__JR_MAX_DEPTH;
    memset(s, '[', n);
    memset(s + n, ']', n);
    CHECK(tks__jr_parse(&d, s, 2 * n) == 0);
    CHECK_EQ_U64(d.n, n);
    tks__jr_free(&d);
    n++;
    memset(s, '[', n);
    memset(s + n, ']', n);
    CHECK(tks__jr_parse(&d, s, 2 * n) == TKS_ERANGE);
    CHECK(strstr(d.err, "nested deeper") != NULL);
    tks__jr_free(&d);
    /* a very deep document fails fast at the bound */
    memset(s, '[', 200000);
    CHECK(tks__jr_parse(&d, s, 200000) == TKS_ERANGE);
    tks__jr_free(&d);
    /* many siblings are fine */
    for (size_t i = 0; i < 100000; i++)
        s[2 * i] = i ? ',' : '[', s[2 * i + 1] = '0';
    s[200000] = ']';
    CHECK(tks__jr_parse(&d, s, 200001) == 0);
    CHECK_EQ_U64(tks__jr_count(&d, 0), 100000);
    tks__jr_free(&d);
    free(s);
}

int main(void)
{
    good();
    bad();
    depth();
    CHECK_DONE();
}
