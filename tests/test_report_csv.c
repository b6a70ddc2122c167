/* SPDX-License-Identifier: MIT */
/* test_report_csv.c: raw samples as CSV: exact rows in row-major order, RFC 4180 quoting of the
 * method field, and write failures reported instead of silently truncated files. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "report/common/report.h"
#include "tickscope.h"

#define EINVAL_U64 ((uint64_t)(int64_t)TKS_EINVAL)
#define EIO_U64 ((uint64_t)(int64_t)TKS_EIO)

/* Writes the header and the samples to memory; *rc receives the samples call's result. */
static char *csv_text(const char *method, const uint64_t *ticks, uint32_t ens, uint32_t n,
                      int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    *rc = tks__csv_header(f);
    if (*rc == 0)
        *rc = tks__csv_samples(f, method, ticks, ens, n);
    fclose(f);
    return buf;
}

static void test_rows(void)
{
    static const uint64_t ticks[] = {26, 52, 0, 78, UINT64_MAX, 104};
    int rc = -100;
    char *s = csv_text("lfence", ticks, 2, 3, &rc);

    CHECK_EQ_U64(rc, 0);
    CHECK_STR(s,
              "method,ensemble,sample,ticks\n"
              "lfence,0,0,26\n"
              "lfence,0,1,52\n"
              "lfence,0,2,0\n"
              "lfence,1,0,78\n"
              "lfence,1,1,18446744073709551615\n"
              "lfence,1,2,104\n");
    free(s);
}

static void test_quoting(void)
{
    static const uint64_t ticks[] = {7};
    static const struct {
        const char *method, *expected;
    } cases[] = {
        {"a,b", "\"a,b\",0,0,7\n"},
        {"say \"hi\"", "\"say \"\"hi\"\"\",0,0,7\n"},
        {"two\nlines", "\"two\nlines\",0,0,7\n"},
        {"cr\r", "\"cr\r\",0,0,7\n"},
        {"\"", "\"\"\"\",0,0,7\n"},
        {"plain-name_2", "plain-name_2,0,0,7\n"},
        {"", ",0,0,7\n"},
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = -100;
        char *s = csv_text(cases[i].method, ticks, 1, 1, &rc);
        const char *row = s ? strchr(s, '\n') : NULL;

        CHECK_EQ_U64(rc, 0);
        CHECK_STR(row ? row + 1 : NULL, cases[i].expected);
        free(s);
    }
}

static void test_empty_and_invalid(void)
{
    static const uint64_t ticks[] = {1};
    int rc = -100;
    char *s = csv_text("m", NULL, 0, 5, &rc);

    CHECK_EQ_U64(rc, 0);
    CHECK_STR(s, "method,ensemble,sample,ticks\n");
    free(s);
    s = csv_text("m", ticks, 3, 0, &rc);
    CHECK_EQ_U64(rc, 0);
    CHECK_STR(s, "method,ensemble,sample,ticks\n");
    free(s);
    s = csv_text(NULL, ticks, 1, 1, &rc);
    CHECK_EQ_U64(rc, EINVAL_U64);
    free(s);
    s = csv_text("m", NULL, 1, 1, &rc);
    CHECK_EQ_U64(rc, EINVAL_U64);
    free(s);
    CHECK_EQ_U64(tks__csv_header(NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__csv_samples(NULL, "m", ticks, 1, 1), EINVAL_U64);
}

static void test_write_errors(void)
{
    enum { ENS = 100, N = 1000 };
    uint64_t *ticks = calloc((size_t)ENS * N, sizeof *ticks);
    FILE *f;

    /* A stream opened for reading fails on the first write. */
    f = fopen("/dev/null", "r");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ_U64(tks__csv_header(f), EIO_U64);
        CHECK_EQ_U64(tks__csv_samples(f, "m", ticks, 1, 1), EIO_U64);
        fclose(f);
    }
    /* /dev/full fails once the stdio buffer is flushed: 10^5 rows are far more than a buffer. */
    f = fopen("/dev/full", "w");
    CHECK(f != NULL && ticks != NULL);
    if (f && ticks)
        CHECK_EQ_U64(tks__csv_samples(f, "lfence", ticks, ENS, N), EIO_U64);
    if (f)
        fclose(f);
    free(ticks);
}

int main(void)
{
    test_rows();
    test_quoting();
    test_empty_and_invalid();
    test_write_errors();
    CHECK_DONE();
}
