/* SPDX-License-Identifier: MIT */
/* test_report_histogram_print.c: the terminal histogram as printed: ASCII and Unicode bars,
 * the row limit, a realistic distribution and bad arguments. */
#include "histogram_util.h"

/* 200 samples with q = 2: one far below (10), 20 at 50, 100 at 52, 60 at 54, none at 56, 18 at
 * 58 and one far above (900). Q1 = 52 and Q3 = 54 (IQR 2, one quantum), far fences 46 and 60,
 * percentiles 50 and 58: bins 50-51 .. 58-59, with 10 and 900 folded. The median is 52; the
 * mean, 56.97, falls in the empty bin 56-57, which must still be printed and marked. */
static size_t small_case(uint64_t *x)
{
    size_t n = 0;

    fill(x, &n, 10, 1);
    fill(x, &n, 50, 20);
    fill(x, &n, 52, 100);
    fill(x, &n, 54, 60);
    fill(x, &n, 58, 18);
    fill(x, &n, 900, 1);
    return n;
}

static void test_print_ascii(void)
{
    uint64_t x[200];
    size_t n = small_case(x);
    tks__histogram_style style = {20, 0, 1, NULL};
    char *text;
    int rc = -100;

    CHECK_EQ_U64(n, 200);
    text = hist_text(x, n, 2, 52.0, 56.97, &style, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK_STR(text,
              " < 50  #                       1   0.5%  min 10\n"
              "50-51  ####                   20  10.0%\n"
              "52-53  ####################  100  50.0%  median\n"
              "54-55  ############           60  30.0%\n"
              "56-57                          0   0.0%  mean\n"
              "58-59  ####                   18   9.0%\n"
              " > 59  #                       1   0.5%  max 900\n");
    free(text);
}

/* The same chart in Unicode, 10 characters wide and indented: 80 eighths for 100, so 20 -> 16
 * (two full blocks), 60 -> 48 (six), 18 -> 14.4 -> 14 (one full and the six-eighths block
 * U+258A), 1 -> 0.8 -> 1 (the one-eighth block U+258F). */
static void test_print_unicode(void)
{
    uint64_t x[200];
    size_t n = small_case(x);
    tks__histogram_style style = {10, 0, 0, "  "};
    char *text, *line;
    int rc = -100;

    text = hist_text(x, n, 2, 52.0, 56.97, &style, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK_STR(text,
              "   < 50  \xe2\x96\x8f" "             1   0.5%  min 10\n"
              "  50-51  \xe2\x96\x88\xe2\x96\x88" "           20  10.0%\n"
              "  52-53  \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
              "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88  100  50.0%  median\n"
              "  54-55  \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
              "\xe2\x96\x88" "       60  30.0%\n"
              "  56-57                0   0.0%  mean\n"
              "  58-59  \xe2\x96\x88\xe2\x96\x8a" "           18   9.0%\n"
              "   > 59  \xe2\x96\x8f" "             1   0.5%  max 900\n");
    CHECK(no_trailing_spaces(text));
    free(text);

    /* Default style: 40 characters, Unicode, no indent. Median and mean in one bin share a
     * row; a mean far above the bins marks the folded row. */
    text = hist_text(x, n, 2, 52.0, 52.4, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK(text != NULL && strstr(text, "\xe2\x96\x88") != NULL);
    line = line_with(text, "median");
    CHECK(line != NULL && strncmp(line, "52-53  ", 7) == 0);
    CHECK(line != NULL && strstr(line, "median, mean") != NULL);
    free(line);
    CHECK(no_trailing_spaces(text));
    free(text);

    text = hist_text(x, n, 2, 53.0, 1000.0, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    line = line_with(text, "mean");
    /* 1 of 100 at 40 characters is 3.2 eighths: the three-eighths block U+258D. */
    CHECK_STR(line, " > 59  \xe2\x96\x8d"
                    "                                           1   0.5%  max 900, mean");
    free(line);
    line = line_with(text, "median");
    CHECK(line != NULL && strncmp(line, "52-53  ", 7) == 0);
    free(line);
    free(text);

    /* NaN marks nothing; a mean below every sample has no row to mark when nothing is folded
     * there. */
    text = hist_text(x + 1, n - 1, 2, NAN, 3.0, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK(text != NULL && strstr(text, "median") == NULL && strstr(text, "mean") == NULL);
    CHECK(text != NULL && strncmp(text, "50-51  ", 7) == 0);
    free(text);
}

/* Width-1 bins print one value per row; max_rows limits the bins. */
static void test_print_rows(void)
{
    static const uint64_t x[] = {7, 8, 8, 10};
    tks__histogram_style style = {4, 2, 1, NULL};
    char *text;
    int rc = -100;

    text = hist_text(x, 4, 1, 8.0, 8.25, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK(text != NULL && strncmp(text, " 7  ", 4) == 0);
    CHECK(text != NULL && strstr(text, "\n 9  ") != NULL); /* the gap is shown */
    free(text);

    text = hist_text(x, 4, 1, 8.0, 8.25, &style, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK_STR(text,
              " 7-8  ####  3  75.0%  median, mean\n"
              "9-10  #     1  25.0%\n");
    free(text);
}

/* A realistic run: 10,000 readings mostly 52 and 54, a tail to 300 and a few near 20,000.
 * Nothing is lost and every count printed adds up to n. */
static void test_realistic(void)
{
    uint64_t *x = malloc(10000 * sizeof *x);
    size_t n = 0;
    tks__histogram h;
    char *text;
    int rc = -100;
    uint64_t printed = 0;

    CHECK(x != NULL);
    if (!x)
        return;
    fill(x, &n, 52, 6000);
    fill(x, &n, 54, 3500);
    fill(x, &n, 56, 334);
    fill(x, &n, 58, 100);
    for (uint64_t v = 60; v <= 300; v += 4)
        fill(x, &n, v, 1);
    for (uint64_t v = 20000; v < 20005; v++)
        fill(x, &n, v, 1);
    CHECK_EQ_U64(n, 10000);
    /* Q1 = 52, Q3 = 54, far fences 46 and 60, 99th percentile 58: bins 52-53 .. 60-61. */
    CHECK_EQ_U64(tks__histogram_build(x, n, 2, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 52);
    CHECK_EQ_U64(h.width, 2);
    CHECK_EQ_U64(h.nbins, 5);
    if (h.nbins == 5) {
        CHECK_EQ_U64(h.counts[0], 6000);
        CHECK_EQ_U64(h.counts[1], 3500);
        CHECK_EQ_U64(h.counts[4], 1);
    }
    CHECK_EQ_U64(h.below, 0);
    CHECK_EQ_U64(h.above, 65);
    CHECK_EQ_U64(h.above_max, 20004);
    CHECK_EQ_U64(sum_counts(&h), 10000);

    text = hist_text(x, n, 2, 52.0, 56.1, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK(no_trailing_spaces(text));
    /* Every row's count is the number after the bar: add them back up. */
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n'), *pct = strchr(p, '%');
        const char *c;

        if (!end || !pct || pct > end)
            break;
        for (c = pct; c > p && c[-1] != ' '; c--)
            ;
        while (c > p && c[-1] == ' ')
            c--;
        while (c > p && c[-1] >= '0' && c[-1] <= '9')
            c--;
        printed += strtoull(c, NULL, 10);
        p = end + 1;
    }
    CHECK_EQ_U64(printed, 10000);
    tks__histogram_free(&h);
    free(text);
    free(x);
}

/* (7) Bad arguments, a stream that cannot be written, and a bin count that cannot be
 * allocated. h is left empty on failure, so freeing it is always safe. */
static void test_errors(void)
{
    static const uint64_t x[] = {1, 2, 3};
    static const uint64_t wide[] = {0, UINT64_C(1) << 50};
    tks__histogram h = {0};
    tks__histogram_style bad = {-1, 0, 0, NULL};
    FILE *ro;

    CHECK_EQ_U64(tks__histogram_build(NULL, 3, 1, 0, &h), (uint64_t)(int64_t)TKS_EINVAL);
    CHECK_EQ_U64(tks__histogram_build(x, 0, 1, 0, &h), (uint64_t)(int64_t)TKS_EINVAL);
    CHECK_EQ_U64(tks__histogram_build(x, 3, 1, 0, NULL), (uint64_t)(int64_t)TKS_EINVAL);
    CHECK(h.counts == NULL && h.nbins == 0);
    tks__histogram_free(&h);
    tks__histogram_free(NULL);

    CHECK_EQ_U64(tks__histogram_print(NULL, x, 3, 1, 2, 2, NULL), (uint64_t)(int64_t)TKS_EINVAL);
    CHECK_EQ_U64(tks__histogram_print(stdout, NULL, 3, 1, 2, 2, NULL), (uint64_t)(int64_t)TKS_EINVAL);
    CHECK_EQ_U64(tks__histogram_print(stdout, x, 0, 1, 2, 2, NULL), (uint64_t)(int64_t)TKS_EINVAL);
    CHECK_EQ_U64(tks__histogram_print(stdout, x, 3, 1, 2, 2, &bad), (uint64_t)(int64_t)TKS_EINVAL);

    ro = fopen("/dev/null", "r");
    CHECK(ro != NULL);
    if (ro) {
        CHECK_EQ_U64(tks__histogram_print(ro, x, 3, 1, 2, 2, NULL), (uint64_t)(int64_t)TKS_EIO);
        fclose(ro);
    }

    /* 2^50 + 1 one-tick bins: eight petabytes of counts. */
    CHECK_EQ_U64(tks__histogram_build(wide, 2, 1, SIZE_MAX, &h), (uint64_t)(int64_t)TKS_ENOMEM);
    CHECK(h.counts == NULL && h.nbins == 0);
    tks__histogram_free(&h);
}

int main(void)
{
    test_print_ascii();
    test_print_unicode();
    test_print_rows();
    test_realistic();
    test_errors();
    CHECK_DONE();
}
