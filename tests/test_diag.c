/* SPDX-License-Identifier: MIT */
/* test_diag.c: the diagnostics list (tickscope/diag.h) holds together, and a diagnostic renders
 * its template with its own values: every value named in the list appears in its template, ids
 * are unique and dotted, names round-trip through the collection and the child's wire. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "report/common/report.h"

#include "check.h"

/* Every code: a dotted lowercase id, unique; a valid severity; each value "name:kind" named in
 * the template as {name}, with a kind the renderer knows. */
static void test_list(void)
{
    for (int c = 0; c < TKS_DIAG_COUNT; c++) {
        const tks_diag_info *in = tks_diag_info_of((enum tks_diag_code)c);
        const char *p;
        CHECK(in != NULL);
        CHECK(strchr(in->id, '.') != NULL);
        for (p = in->id; *p; p++)
            CHECK(islower((unsigned char)*p) || *p == '.' || *p == '_' || isdigit((unsigned char)*p));
        CHECK(tks_diag_code_from_id(in->id) == c);
        CHECK(in->severity == TKS_SEV_NOTE || in->severity == TKS_SEV_WARNING ||
              in->severity == TKS_SEV_ERROR);
        CHECK(tks__diag_count((enum tks_diag_code)c) <= TKS_DIAG_VALUES_MAX);
        for (p = in->values; *p;) {
            const char *colon = strchr(p, ':'), *end = strchr(p, ' ');
            char want[64];
            size_t len;
            CHECK(colon != NULL);
            if (!colon)
                break;
            len = (size_t)(colon - p);
            CHECK(len > 0 && len + 3 < sizeof want);
            snprintf(want, sizeof want, "{%.*s}", (int)len, p);
            if (!strstr(in->text, want))
                fprintf(stderr, "  %s: value %s is not in the template\n", in->id, want);
            CHECK(strstr(in->text, want) != NULL);
            CHECK(colon[1] == 's' || colon[1] == 'e' || colon[1] == '%');
            p = end ? end + 1 : colon + strlen(colon);
        }
    }
    CHECK(tks_diag_info_of(TKS_DIAG_COUNT) == NULL);
    CHECK(tks_diag_code_from_id("no.such") == -1);
    CHECK_STR(tks_severity_name(TKS_SEV_WARNING), "warning");
}

static void test_render(void)
{
    tks_diags ds = {0};
    char *m;
    CHECK(tks__diag(&ds, TKS_DIAG_BENCH_NEGATIVE, TKS__DS("latency"), TKS__DN(-1.25),
                    TKS__DN(-2), TKS__DN(-0.5)) == 0);
    CHECK(tks__diag(&ds, TKS_DIAG_BENCH_PIN_REFUSED, TKS__DN(3), TKS__DN(EPERM)) == 0);
    CHECK(tks__diag0(&ds, TKS_DIAG_ASM_CHAIN_UNUSED) == 0);
    CHECK(tks__diag(&ds, TKS_DIAG_BENCH_LOOP_FLOOR, TKS__DN(0.5), TKS__DN(NAN)) == 0);
    /* the wrong number of values is refused, nothing added */
    CHECK(tks__diag_add(&ds, TKS_DIAG_BENCH_FEW_WINDOWS, NULL, 0) == TKS_EINVAL ||
          tks__diag_count(TKS_DIAG_BENCH_FEW_WINDOWS) == 0);
    CHECK_EQ_U64(ds.n, 4);
    m = tks_diag_message(&ds.items[0]);
    CHECK_STR(m, "negative (-1.250 ticks, interval [-2.000, -0.500]): the block made the window "
                 "shorter than the empty one; it is below what latency mode resolves here");
    free(m);
    m = tks_diag_message(&ds.items[1]);
    CHECK(m && strstr(m, "could not pin to CPU 3 (") && strstr(m, strerror(EPERM)));
    free(m);
    m = tks_diag_message(&ds.items[2]); /* {r} is not a value: kept as written */
    CHECK(m && strstr(m, "no {r}, {x} or {y} to put"));
    free(m);
    m = tks_diag_message(&ds.items[3]);
    CHECK(m && strstr(m, "(0.500 ticks = n/a core cycles"));
    free(m);
    CHECK(tks_diag_number(&ds.items[0], "lo") == -2);
    CHECK(isnan(tks_diag_number(&ds.items[0], "mode"))); /* a name, not a number */
    CHECK(isnan(tks_diag_number(&ds.items[0], "nothing")));
    CHECK(tks_diags_has(&ds, TKS_DIAG_BENCH_PIN_REFUSED));
    CHECK(!tks_diags_has(&ds, TKS_DIAG_BENCH_FORKED));
    {
        tks_diags copy = {0};
        CHECK(tks__diags_append(&copy, &ds) == 0);
        CHECK_EQ_U64(copy.n, 4);
        CHECK(copy.items[0].values[0].str != ds.items[0].values[0].str); /* its own names */
        CHECK_STR(copy.items[0].values[0].str, "latency");
        tks_diags_free(&copy);
        CHECK(copy.n == 0 && copy.items == NULL);
    }
    tks_diags_free(&ds);
}

/* The JSON of a diagnostic: code, severity, message and its values by name. */
static void test_json(void)
{
    tks_diags ds = {0};
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    tks__json j;
    CHECK(f != NULL);
    if (!f)
        return;
    tks__diag(&ds, TKS_DIAG_SYS_LEVEL_NO_KNEE, TKS__DN(32768));
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_diags(&j, &ds);
    tks__json_end_object(&j);
    CHECK(tks__json_finish(&j) == 0);
    fclose(f);
    CHECK(strstr(buf, "\"code\": \"sys.level_no_knee\"") != NULL);
    CHECK(strstr(buf, "\"severity\": \"warning\"") != NULL);
    CHECK(strstr(buf, "near the 32768 KiB /sys reports") != NULL);
    CHECK(strstr(buf, "\"kib\": 32768") != NULL);
    free(buf);
    tks_diags_free(&ds);
}

int main(void)
{
    test_list();
    test_render();
    test_json();
    CHECK_DONE();
}
