/* SPDX-License-Identifier: MIT */
/* test_report_bench_text.c: the console table's core-cycle cell: value +- half the interval's
 * width, or each side where the two differ by more than a tenth (latency mode on a shared core
 * reaches down further than up), never a +- that would misplace one end by more than that. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/bench/bench_report.h"

static char *console(const tks_result *r, size_t n)
{
    static tks_platform p;
    tks_options o;
    char *buf = NULL;
    size_t len;
    FILE *out = open_memstream(&buf, &len);
    tks_options_init(&o);
    CHECK(tks__writers_write(&tks__bench_writers, TKS_FORMAT_CONSOLE, out,
                             &(tks__bench_doc){&o, &p, r, n, "test", 0}) == 0);
    fclose(out);
    return buf;
}

static void result(tks_result *r, const char *name, double lo, double hi)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->ok = 1;
    r->mode = TKS_MODE_LATENCY;
    r->estimate = (tks_interval){80, 79.9, 80.1};
    r->core_cycles = (tks_interval){102, lo, hi};
    r->ns = r->min = r->median = r->overhead = (tks_interval){NAN, NAN, NAN};
}

int main(void)
{
    static tks_result r[3];
    char *text;
    result(&r[0], "even", 101.8, 102.2);
    result(&r[1], "shared", 99.8, 102.2); /* the low end at the adds' slowdown */
    result(&r[2], "ratio", 101.78, 102.2); /* a ratio's interval: sides 0.22 and 0.20 */
    text = console(r, 3);
    CHECK(strstr(text, "102.00+-0.20") != NULL);
    CHECK(strstr(text, "102.0+0.2/-2.2") != NULL); /* a tenth of the half-width: 1 decimal */
    CHECK(strstr(text, "102.00+-0.21") != NULL); /* 9% apart: +- half the width */
    free(text);
    CHECK_DONE();
}
