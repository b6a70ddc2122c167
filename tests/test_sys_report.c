/* SPDX-License-Identifier: MIT */
/* test_sys_report.c: `tickscope sys`'s outputs and derived rows on synthetic results with
 * hand-checked figures: the console table, Markdown, the JSON document, and a row derived from
 * two others (difference, scale, widest interval, units). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/sys/sys_report.h"
#include "sys/sys_internal.h"

static tks_sys_op op(const char *id, const char *what, double v, double lo, double hi)
{
    tks_sys_op o;
    memset(&o, 0, sizeof o);
    snprintf(o.id, sizeof o.id, "%s", id);
    snprintf(o.what, sizeof o.what, "%s", what);
    o.ok = 1;
    o.ticks = (tks_interval){v, lo, hi};
    /* 2 core cycles per tick, 0.5 ns per tick (a 2 GHz TSC) */
    o.cycles = (tks_interval){2 * v, 2 * lo, 2 * hi};
    o.ns = (tks_interval){v / 2, lo / 2, hi / 2};
    o.core_source = TKS_CORE_INTERLEAVED;
    o.per_op_divisor = 1;
    o.all_windows_ns = v;
    o.windows = 1000;
    return o;
}

static char *capture(void (*fn)(const tks_sys_result *, FILE *), const tks_sys_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(r, f);
    fclose(f);
    return buf;
}

static void platform(tks_platform *p)
{
    memset(p, 0, sizeof *p);
    p->tsc_hz = 2e9;
    p->invariant_tsc = 1;
    p->quantum.quantum = 26;
    snprintf(p->cpu.vendor, sizeof p->cpu.vendor, "AuthenticAMD");
}

static void derived(void)
{
    tks_sys_options o;
    tks_platform p;
    tks_sys_result r;
    struct tks__sys_run run;
    tks_sys_op *d;
    tks_sys_options_init(&o);
    platform(&p);
    memset(&r, 0, sizeof r);
    memset(&run, 0, sizeof run);
    run.o = &o;
    run.p = &p;
    run.r = &r;
    *tks__sys_row(&run, "rt", "round trip") = op("rt", "round trip", 1000, 990, 1010);
    *tks__sys_row(&run, "self", "pipe") = op("self", "pipe", 100, 99, 101);
    /* (1000 - 2 x 100) / 2 = 400; widest: (990 - 202) / 2 = 394, (1010 - 198) / 2 = 406 */
    d = tks__sys_derive(&run, "sw", "switch", "rt", "self", 2, 0.5, TKS_DIAG_SYS_ROW_CTXSW);
    CHECK(d != NULL);
    if (d) {
        CHECK(d->derived && d->ok);
        CHECK_NEAR(d->ticks.value, 400, 1e-9);
        CHECK_NEAR(d->ticks.lo, 394, 1e-9);
        CHECK_NEAR(d->ticks.hi, 406, 1e-9);
        CHECK_NEAR(d->ns.value, 200, 1e-9);      /* 0.5 ns a tick */
        CHECK_NEAR(d->cycles.value, 800, 1e-9);  /* rt's 2 cycles a tick */
        CHECK_NEAR(d->cycles.lo, 788, 1e-9);
        /* its note, a code: what it was derived from */
        CHECK(d->diags.n == 1 && d->diags.items[0].code == TKS_DIAG_SYS_ROW_CTXSW);
    }
    CHECK_EQ_U64(r.n_ops, 3);
    /* a negative scale keeps lo below hi */
    d = tks__sys_derive(&run, "neg", "negated", "self", NULL, 1, -1, TKS_DIAG_SYS_ROW_TLB_MISS);
    CHECK(d && d->ticks.lo == -101 && d->ticks.hi == -99);
    /* a missing or failed operand: no row */
    r.ops[1].ok = 0;
    CHECK(tks__sys_derive(&run, "sw2", "switch", "rt", "self", 2, 0.5, TKS_DIAG_SYS_ROW_CTXSW) == NULL);
    CHECK(tks__sys_derive(&run, "sw3", "switch", "nothing", NULL, 1, 1, TKS_DIAG_SYS_ROW_CTXSW) == NULL);
    CHECK_EQ_U64(r.n_ops, 4);
    CHECK(tks__sys_find(&run, "sw") == &r.ops[2]);
    for (size_t i = 0; i < r.n_ops; i++)
        tks_diags_free(&r.ops[i].diags);
    free(r.ops);
}

