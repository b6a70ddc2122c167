/* SPDX-License-Identifier: MIT */
/* test_report_table.c: text for people: aligned tables (UTF-8 widths, no trailing spaces), the
 * number formatting that fills their cells, and the progress line on stderr. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "report/common/report.h"
#include "tickscope.h"

/* Prints t into memory and returns the text (caller frees). */
static char *table_text(tks__table *t, const char *indent)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    tks__table_print(t, f, indent);
    fclose(f);
    return buf;
}

static void test_alignment_and_utf8(void)
{
    static const char *const headers[] = {"method", "ticks", "\xc2\xb1 \xc2\xb5s"};
    static const char *const row1[] = {"lfence", "12.5", "0.1"};
    static const char *const row2[] = {"cpuid", NULL, "\xc2\xb1" "1.25"};
    tks__table *t = tks__table_new(3, headers, "lrr");
    char *text;

    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_EQ_U64(tks__table_add_row(t, row1), 0);
    CHECK_EQ_U64(tks__table_add_row(t, row2), 0);
    text = table_text(t, NULL);
    CHECK_STR(text,
              "method  ticks   \xc2\xb1 \xc2\xb5s\n"
              "--------------------\n"
              "lfence   12.5    0.1\n"
              "cpuid       -  \xc2\xb1" "1.25\n");
    free(text);
    tks__table_free(t);
}

/* Left-aligned last columns, empty cells, cells ending in spaces and the indent must never leave
 * spaces at the end of a line; a short align string leaves the rest left-aligned. */
static void test_no_trailing_spaces(void)
{
    static const char *const headers[] = {"name", "note"};
    static const char *const r1[] = {"a", "x"};
    static const char *const r2[] = {"bbbb", ""};
    static const char *const r3[] = {"c ", NULL};
    static const char *const r4[] = {"", ""};
    static const char *const r5[] = {"d", "y  "};
    tks__table *t = tks__table_new(2, headers, "l");
    char *text;

    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_EQ_U64(tks__table_add_row(t, r1), 0);
    CHECK_EQ_U64(tks__table_add_row(t, r2), 0);
    CHECK_EQ_U64(tks__table_add_row(t, r3), 0);
    CHECK_EQ_U64(tks__table_add_row(t, r4), 0);
    CHECK_EQ_U64(tks__table_add_row(t, r5), 0);
    text = table_text(t, "  ");
    CHECK_STR(text,
              "  name  note\n"
              "  ----------\n"
              "  a     x\n"
              "  bbbb\n"
              "  c     -\n"
              "\n"
              "  d     y\n");
    free(text);
    tks__table_free(t);
}

/* Cells are copied: the caller's buffers may change after add_row. Many rows force the row
 * array to grow. A NULL header prints as nothing, not "-". */
static void test_copies_and_growth(void)
{
    static const char *const headers[] = {NULL, "v"};
    char name[16], value[16];
    const char *row[] = {name, value};
    tks__table *t = tks__table_new(2, headers, "rr");
    char *text, *line;
    int ok = 1;

    CHECK(t != NULL);
    if (!t)
        return;
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "r%d", i);
        snprintf(value, sizeof value, "%d", i * i);
        ok &= tks__table_add_row(t, row) == 0;
    }
    strcpy(name, "XXXX");
    CHECK(ok);
    text = table_text(t, "");
    CHECK(text != NULL && strncmp(text, "        v\n---------\n r0     0\n r1     1\n", 40) == 0);
    line = text ? strstr(text, "r99") : NULL;
    CHECK(line != NULL && strcmp(line, "r99  9801\n") == 0);
    CHECK(text != NULL && strstr(text, "XXXX") == NULL);
    free(text);
    tks__table_free(t);
}

static void test_table_errors(void)
{
    static const char *const headers[] = {"a"};

    CHECK(tks__table_new(0, headers, "l") == NULL);
    CHECK_EQ_U64(tks__table_add_row(NULL, headers), (uint64_t)(int64_t)TKS_EINVAL);
    tks__table_free(NULL);
}

static void check_fmt(double v, int decimals, const char *expected)
{
    char buf[64];

    CHECK_STR(tks__fmt_double(buf, sizeof buf, v, decimals), expected);
}

