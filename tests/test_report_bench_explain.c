/* SPDX-License-Identifier: MIT */
/* test_report_bench_explain.c: a benchmark program's --explain report on synthetic results: each
 * class's finding (ports names its kinds, latency says "by elimination" and never "chain", an
 * undetermined result whose base drifted more than the additions cost says so, memory names the
 * working set, the loads' figures, the knee and the level exceeded, or that none is declared),
 * experiments run on a shared core marked and explained once, a failed benchmark's error, and
 * the JSON's fields, through --explain's writer table. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "report/bench/bench_report.h"
#include "tickscope/asm_explain.h"

/* A base of `base` cycles ([lo, hi]) and one experiment of each kind with the ratios given. */
static void result(tks_explain_result *r, double base, double lo, double hi, const double *ratio,
                   enum tks_explain_class cls)
{
    static const char *const names[] = {"+8 x alu: add r64, r64", "+8 x fmul: mulpd xmm",
                                        "+8 x 8-byte NOP (64 bytes)"};
    memset(r, 0, sizeof *r);
    r->exp[0].kind = TKS_EXPLAIN_BASE;
    snprintf(r->exp[0].name, sizeof r->exp[0].name, "the benchmark as given");
    r->exp[0].cycles = (tks_asm_interval){base, lo, hi};
    r->exp[0].alone = r->exp[0].ratio = NAN;
    for (int i = 0; i < 3; i++) {
        tks_explain_experiment *e = &r->exp[i + 1];
        e->kind = i == 2 ? TKS_EXPLAIN_NOPS : TKS_EXPLAIN_WORK;
        snprintf(e->name, sizeof e->name, "%s", names[i]);
        e->alone = 4;
        e->ratio = ratio[i];
        e->delta = (tks_asm_interval){4 * ratio[i], 4 * ratio[i] - 0.5, 4 * ratio[i] + 0.5};
        e->cycles = (tks_asm_interval){base + e->delta.value, base + e->delta.lo,
                                       base + e->delta.hi};
    }
    r->n = 4;
    r->cls = cls;
    if (cls == TKS_EXPLAIN_PORTS)
        snprintf(r->port_kinds, sizeof r->port_kinds, "fmul");
}

static char *write(enum tks_format f, const tks_explain_result *r, size_t n)
{
    static const char *const names[] = {"bm_a", "bm_b", "bm_c", "bm_d", "bm_e"};
    char *buf = NULL;
    size_t len;
    FILE *out = open_memstream(&buf, &len);
    int rc = tks__writers_write(&tks__bench_explain_writers, f, out,
                                &(tks__bench_explain_doc){NULL, r, names, n});
    fclose(out);
    CHECK(rc == 0);
    return buf;
}

/* A memory result: r's base (of `result`) with explain_memory.c's rows: the working set, a load
 * inside L1 and one over the working set; the level it exceeds (L3, 32 MiB) and the knee. */
static void memory_rows(tks_explain_result *r, double load)
{
    static const char *const names[] = {"the block's working set", "a dependent load over 8 KiB",
                                        "a dependent load over 64 MiB"};
    static const uint64_t sets[] = {(uint64_t)64 << 20, 8192, (uint64_t)64 << 20};
    r->level = 3;
    r->level_bytes = (uint64_t)32 << 20;
    r->knee_lo = 8192;
    r->knee_hi = (uint64_t)64 << 20;
    for (int i = 0; i < 3; i++) {
        tks_explain_experiment *e = &r->exp[r->n++];
        memset(e, 0, sizeof *e);
        e->kind = TKS_EXPLAIN_TOUCHED;
        snprintf(e->name, sizeof e->name, "%s", names[i]);
        e->working_set = sets[i];
        e->alone = e->ratio = NAN;
        e->delta = (tks_asm_interval){NAN, NAN, NAN};
        e->cycles = i == 0 ? (tks_asm_interval){NAN, NAN, NAN}
                  : i == 2 ? (tks_asm_interval){load, 0.9 * load, 1.1 * load}
                           : (tks_asm_interval){4, 3.9, 4.1};
    }
}