static tks_sys_result *sample_result(void)
{
    tks_sys_result *r = calloc(1, sizeof *r);
    r->suite = TKS_SYS_MEM;
    r->seconds = 1.5;
    r->n_ops = 3;
    r->ops = calloc(3, sizeof *r->ops);
    r->ops[0] = op("lat_l1", "load-to-use latency, L1", 2.5, 2.4, 2.6);
    r->ops[0].per_op_divisor = 1024;
    tks__diag(&r->ops[0].diags, TKS_DIAG_SYS_FEW_WINDOWS, TKS__DN(50));
    /* the note goes before the warnings the runner found */
    tks__sys_note(&r->ops[0], TKS_DIAG_SYS_ROW_LEVEL, TKS__DN(24), TKS__DN(48), TKS__DN(1));
    r->ops[1] = op("read_l1", "read bandwidth, 24 KiB (l1)", 1000, 990, 1010);
    r->ops[1].bytes = 24576;
    r->ops[1].gb_per_s = 24576 / 500.0; /* 49.152 bytes per ns */
    r->ops[1].diags = (tks_diags){0};
    tks__diag(&r->ops[1].diags, TKS_DIAG_SYS_FEW_WINDOWS, TKS__DN(42));
    memset(&r->ops[2], 0, sizeof r->ops[2]);
    snprintf(r->ops[2].id, sizeof r->ops[2].id, "lat_l3");
    snprintf(r->ops[2].error, sizeof r->ops[2].error, "partner died");
    r->ops[2].ticks = r->ops[2].cycles = r->ops[2].ns = (tks_interval){NAN, NAN, NAN};
    tks__diag0(&r->diags, TKS_DIAG_SYS_HUGE_REFUSED);
    r->n_caches = 2;
    r->caches[0] = (tks_sys_cache_level){1, "Data", 49152};
    r->caches[1] = (tks_sys_cache_level){2, "Unified", 1048576};
    r->n_curve = 2;
    r->curve[0] = (tks_sys_curve_point){32768, 4, 2.5, 2.4, 2.6, NAN};
    r->curve[1] = (tks_sys_curve_point){65536, 14, 8.75, 8.7, 8.8, 13.5};
    r->n_knees = 1;
    r->knees[0] = 32768;
    return r;
}

static void text(void)
{
    tks_sys_result *r = sample_result();
    char *t = capture(tks__report_sys_text, r);
    CHECK(strstr(t, "== mem (1.5 s)") != NULL);
    CHECK(strstr(t, "intervals within this run") != NULL);
    /* ticks 2.500 [2.400, 2.600], cycles 5.000, ns 1.250 */
    CHECK(strstr(t, "2.500") && strstr(t, "[2.400, 2.600]") && strstr(t, "5.000") &&
          strstr(t, "1.250"));
    /* 1000 ticks print as 1000, the bandwidth as 49.2 GB/s */
    CHECK(strstr(t, "[990, 1010]") != NULL);
    CHECK(strstr(t, "49.2") != NULL);
    CHECK(strstr(t, "lat_l3: not measured: partner died") != NULL);
    CHECK(strstr(t, "warning: read_l1: only 42 windows fitted in the time budget: raise --time") != NULL);
    CHECK(strstr(t, "note: transparent huge pages refused") != NULL);
    /* a row's note first, its warnings after */
    CHECK(strstr(t, "note: lat_l1: the curve at 24 KiB, inside the 48 KiB L1 /sys reports\n"
                    "warning: lat_l1: only 50 windows") != NULL);
    CHECK(strstr(t, "Levels from /sys: L1 Data 48 KiB; L2 Unified 1 MiB") != NULL);
    CHECK(strstr(t, "Knees of the curve (last working set before the cost doubles): 32 KiB") != NULL);
    CHECK(strstr(t, "64 KiB") && strstr(t, "13.5"));
    free(t);
    t = capture(tks__report_sys_markdown, r);
    CHECK(strstr(t, "## mem") != NULL);
    CHECK(strstr(t, "| `lat_l1` | 2.500 | [2.400, 2.600] | 5.000 | 1.250 | - | load-to-use latency, L1 |") != NULL);
    CHECK(strstr(t, "| `read_l1` | 1000 | [990, 1010] | 2000 | 500.0 | 49.2 |") != NULL);
    CHECK(strstr(t, "- lat_l3: not measured: partner died") != NULL);
    CHECK(strstr(t, "| 64 KiB | 14.0 | 8.750 | [8.700, 8.800] | 13.5 |") != NULL);
    free(t);
    tks_sys_result_free(r);
}