static void test_fmt(void)
{
    char small[4], buf[32];

    check_fmt(3.14159, 2, "3.14");
    check_fmt(2.5, 3, "2.500");
    check_fmt(-1.5, 1, "-1.5");
    check_fmt(-0.0, 2, "0.00");
    check_fmt(-0.0, 0, "0");
    check_fmt(-0.001, 2, "0.00");
    check_fmt(-0.006, 2, "-0.01");
    check_fmt(9999999.0, 1, "9999999.0");
    check_fmt(12345678.0, 2, "1.23e+07");
    check_fmt(-2.5e9, 0, "-2.5e+09");
    check_fmt(1.0, -1, "1");
    check_fmt(NAN, 2, "nan");
    check_fmt(INFINITY, 2, "inf");
    check_fmt(-INFINITY, 2, "-inf");
    CHECK_STR(tks__fmt_double(small, sizeof small, 123.456, 2), "123");
    CHECK_STR(tks__fmt_u64(buf, sizeof buf, UINT64_MAX), "18446744073709551615");
    CHECK_STR(tks__fmt_u64(buf, sizeof buf, 0), "0");
    CHECK_STR(tks__fmt_u64(small, sizeof small, 12345), "123");
}

/* Runs the progress calls with stderr sent to a temporary file and returns what they wrote. */
static char *progress_text(int force, int updates, int rate_limited)
{
    FILE *tmp = tmpfile();
    char *out = calloc(1, 256);
    int saved;
    tks__progress p;

    if (!tmp || !out)
        return out;
    fflush(stderr);
    saved = dup(2);
    dup2(fileno(tmp), 2);
    tks__progress_begin(&p, "sampling", force);
    for (int i = 1; i <= updates; i++) {
        tks__progress_update(&p, 4200 * (uint64_t)i, 10000);
        /* Move the last draw into the future or the past instead of sleeping. */
        p.last_draw = rate_limited ? 1e300 : -1e300;
    }
    tks__progress_end(&p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    if (fread(out, 1, 255, tmp) == 0 && ferror(tmp))
        out[0] = '\0';
    fclose(tmp);
    return out;
}

static void test_progress(void)
{
    char *s;

    /* the items finish in microseconds here, so the time left rounds to none */
    s = progress_text(1, 1, 0);
    CHECK_STR(s, "\rsampling 42% (4200/10000), ETA 0:00\033[K\r\033[K");
    free(s);
    s = progress_text(1, 2, 0);
    CHECK_STR(s, "\rsampling 42% (4200/10000), ETA 0:00\033[K"
                 "\rsampling 84% (8400/10000), ETA 0:00\033[K\r\033[K");
    free(s);
    s = progress_text(1, 3, 1);
    CHECK_STR(s, "\rsampling 42% (4200/10000), ETA 0:00\033[K\r\033[K");
    free(s);
    s = progress_text(1, 0, 0); /* nothing drawn, so nothing to clear */
    CHECK_STR(s, "");
    free(s);
    s = progress_text(0, 2, 0); /* stderr is a file here, not a terminal */
    CHECK_STR(s, "");
    free(s);
}

/* The time left: from the items finished, or before the first from the plan; the item under
 * way counts as far along as it is, never as more than done. */
static void test_eta(void)
{
    tks__progress p;

    memset(&p, 0, sizeof p);
    p.start = 100;
    p.done_at = 100;
    CHECK(tks__progress_eta(&p, 0, 10, 101) < 0); /* nothing finished, no plan: unknown */
    tks__progress_plan(&p, 2);
    CHECK_NEAR(tks__progress_eta(&p, 0, 10, 101), 19, 1e-9); /* 10 x 2 s, 1 s of it done */
    CHECK_NEAR(tks__progress_eta(&p, 0, 10, 105), 18, 1e-9);  /* the first item takes longer */
    p.done_at = 112;                                           /* 4 items took 12 s: 3 s each */
    CHECK_NEAR(tks__progress_eta(&p, 4, 10, 113), 17, 1e-9);
    CHECK_NEAR(tks__progress_eta(&p, 10, 10, 113), 0, 1e-9);
}

/* Prints t within `columns` into memory (as for a terminal that wide). */
static char *fit_text(tks__table *t, int columns)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    tks__table_print_fit(t, f, "", columns);
    fclose(f);
    return buf;
}

/* The longest line of text, in code points. */
static size_t widest_line(const char *text)
{
    size_t best = 0, n = 0;

    for (; *text; text++) {
        if (*text == '\n') {
            best = n > best ? n : best;
            n = 0;
        } else if (((unsigned char)*text & 0xC0) != 0x80) {
            n++;
        }
    }
    return n > best ? n : best;
}

/* A table too wide for its terminal wraps its last columns onto indented continuation lines and
 * abbreviates a long name; with no limit (a file) it is printed whole on one line per row. */
