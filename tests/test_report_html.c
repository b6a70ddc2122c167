/* SPDX-License-Identifier: MIT */
/* test_report_html.c: the pieces of the HTML reports, on synthetic input: escaping (a name may
 * hold any character), numbers in data attributes that read back as the same double, lines of
 * console text as paragraphs, the page's skeleton (self-contained: no src, no href), tables, and
 * the SVG plotter's mapping, nice ranges and what it draws (nothing for a line with no known
 * point). The pages in a browser against the JSON: tests/cli_html.sh. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/html/html.h"

/* What fn wrote, as a string (caller frees). */
#define CAPTURE(var, ...)                                                                          \
    do {                                                                                           \
        size_t len_ = 0;                                                                           \
        FILE *f = open_memstream(&(var), &len_);                                                   \
        if (f) {                                                                                   \
            __VA_ARGS__;                                                                           \
            fclose(f);                                                                             \
        }                                                                                          \
    } while (0)

static void test_escaping(void)
{
    char *s = NULL;
    CAPTURE(s, tks__html_text(f, "a<b>&\"c\"'d'"); tks__html_text(f, NULL));
    CHECK_STR(s, "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
    free(s);
    s = NULL;
    CAPTURE(s, tks__html_lines(f, "one <1>\n\nwarning: two\n", NULL));
    CHECK_STR(s, "<p class=\"meta\">one &lt;1&gt;</p>\n<p class=\"warn\">warning: two</p>\n");
    free(s);
    s = NULL;
    CAPTURE(s, tks__html_lines(f, "x", "meta")); /* no newline at the end */
    CHECK_STR(s, "<p class=\"meta\">x</p>\n");
    free(s);
}

static void test_data(void)
{
    char *s = NULL;
    double v = 0.1 + 0.2, back;
    CAPTURE(s, tks__html_data(f, "ticks", v); tks__html_data(f, "ns", NAN));
    CHECK(s && sscanf(s, " data-ticks=\"%lf\"", &back) == 1 && back == v); /* the same double */
    CHECK(s && strstr(s, " data-ns=\"\"") != NULL);                        /* unknown: empty */
    free(s);
    s = NULL;
    CAPTURE(s, tks__html_cell(f, "1 < 2", 1.5); tks__html_cell(f, "-", NAN));
    CHECK_STR(s, "<td data-v=\"1.5\">1 &lt; 2</td><td>-</td>");
    free(s);
}

static void test_page(void)
{
    static const char *const hdr[] = {"name", "a&b"};
    char *s = NULL;
    int rc = -1;
    CAPTURE(s, tks__html_begin(f, "T <x>"); tks__html_table_begin(f, "t1", hdr, 2, 1);
            tks__html_table_end(f); rc = tks__html_end(f));
    CHECK(rc == 0);
    CHECK(s && strncmp(s, "<!DOCTYPE html>", 15) == 0);
    CHECK(s && strstr(s, "<title>T &lt;x&gt;</title>") && strstr(s, "<h1>T &lt;x&gt;</h1>"));
    CHECK(s && strstr(s, "<th>a&amp;b</th>") && strstr(s, "data-table=\"t1\""));
    CHECK(s && strstr(s, "<table class=\"sortable\" id=\"t1\">"));
    CHECK(s && !strstr(s, "src=") && !strstr(s, "href=") && !strstr(s, "http"));
    CHECK(s && strstr(s, "</script>\n</body>\n</html>\n"));
    free(s);
}

static void test_svg(void)
{
    tks__svg_axes a;
    tks__svg s;
    double lo, hi, x[3] = {1, NAN, 3}, y[3] = {1, 2, NAN}, none[2] = {NAN, NAN};
    char *out = NULL;

    tks__svg_range(0.3, 23.7, &lo, &hi);
    CHECK(lo == 0 && hi == 25); /* from 0, to a round step */
    tks__svg_range(-1.3, 0.4, &lo, &hi);
    CHECK(lo <= -1.3 && hi >= 0.4 && hi - lo < 3);
    tks__svg_range(NAN, 1, &lo, &hi);
    CHECK(lo == 0 && hi == 1);

    memset(&a, 0, sizeof a);
    a.title = "t";
    a.xlabel = "x";
    a.ylabel = "y";
    a.x0 = 0;
    a.x1 = 10;
    a.y0 = 0;
    a.y1 = 100;
    CAPTURE(out, tks__svg_begin(&s, f, &a);
            CHECK_NEAR(tks__svg_x(&s, 5) - tks__svg_x(&s, 0), tks__svg_x(&s, 10) - tks__svg_x(&s, 5), 1e-9);
            CHECK(tks__svg_y(&s, 100) < tks__svg_y(&s, 0)); /* up is less */
            tks__svg_line(&s, none, none, 2, "a");           /* nothing known: nothing drawn */
            tks__svg_line(&s, x, y, 3, "b");                 /* one known point */
            tks__svg_point(&s, 5, 50, "p <1>", "a");
            tks__svg_interval(&s, 5, 40, 60, 0, "a");
            tks__svg_end(&s));
    CHECK(out && !strstr(out, "class=\"a\" d=\"\""));
    CHECK(out && strstr(out, "<path class=\"b\" d=\"M") != NULL);
    CHECK(out && strstr(out, "<title>p &lt;1&gt;</title>") != NULL);
    CHECK(out && strstr(out, ">-0<") == NULL && strstr(out, "e-1") == NULL); /* tidy labels */
    CHECK(out && strstr(out, "</svg>\n</figure>\n") != NULL);
    free(out);

    /* log2 x: equal ratios are equal distances */
    a.logx = 1;
    a.x0 = 4096;
    a.x1 = 1 << 24;
    out = NULL;
    CAPTURE(out, tks__svg_begin(&s, f, &a);
            CHECK_NEAR(tks__svg_x(&s, 8192) - tks__svg_x(&s, 4096),
                       tks__svg_x(&s, 1 << 20) - tks__svg_x(&s, 1 << 19), 1e-9);
            tks__svg_end(&s));
    free(out);
}

int main(void)
{
    test_escaping();
    test_data();
    test_page();
    test_svg();
    CHECK_DONE();
}
