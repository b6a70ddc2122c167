/* SPDX-License-Identifier: MIT */
/* sys_json.c: the `tickscope sys --json` document: the context block every result file carries,
 * then each suite's operations (figures with their intervals, what each holds, warnings), the
 * mem suite's levels, curve and knees, and perf bench's figures beside ours. */
#include <math.h>

#include "report/machine/analysis_report.h"
#include "report/sys/sys_report.h"

static void interval(tks__json *j, const char *key, const tks_interval *v)
{
    tks__json_begin_object(j, key);
    tks__json_double(j, "value", v->value);
    tks__json_double(j, "lo", v->lo);
    tks__json_double(j, "hi", v->hi);
    tks__json_end_object(j);
}

static const char *core_source(int s)
{
    return s == TKS_CORE_INTERLEAVED ? "interleaved" : s == TKS_CORE_CALIBRATED ? "calibrated" : "none";
}

static void op_json(tks__json *j, const tks_sys_op *op)
{
    tks__json_begin_object(j, NULL);
    tks__json_string(j, "id", op->id);
    tks__json_string(j, "what", op->what);
    tks__json_bool(j, "ok", op->ok);
    if (!op->ok) {
        tks__json_string(j, "error", op->error);
        tks__json_bool(j, "unavailable", op->unavailable);
    }
    tks__json_bool(j, "derived", op->derived);
    interval(j, "ticks", &op->ticks);
    interval(j, "core_cycles", &op->cycles);
    tks__json_string(j, "core_source", core_source(op->core_source));
    interval(j, "ns", &op->ns);
    tks__json_double(j, "all_windows_ns", op->all_windows_ns);
    if (!isnan(op->same_cpu_share))
        tks__json_double(j, "same_cpu_share", op->same_cpu_share);
    tks__json_double(j, "operations_per_window", op->per_op_divisor);
    tks__json_u64(j, "windows", op->windows);
    if (op->bytes > 0) {
        tks__json_double(j, "bytes", op->bytes);
        tks__json_double(j, "gb_per_s", op->gb_per_s);
    }
    tks__json_diags(j, &op->diags);
    tks__json_end_object(j);
}

static void mem_json(tks__json *j, const tks_sys_result *r)
{
    tks__json_begin_array(j, "caches");
    for (size_t i = 0; i < r->n_caches; i++) {
        tks__json_begin_object(j, NULL);
        tks__json_i64(j, "level", r->caches[i].level);
        tks__json_string(j, "type", r->caches[i].type);
        tks__json_u64(j, "bytes", r->caches[i].bytes);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
    tks__json_begin_array(j, "curve");
    for (size_t i = 0; i < r->n_curve; i++) {
        const tks_sys_curve_point *pt = &r->curve[i];
        tks__json_begin_object(j, NULL);
        tks__json_u64(j, "bytes", pt->bytes);
        tks__json_double(j, "core_cycles", pt->cycles);
        tks__json_double(j, "ticks", pt->ticks);
        tks__json_double(j, "ticks_lo", pt->lo);
        tks__json_double(j, "ticks_hi", pt->hi);
        tks__json_double(j, "core_cycles_huge_pages", pt->cycles_huge);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
    tks__json_begin_array(j, "knees");
    for (size_t i = 0; i < r->n_knees; i++)
        tks__json_u64(j, NULL, r->knees[i]);
    tks__json_end_array(j);
}

int tks__report_sys_json(tks_sys_result *const *res, size_t n, const tks_sys_perf_row *rows,
                         size_t n_rows, const tks_platform *p, FILE *f)
{
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "sys");
    tks__report_context_json(&j, p, p->quantum.quantum);
    tks__json_begin_array(&j, "suites");
    for (size_t s = 0; s < n; s++) {
        const tks_sys_result *r = res[s];
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "suite", tks_sys_suite_name(r->suite));
        tks__json_double(&j, "seconds", r->seconds);
        tks__json_diags(&j, &r->diags);
        tks__json_begin_array(&j, "operations");
        for (size_t i = 0; i < r->n_ops; i++)
            op_json(&j, &r->ops[i]);
        tks__json_end_array(&j);
        if (r->suite == TKS_SYS_MEM)
            mem_json(&j, r);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    if (rows) {
        tks__json_begin_array(&j, "versus_perf");
        for (size_t i = 0; i < n_rows; i++) {
            tks__json_begin_object(&j, NULL);
            tks__json_string(&j, "perf_bench", rows[i].what);
            tks__json_string(&j, "operation", rows[i].ours_id);
            tks__json_bool(&j, "ok", rows[i].ok);
            if (!rows[i].ok)
                tks__json_string(&j, "error", rows[i].error);
            tks__json_string(&j, "unit", rows[i].unit);
            tks__json_bool(&j, "like_for_like", rows[i].like_for_like);
            if (rows[i].pinned_cpu >= 0)
                tks__json_i64(&j, "pinned_cpu", rows[i].pinned_cpu);
            tks__json_double(&j, "perf", rows[i].perf_value);
            tks__json_double(&j, "perf_lo", rows[i].perf_lo);
            tks__json_double(&j, "perf_hi", rows[i].perf_hi);
            tks__json_i64(&j, "perf_runs", rows[i].perf_runs);
            tks__json_double(&j, "perf_on_cpu", rows[i].perf_on_cpu);
            tks__json_double(&j, "ours", rows[i].ours_value);
            tks__json_i64(&j, "ours_runs", rows[i].ours_runs);
            tks__json_double(&j, "gap", rows[i].gap);
            tks__json_double(&j, "ours_every_window", rows[i].ours_all_value);
            tks__json_double(&j, "gap_every_window", rows[i].gap_all);
            if (rows[i].alt_id[0]) {
                tks__json_string(&j, "other_operation", rows[i].alt_id);
                tks__json_double(&j, "other", rows[i].alt_value);
            }
            tks__json_diags(&j, &rows[i].diags);
            tks__json_end_object(&j);
        }
        tks__json_end_array(&j);
    }
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}
