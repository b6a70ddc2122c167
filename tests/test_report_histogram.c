/* test_report_histogram.c: terminal histograms: bins on the quantum, outliers folded into counted
 * rows and never dropped, and the printed chart checked byte for byte against hand-worked text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/report.h"
#include "tickscope.h"

/* The ENOMEM case asks for petabytes; under AddressSanitizer that must fail like malloc does
 * instead of aborting the test. Without the sanitizer nothing calls this. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

/* Appends count copies of v at x[*n]. */
static void fill(uint64_t *x, size_t *n, uint64_t v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        x[(*n)++] = v;
}

static uint64_t sum_counts(const tks__histogram *h)
{
    uint64_t s = h->below + h->above;

    for (size_t b = 0; b < h->nbins; b++)
        s += h->counts[b];
    return s;
}

/* Prints into memory and returns the text (caller frees), with the return code in *rc. */
static char *hist_text(const uint64_t *x, size_t n, uint64_t q, double median, double mean,
                       const tks__histogram_style *style, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    *rc = tks__histogram_print(f, x, n, q, median, mean, style);
    fclose(f);
    return buf;
}

/* The line of text holding needle, copied (caller frees), or NULL. */
static char *line_with(const char *text, const char *needle)
{
    const char *hit = text ? strstr(text, needle) : NULL, *start, *end;
    char *line;

    if (!hit)
        return NULL;
    for (start = hit; start > text && start[-1] != '\n'; start--)
        ;
    end = strchr(hit, '\n');
    end = end ? end : hit + strlen(hit);
    line = malloc((size_t)(end - start) + 1);
    if (!line)
        return NULL;
    memcpy(line, start, (size_t)(end - start));
    line[end - start] = '\0';
    return line;
}

static int no_trailing_spaces(const char *text)
{
    for (const char *p = text; p && *p; p++)
        if (*p == ' ' && (p[1] == '\n' || p[1] == '\0'))
            return 0;
    return text != NULL;
}

/* (1) Values that are all multiples of q = 2 get one bin each, 2 ticks wide, starting on the
 * smallest value; an odd smallest value starts the bins one tick lower, on a multiple of q. */
static void test_quantised(void)
{
    static const uint64_t even[] = {50, 52, 52, 52, 54, 54, 54, 54, 54, 56, 56, 58};
    static const uint64_t odd[] = {51, 53, 53, 55};
    static const uint64_t expect[] = {1, 3, 5, 2, 1};
    tks__histogram h;

    CHECK_EQ_U64(tks__histogram_build(even, 12, 2, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 50);
    CHECK_EQ_U64(h.width, 2);
    CHECK_EQ_U64(h.nbins, 5);
    for (size_t b = 0; b < 5 && b < h.nbins; b++)
        CHECK_EQ_U64(h.counts[b], expect[b]);
    CHECK_EQ_U64(h.below, 0);
    CHECK_EQ_U64(h.above, 0);
    CHECK_EQ_U64(h.total, 12);
    tks__histogram_free(&h);
    CHECK(h.counts == NULL);

    CHECK_EQ_U64(tks__histogram_build(odd, 4, 2, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 50);
    CHECK_EQ_U64(h.width, 2);
    CHECK_EQ_U64(h.nbins, 3);
    if (h.nbins == 3) {
        CHECK_EQ_U64(h.counts[0], 1);
        CHECK_EQ_U64(h.counts[1], 2);
        CHECK_EQ_U64(h.counts[2], 1);
    }
    tks__histogram_free(&h);
}

/* (2) A range too wide for one bin per quantum: the bins are the narrowest multiple of q that
 * fits max_bins. 0..999 in 10 bins of multiples of 3: 99 * 10 < 1000, so 102 (34 quanta). */
static void test_wide(void)
{
    uint64_t *x = malloc(1000 * sizeof *x);
    tks__histogram h;

    CHECK(x != NULL);
    if (!x)
        return;
    for (size_t i = 0; i < 1000; i++)
        x[i] = i;
    CHECK_EQ_U64(tks__histogram_build(x, 1000, 3, 10, &h), 0);
    CHECK_EQ_U64(h.lo, 0);
    CHECK_EQ_U64(h.width, 102);
    CHECK_EQ_U64(h.nbins, 10);
    if (h.nbins == 10) {
        CHECK_EQ_U64(h.counts[0], 102);
        CHECK_EQ_U64(h.counts[8], 102);
        CHECK_EQ_U64(h.counts[9], 1000 - 9 * 102);
    }
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);

    /* 1000..1999, q = 7: lo = 994 (142 * 7); 1006 ticks need 10 bins of 105 (98 is too narrow).
     * The first bin [994, 1098] holds 1000..1098, the last [1939, 2043] holds 1939..1999. */
    for (size_t i = 0; i < 1000; i++)
        x[i] = 1000 + i;
    CHECK_EQ_U64(tks__histogram_build(x, 1000, 7, 10, &h), 0);
    CHECK_EQ_U64(h.lo, 994);
    CHECK_EQ_U64(h.width, 105);
    CHECK_EQ_U64(h.nbins, 10);
    if (h.nbins == 10) {
        CHECK_EQ_U64(h.counts[0], 99);
        CHECK_EQ_U64(h.counts[1], 105);
        CHECK_EQ_U64(h.counts[9], 61);
    }
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);

    /* The default is 24 bins. */
    for (size_t i = 0; i < 1000; i++)
        x[i] = i;
    CHECK_EQ_U64(tks__histogram_build(x, 1000, 0, 0, &h), 0);
    CHECK_EQ_U64(h.width, 42); /* 999 / 24 + 1 */
    CHECK_EQ_U64(h.nbins, 24);
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);
    free(x);
}

