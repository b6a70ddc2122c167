/* SPDX-License-Identifier: MIT */
/* test_report_phrases.c: sentences the reports once got wrong, on synthetic results: the verdict
 * never says a minimum "resolves 0 instruction(s)", the overhead column never prints a fraction
 * like "(0.0384615q)", and info and validate say the same thing about unfenced reads (their
 * commonest delta, not one rare smallest one). */
#include <stdlib.h>

#include "check.h"
#include "report/machine/analysis_report.h"
#include "tickscope.h"

static char *capture_verdict(const tks_validation *v, const tks_resolution_result *r,
                             const tks_platform *p)
{
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    tks__report_verdict(v, r, p, f);
    fclose(f);
    return buf;
}

static void platform(tks_platform *p)
{
    memset(p, 0, sizeof *p);
    p->tsc_hz = 2.6e9;
    p->quantum.quantum = 26;
    p->quantum.reads = 100;
    /* commonest first: 26 most often, 1 and 25 now and then (AMD Zen under KVM) */
    p->quantum.unfenced_delta[0] = 26, p->quantum.unfenced_count[0] = 68;
    p->quantum.unfenced_delta[1] = 1, p->quantum.unfenced_count[1] = 16;
    p->quantum.unfenced_delta[2] = 25, p->quantum.unfenced_count[2] = 16;
    p->quantum.unfenced_step = 1;
}

static void test_verdict(void)
{
    static tks_validation v;
    tks_resolution_result r;
    tks_platform p;
    char *s;
    platform(&p);
    memset(&v, 0, sizeof v);
    memset(&r, 0, sizeof r);
    v.quantum = 26;
    v.recommended = TKS_METHOD_LFENCE;
    v.methods[TKS_METHOD_LFENCE].across.min_of_minimums = 26;
    r.npoints = 41;
    r.res_min = 0, r.res_mean = 5;
    s = capture_verdict(&v, &r, &p);
    CHECK(strstr(s, "resolves 0") == NULL);
    CHECK(strstr(s, "instruction(s)") == NULL);
    CHECK(strstr(s, "the minimum resolves no step up to 20 adds") != NULL);
    CHECK(strstr(s, "the phase-averaged mean resolves 5 adds") != NULL);
    free(s);
    r.res_min = 1, r.res_mean = 0;
    s = capture_verdict(&v, &r, &p);
    CHECK(strstr(s, "the minimum resolves 1 add and") != NULL);
    CHECK(strstr(s, "the phase-averaged mean resolves no step up to 20 adds") != NULL);
    free(s);
}

static void test_validation_text(void)
{
    static tks_validation v;
    static const uint64_t mins[] = {1, 26, 39, 9256};
    static const char *const want[] = {"1 (<1q)", "26 (1q)", "39 (1.5q)", "9256 (356q)"};
    enum tks_method ms[4];
    size_t nm = 0;
    tks_platform p;
    char *buf = NULL, *line;
    size_t len;
    FILE *f;
    platform(&p);
    /* Methods this architecture lists (x86 and arm64 have different ones). */
    for (int m = 0; m < TKS_METHOD_COUNT && nm < 4; m++)
        if (tks_method_listed((enum tks_method)m, TKS_WHERE_USER))
            ms[nm++] = (enum tks_method)m;
    memset(&v, 0, sizeof v);
    v.quantum = 26;
    v.unfenced_step = 1;
    v.recommended = nm ? (int)ms[0] : -1;
    v.reference = -1;
    for (size_t i = 0; i < nm; i++) {
        v.methods[ms[i]].selected = 1;
        v.methods[ms[i]].available = 1;
        v.methods[ms[i]].across.min_of_minimums = mins[i];
    }
    f = open_memstream(&buf, &len);
    tks__report_validation_text(&v, &p, f);
    fclose(f);
    CHECK(strstr(buf, "back-to-back unfenced reads most often differ by 26") != NULL);
    CHECK(strstr(buf, "differ by at least") == NULL);
    CHECK(nm >= 2);
    for (size_t i = 0; i < nm; i++) {
        line = strstr(buf, tks_method_info(ms[i])->name);
        if (!strstr(buf, want[i]))
            fprintf(stderr, "no '%s' in:\n%s\n", want[i], buf);
        CHECK(line != NULL && strstr(buf, want[i]) != NULL);
    }
    CHECK(strstr(buf, "0.0384615") == NULL);
    free(buf);

    /* No nonzero unfenced delta: nothing said about them, rather than "differ by 0". */
    memset(p.quantum.unfenced_count, 0, sizeof p.quantum.unfenced_count);
    buf = NULL;
    f = open_memstream(&buf, &len);
    tks__report_validation_text(&v, &p, f);
    fclose(f);
    CHECK(strstr(buf, "unfenced reads") == NULL || strstr(buf, "differ by 0") == NULL);
    CHECK(strstr(buf, "most often differ") == NULL);
    free(buf);
}

int main(void)
{
    test_verdict();
    test_validation_text();
    CHECK_DONE();
}