int main(void)
{
    static tks_explain_result r[5];
    static const double ports[] = {0.02, 1.0, 0.05}, none[] = {0.01, -0.02, 0.03},
                        noisy[] = {0.9, -1.2, 0.4};
    char *text, *json;
    result(&r[0], 20, 19.9, 20.1, ports, TKS_EXPLAIN_PORTS);
    result(&r[1], 48, 47.9, 48.1, none, TKS_EXPLAIN_LATENCY);
    r[1].exp[2].core_shared = 1; /* its fmul run found another thread on the core */
    result(&r[2], 900, 800, 1100, noisy, TKS_EXPLAIN_UNDETERMINED); /* spread 300 > alone 4 */
    memset(&r[3], 0, sizeof r[3]);
    snprintf(r[3].error, sizeof r[3].error, "skipped: no memory");
    result(&r[4], 950, 800, 1100, noisy, TKS_EXPLAIN_MEMORY);
    memory_rows(&r[4], 900);

    text = write(TKS_FORMAT_CONSOLE, r, 5);
    CHECK(strstr(text, "Benchmark   bm_a\nLimit       execution ports: work of the kind fmul") != NULL);
    CHECK(strstr(text, "Class       ports\n") != NULL);
    CHECK(strstr(text, "Class       latency\n") != NULL);
    CHECK(strstr(text, "latency, by elimination") != NULL);
    CHECK(strstr(text, "Class       chain") == NULL);
    CHECK(strstr(text, "drifted between its runs") != NULL);
    CHECK(strstr(text, "Benchmark   bm_d\nError       skipped: no memory\n") != NULL);
    CHECK(strstr(text, "cycles/repetition") != NULL);
    CHECK(strstr(text, "+8 x fmul: mulpd xmm") != NULL);
    /* the shared core: the row marked, and the note once, under bm_b's table only */
    CHECK(strstr(text, "+8 x fmul: mulpd xmm [core shared]") != NULL);
    CHECK(strstr(text, "[core shared]: in 1 of 4 experiments the add check found") != NULL);
    CHECK(strstr(strstr(text, "[core shared]: in") + 1, "[core shared]: in") == NULL);
    CHECK(strstr(text, "Benchmark   bm_c") > strstr(text, "[core shared]: in"));
    CHECK(strstr(text, "Not tested: the block at other working sets") != NULL);
    /* memory: the working set, the two loads and their ratio, the block in loads */
    CHECK(strstr(text, "Benchmark   bm_e\nLimit       memory: ") != NULL);
    CHECK(strstr(text, "Class       memory\n") != NULL);
    CHECK(strstr(text, "the block touched 64 MiB of pages as it ran; a dependent load over as "
                       "many bytes costs 900 cycles here, 225 times one inside the first cache "
                       "level (4.0)") != NULL);
    CHECK(strstr(text, "from beyond the core's own caches; a load's cost rises most between "
                       "8 KiB and 64 MiB; the working set exceeds L3 (32 MiB); a repetition of "
                       "the block costs 950, 1.06 such loads") != NULL);
    CHECK(strstr(text, "shrink the working set") != NULL);
    CHECK(strstr(text, "a dependent load over 8 KiB") != NULL);
    /* the working set's own row has no cycles: dashes, not nan */
    CHECK(strstr(text, "nan") == NULL);

    json = write(TKS_FORMAT_JSON, r, 5);
    CHECK(strstr(json, "\"command\": \"--explain\"") != NULL);
    CHECK(strstr(json, "\"class\": \"ports\"") != NULL);
    CHECK(strstr(json, "\"port_kinds\": \"fmul\"") != NULL);
    CHECK(strstr(json, "\"class\": \"latency\"") != NULL);
    CHECK(strstr(json, "\"class\": \"undetermined\"") != NULL);
    CHECK(strstr(json, "\"error\": \"skipped: no memory\"") != NULL);
    CHECK(strstr(json, "\"kind\": \"nops\"") != NULL);
    CHECK(strstr(json, "\"core_shared\": true") != NULL);
    CHECK(strstr(json, "\"core_shared_experiments\": 1,") != NULL);
    CHECK(strstr(json, "\"core_shared_experiments\": 0,") != NULL);
    CHECK(strstr(json, "\"delta_ci\"") != NULL && strstr(json, "\"ratio\"") != NULL);
    CHECK(strstr(json, "\"class\": \"memory\"") != NULL);
    CHECK(strstr(json, "\"kind\": \"touched\"") != NULL);
    CHECK(strstr(json, "\"working_set\": 67108864") != NULL);
    CHECK(strstr(json, "\"working_set\": 8192") != NULL);
    CHECK(strstr(json, "\"level_exceeded\": 3,") != NULL);
    CHECK(strstr(json, "\"level_bytes\": 33554432,") != NULL);
    CHECK(strstr(json, "\"knee_bytes\": [") != NULL);
    /* no levels declared (a guest's /sys), no knee: said so, no keys */
    free(text);
    free(json);
    r[4].level = 0;
    r[4].knee_lo = r[4].knee_hi = 0;
    text = write(TKS_FORMAT_CONSOLE, r, 5);
    json = write(TKS_FORMAT_JSON, r, 5);
    CHECK(strstr(text, "own caches (the machine declares no cache sizes to name the level); a "
                       "repetition") != NULL);
    CHECK(strstr(json, "level_exceeded") == NULL && strstr(json, "knee_bytes") == NULL);
    /* a format --explain has no writer for */
    {
        FILE *out = fopen("/dev/null", "w");
        CHECK(tks__writers_write(&tks__bench_explain_writers, TKS_FORMAT_CSV, out,
                                 &(tks__bench_explain_doc){NULL, r, NULL, 0}) == TKS_EINVAL);
        fclose(out);
    }
    free(text);
    free(json);
    CHECK_DONE();
}