/* (3) 990 values in 100..109 (99 of each) with 1..5 far below and 999996..1000000 far above.
 * Q1 = 102, Q3 = 107, so the far fences are 87 and 122; the 1st and 99th percentiles (100 and
 * 109) lie inside them. The bins run from the smallest sample inside (100) to the largest
 * (109), one tick each, and the ten far values are folded, counted and their extremes kept. */
static void test_outliers(void)
{
    uint64_t x[1000];
    size_t n = 0;
    tks__histogram h;

    for (uint64_t v = 1; v <= 5; v++)
        fill(x, &n, v, 1);
    for (uint64_t v = 100; v <= 109; v++)
        fill(x, &n, v, 99);
    for (uint64_t v = 999996; v <= 1000000; v++)
        fill(x, &n, v, 1);
    CHECK_EQ_U64(n, 1000);
    CHECK_EQ_U64(tks__histogram_build(x, n, 1, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 100);
    CHECK_EQ_U64(h.width, 1);
    CHECK_EQ_U64(h.nbins, 10);
    for (size_t b = 0; b < h.nbins; b++)
        CHECK_EQ_U64(h.counts[b], 99);
    CHECK_EQ_U64(h.below, 5);
    CHECK_EQ_U64(h.below_min, 1);
    CHECK_EQ_U64(h.above, 5);
    CHECK_EQ_U64(h.above_max, 1000000);
    CHECK_EQ_U64(h.total, 1000);
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);

    /* With 4 bins at most, the 10 ticks need bins 3 wide: [100,102] .. [109,111]. */
    CHECK_EQ_U64(tks__histogram_build(x, n, 1, 4, &h), 0);
    CHECK_EQ_U64(h.width, 3);
    CHECK_EQ_U64(h.nbins, 4);
    if (h.nbins == 4) {
        CHECK_EQ_U64(h.counts[0], 3 * 99);
        CHECK_EQ_U64(h.counts[3], 99);
    }
    CHECK_EQ_U64(sum_counts(&h), 1000);
    tks__histogram_free(&h);
}