static void json(void)
{
    tks_sys_result *r = sample_result();
    tks_sys_result *res[1] = {r};
    tks_sys_perf_row row;
    tks_platform p;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    platform(&p);
    memset(&row, 0, sizeof row);
    snprintf(row.what, sizeof row.what, "sched pipe");
    snprintf(row.ours_id, sizeof row.ours_id, "pipe_rt_proc");
    snprintf(row.unit, sizeof row.unit, "us/op");
    row.ok = 1;
    row.perf_value = 8;
    row.ours_value = 4;
    row.gap = -0.5;
    row.ours_all_value = 7.6; /* every window: 7.6 us, -5% */
    row.gap_all = -0.05;
    row.like_for_like = 0; /* unpinned: placement differs */
    row.pinned_cpu = -1;
    row.perf_runs = 5;
    row.perf_lo = 7.5;
    row.perf_hi = 9;
    snprintf(row.alt_id, sizeof row.alt_id, "pipe_rt_proc_2cpu");
    row.alt_value = 30;
    row.ours_runs = 5;
    tks__diag(&row.diags, TKS_DIAG_SYS_PERF_SPREAD, TKS__DN(5), TKS__DN(7.5), TKS__DN(9),
              TKS__DN(19));
    CHECK(tks__report_sys_json(res, 1, &row, 1, &p, f) == 0);
    fclose(f);
    CHECK(strstr(buf, "\"command\": \"sys\"") != NULL);
    CHECK(strstr(buf, "\"context\": {") != NULL);
    CHECK(strstr(buf, "\"suite\": \"mem\"") != NULL);
    CHECK(strstr(buf, "\"id\": \"lat_l1\"") != NULL);
    CHECK(strstr(buf, "\"operations_per_window\": 1024") != NULL);
    CHECK(strstr(buf, "\"gb_per_s\": 49.152") != NULL);
    CHECK(strstr(buf, "\"error\": \"partner died\"") != NULL);
    CHECK(strstr(buf, "\"knees\": [\n        32768\n      ]") != NULL);
    CHECK(strstr(buf, "\"core_cycles_huge_pages\": null") != NULL); /* NaN is null */
    CHECK(strstr(buf, "\"versus_perf\": [") != NULL);
    CHECK(strstr(buf, "\"gap\": -0.5") != NULL);
    CHECK(strstr(buf, "\"gap_every_window\": -0.05") != NULL);
    CHECK(strstr(buf, "\"like_for_like\": false") != NULL);
    CHECK(strstr(buf, "\"pinned_cpu\"") == NULL); /* unpinned: no CPU */
    CHECK(strstr(buf, "\"perf_lo\": 7.5") && strstr(buf, "\"perf_hi\": 9") &&
          strstr(buf, "\"perf_runs\": 5") && strstr(buf, "\"ours_runs\": 5"));
    CHECK(strstr(buf, "\"other_operation\": \"pipe_rt_proc_2cpu\"") && strstr(buf, "\"other\": 30"));
    /* a row's note and a perf row's reason are diagnostics: no prose slot */
    CHECK(strstr(buf, "\"reason\"") == NULL);
    CHECK(strstr(buf, "\"code\": \"sys.perf.spread\"") != NULL);
    CHECK(strstr(buf, "\"code\": \"sys.row.level\"") != NULL);
    CHECK(strstr(buf, "\"level_kib\": 48") != NULL);
    free(buf);
    /* perf's rows beside ours, in text */
    buf = NULL;
    f = open_memstream(&buf, &len);
    tks__report_sys_perf_text(&row, 1, 0, f);
    fclose(f);
    CHECK(strstr(buf, "sched pipe") && strstr(buf, "8.000") && strstr(buf, "-50.0%"));
    CHECK(strstr(buf, "every window 7.600, -5.0%") != NULL);
    CHECK(strstr(buf, "(median of 5, 7.500 to 9.000)") != NULL);
    CHECK(strstr(buf, "(pipe_rt_proc, median of 5 between perf's runs)") != NULL);
    CHECK(strstr(buf, "placement differs") && strstr(buf, "pipe_rt_proc_2cpu 30.0"));
    CHECK(strstr(buf, "30.0: perf's own 5 runs ranged 7.5 to 9 (19% apart): the load moved that "
                      "much\n") != NULL);
    free(buf);
    /* pinned, like for like: said so */
    row.like_for_like = 1;
    buf = NULL;
    f = open_memstream(&buf, &len);
    tks__report_sys_perf_text(&row, 1, 1, f);
    fclose(f);
    CHECK(strstr(buf, "| like for like | perf's own 5 runs ranged 7.5 to 9 (19% apart): the load "
                      "moved that much |\n") != NULL);
    free(buf);
    tks_sys_perf_rows_free(&row, 1);
    tks_sys_result_free(r);
}

int main(void)
{
    derived();
    text();
    json();
    CHECK_DONE();
}
