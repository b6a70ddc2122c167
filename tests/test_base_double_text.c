/* SPDX-License-Identifier: MIT */
/* test_base_double_text.c: figures written to a file read back as the same doubles, in the
 * fewest digits that do it; and the instruction table's cache, which once printed 1.0005 measured
 * as "1.001" and the same figure read back from its six digits as "1.000". */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/cpu_table.h"
#include "base/double_text.h"
#include "check.h"

static void test_shortest(void)
{
    char buf[40];

    tks__double_text(buf, sizeof buf, 0.1);
    CHECK_STR(buf, "0.1");
    tks__double_text(buf, sizeof buf, 0.25);
    CHECK_STR(buf, "0.25");
    tks__double_text(buf, sizeof buf, -3);
    CHECK_STR(buf, "-3");
    tks__double_text(buf, sizeof buf, 1e-300);
    CHECK_STR(buf, "1e-300");
    /* the double after 0.3 (what 0.1 + 0.2 is in double arithmetic, but not when an x87 build
     * folds the sum in long double and rounds it once): it takes 17 digits */
    tks__double_text(buf, sizeof buf, nextafter(0.3, 1.0));
    CHECK_STR(buf, "0.30000000000000004");
    tks__double_text(buf, sizeof buf, DBL_MAX);
    CHECK(strtod(buf, NULL) == DBL_MAX);
}

/* Doubles of every size and of measured-looking fractions read back exactly. */
static void test_round_trip(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int bad = 0;

    for (int i = 0; i < 100000; i++) {
        char buf[40];
        double v;

        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 40) - 20);
        tks__double_text(buf, sizeof buf, v);
        bad += strtod(buf, NULL) != v;
    }
    CHECK_EQ_U64(bad, 0);
}

/* The table written to a CSV and read back holds the same figures, bit for bit. */
static void test_table_cache(void)
{
    char path[] = "/tmp/tks_double_text_XXXXXX", err[256] = "";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    tks__asm_entry e;
    tks__asm_table t;

    CHECK(f != NULL);
    if (!f)
        return;
    memset(&e, 0, sizeof e);
    snprintf(e.form, sizeof e.form, "add r64, imm8");
    snprintf(e.key, sizeof e.key, "L1-1");
    snprintf(e.feature, sizeof e.feature, "x86-64");
    snprintf(e.snippet, sizeof e.snippet, "add rax, 3");
    e.kind = TKS__KIND_LATENCY;
    e.src = e.dst = 1;
    e.res.cycles.value = nextafter(1.0005, 2);
    e.res.cycles.lo = nextafter(0.9985, 0);
    e.res.cycles.hi = 1.0024999999999999;
    e.res.ticks.value = 0.1 + 0.2;
    e.res.ticks.lo = 0.29;
    e.res.ticks.hi = 0.31;
    e.res.r2 = 0.99999999999;
    e.res.windows = 123;
    e.hash = 0xfeedull;
    tks__asm_csv_header(f);
    tks__asm_csv_entry(f, &e);
    CHECK(fclose(f) == 0);
    CHECK(tks__asm_table_read_csv(path, &t, err, sizeof err) == 0);
    CHECK_EQ_U64(t.n, 1);
    if (t.n == 1) {
        CHECK(t.e[0].res.cycles.value == e.res.cycles.value);
        CHECK(t.e[0].res.cycles.lo == e.res.cycles.lo);
        CHECK(t.e[0].res.cycles.hi == e.res.cycles.hi);
        CHECK(t.e[0].res.ticks.value == e.res.ticks.value);
        CHECK(t.e[0].res.r2 == e.res.r2);
        CHECK_STR(t.e[0].form, e.form);
    }
    tks__asm_table_free(&t);
    unlink(path);
}

int main(void)
{
    test_shortest();
    test_round_trip();
    test_table_cache();
    CHECK_DONE();
}