/* (4) All values equal: one bin, one quantum wide, on the multiple of q at or below the value. */
static void test_all_equal(void)
{
    uint64_t x[1000];
    size_t n = 0;
    tks__histogram h;

    fill(x, &n, 77, 1000);
    CHECK_EQ_U64(tks__histogram_build(x, n, 4, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 76);
    CHECK_EQ_U64(h.width, 4);
    CHECK_EQ_U64(h.nbins, 1);
    if (h.nbins == 1)
        CHECK_EQ_U64(h.counts[0], 1000);
    CHECK_EQ_U64(h.below + h.above, 0);
    tks__histogram_free(&h);

    n = 0;
    fill(x, &n, 0, 3);
    CHECK_EQ_U64(tks__histogram_build(x, n, 1, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 0);
    CHECK_EQ_U64(h.width, 1);
    CHECK_EQ_U64(h.nbins, 1);
    if (h.nbins == 1)
        CHECK_EQ_U64(h.counts[0], 3);
    tks__histogram_free(&h);
}

/* (5) One sample, and samples at the top of the uint64_t range, where bin ends could wrap. */
static void test_single_and_extremes(void)
{
    static const uint64_t one[] = {12345};
    static const uint64_t top[] = {UINT64_MAX - 1, UINT64_MAX};
    static const uint64_t span[] = {0, UINT64_MAX};
    tks__histogram h;
    char *text;
    int rc = -100;

    CHECK_EQ_U64(tks__histogram_build(one, 1, 10, 0, &h), 0);
    CHECK_EQ_U64(h.lo, 12340);
    CHECK_EQ_U64(h.width, 10);
    CHECK_EQ_U64(h.nbins, 1);
    if (h.nbins == 1)
        CHECK_EQ_U64(h.counts[0], 1);
    CHECK_EQ_U64(h.total, 1);
    tks__histogram_free(&h);

    text = hist_text(one, 1, 10, 12345.0, 12345.0, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK_STR(text, "12340-12349  \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                    "  1  100.0%  median, mean\n");
    free(text);

    CHECK_EQ_U64(tks__histogram_build(top, 2, 1, 0, &h), 0);
    CHECK_EQ_U64(h.lo, UINT64_MAX - 1);
    CHECK_EQ_U64(h.nbins, 2);
    CHECK_EQ_U64(sum_counts(&h), 2);
    tks__histogram_free(&h);
    text = hist_text(top, 2, 1, 1.8446744073709552e19, 1.8446744073709552e19, NULL, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK(text != NULL && strstr(text, "18446744073709551615  ") != NULL);
    free(text);

    /* 2^64 - 1 ticks in one bin: the width cannot be a multiple of q = 2^63 + 1 that large, so
     * the single bin is one quantum wide and the top sample is folded above, not lost. */
    CHECK_EQ_U64(tks__histogram_build(span, 2, (UINT64_C(1) << 63) + 1, 1, &h), 0);
    CHECK_EQ_U64(h.lo, 0);
    CHECK_EQ_U64(h.width, (UINT64_C(1) << 63) + 1);
    CHECK_EQ_U64(h.nbins, 1);
    CHECK_EQ_U64(h.above, 1);
    CHECK_EQ_U64(h.above_max, UINT64_MAX);
    CHECK_EQ_U64(sum_counts(&h), 2);
    tks__histogram_free(&h);
    CHECK_EQ_U64(tks__histogram_build(span, 2, 1, 1, &h), 0);
    CHECK_EQ_U64(h.width, UINT64_MAX);
    CHECK_EQ_U64(h.nbins, 1);
    CHECK_EQ_U64(h.above, 1);
    tks__histogram_free(&h);
}

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

/* (6) The whole chart, worked out by hand. Bars are out of 20 characters for the largest count
 * (100): 20 -> 4, 60 -> 12, 18 -> 3.6 -> 4, and 1 -> 0.2, shown as one '#' because a row with
 * samples must never look like an empty bin. */
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
    test_quantised();
    test_wide();
    test_outliers();
    test_all_equal();
    test_single_and_extremes();
    test_print_ascii();
    test_print_unicode();
    test_print_rows();
    test_realistic();
    test_errors();
    CHECK_DONE();
}