static void test_fit(void)
{
    static const char *const headers[] = {"Benchmark", "ticks", "95% interval", "core cycles",
                                          "what"};
    static const char *const row[] = {"BM_a_rather_long_benchmark_name/4096", "12.345",
                                      "[12.300, 12.390]", "45.1+-0.2",
                                      "what the row measured, in words"};
    tks__table *t = tks__table_new(5, headers, "lrlrl");
    char *text;

    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_EQ_U64(tks__table_add_row(t, row), 0);
    text = fit_text(t, 0);
    CHECK(text && strstr(text, row[0]) && strstr(text, row[4]));
    CHECK(text && widest_line(text) > 60);
    free(text);
    text = fit_text(t, 60);
    CHECK(text && widest_line(text) <= 60);
    CHECK(text && strstr(text, "\n    what") != NULL);           /* the header's wrapped column */
    CHECK(text && strstr(text, "\n    what the row measured") != NULL);
    CHECK(text && strstr(text, "BM_a_rathe\xe2\x80\xa6name/4096") != NULL); /* cut in the middle */
    CHECK(text && strstr(text, "/4096") != NULL);                /* keeping the argument */
    CHECK(text && strstr(text, "12.345") && strstr(text, "[12.300, 12.390]"));
    free(text);
    text = fit_text(t, 24); /* narrower than the widest cell: it is cut, every line fits */
    CHECK(text && widest_line(text) <= 24);
    free(text);
    tks__table_free(t);
}

/* A table streamed into memory: its header is out once stream_open returns. */
struct streamed {
    tks__table *t;
    FILE *f;
    char *buf;
    size_t len;
};

static int stream_open(struct streamed *s, int ncols, const char *const *headers,
                       const char *align, const size_t *planned)
{
    memset(s, 0, sizeof *s);
    s->t = tks__table_new(ncols, headers, align);
    s->f = open_memstream(&s->buf, &s->len);
    CHECK(s->t && s->f);
    if (s->t && s->f)
        CHECK_EQ_U64(tks__table_stream(s->t, s->f, "", 0, planned), 0);
    return s->t && s->f;
}

static void stream_close(struct streamed *s)
{
    if (s->f)
        fclose(s->f);
    free(s->buf);
    tks__table_free(s->t);
}

/* A streamed table prints its header at once and each row when given, in planned widths. */
static void test_stream(void)
{
    static const char *const headers[] = {"name", "ticks"};
    static const char *const r1[] = {"a", "1.5"}, *const r2[] = {"bb", "1234567.5"};
    static const size_t planned[] = {6, 8};
    struct streamed s;

    if (stream_open(&s, 2, headers, "lr", planned)) {
        CHECK_STR(s.buf, "name       ticks\n----------------\n"); /* flushed: already there */
        CHECK_EQ_U64(tks__table_stream_row(s.t, r1), 0);
        CHECK_STR(s.buf, "name       ticks\n----------------\na            1.5\n");
        CHECK_EQ_U64(tks__table_stream_row(s.t, r2), 0); /* wider: pushed, never cut */
        CHECK(strstr(s.buf, "bb      1234567.5\n") != NULL);
    }
    stream_close(&s);
}

/* A streamed cell wider than planned takes what it needs from the padding and separators after
 * it on its line, down to one space, so that the line keeps its length where they have room. */
static void test_stream_gives_back(void)
{
    static const char *const headers[] = {"name", "cycles", "min", "note"};
    static const char *const wide[] = {"a", "1.5+0.2/-2.0", "7", "x"};
    static const char *const wider[] = {"b", "1.5+0.2/-2.0 (shared)", "7", "x"};
    static const size_t planned[] = {4, 8, 6, 4};
    struct streamed s;

    if (stream_open(&s, 4, headers, "lrrl", planned)) {
        CHECK_STR(s.buf, "name    cycles     min  note\n----------------------------\n");
        CHECK_EQ_U64(tks__table_stream_row(s.t, wide), 0); /* 4 over: 1 separator, 3 of padding */
        CHECK(strstr(s.buf, "\na     1.5+0.2/-2.0   7  x\n") != NULL);
        CHECK_EQ_U64(tks__table_stream_row(s.t, wider), 0); /* more than the line has: runs on */
        CHECK(strstr(s.buf, "\nb     1.5+0.2/-2.0 (shared) 7 x\n") != NULL);
    }
    stream_close(&s);
}

int main(void)
{
    test_eta();
    test_fit();
    test_stream();
    test_stream_gives_back();
    test_alignment_and_utf8();
    test_no_trailing_spaces();
    test_copies_and_growth();
    test_table_errors();
    test_fmt();
    test_progress();
    CHECK_DONE();
}
