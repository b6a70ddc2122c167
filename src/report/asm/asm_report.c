/* SPDX-License-Identifier: MIT */
/* asm_report.c: one measured snippet for people (what ran, its cost per copy in ticks and core
 * cycles with their intervals, the fit) and as JSON. Tables of snippets: asm_table.c. */
#include "report/asm/asm_report.h"

#include <math.h>
#include <string.h>

#include "report/machine/analysis_report.h"

static const char *mode_name(enum tks_asm_mode m)
{
    return m == TKS_ASM_THROUGHPUT ? "throughput" : "latency";
}

static const char *syntax_name(enum tks_asm_syntax s)
{
    return s == TKS_ASM_ATT ? "att" : s == TKS_ASM_HEX ? "hex" : "intel";
}

void tks__report_asm_text(const tks__asm_request *q, const tks_asm_result *r,
                          const tks_platform *p, FILE *f)
{
    const tks_asm_interval *t = &r->ticks_per_copy, *c = &r->core_cycles;
    fprintf(f, "Snippet     %s\n", q->code);
    if (q->init && *q->init)
        fprintf(f, "Init        %s\n", q->init);
    fprintf(f, "Mode        %s (%s)\n", mode_name(r->mode),
            r->mode == TKS_ASM_LATENCY
                ? "each copy's result feeds the next copy: the time from input to output"
                : "copies independent of each other: the time between two starts");
    if (r->ring == 0) {
        int irq = q->where != TKS_WHERE_KERNEL_PREEMPT_OFF;
        fprintf(f, "Ring        0: run by the kernel module on CPU %d, preemption%s off\n",
                r->kernel_cpu, irq ? " and interrupts" : "");
    }
    fprintf(f, "Windows     %u, %u, %u and %u copies a loop iteration x %llu iterations; %llu "
            "windows, %llu kept, over %u stretches\n",
            r->unroll[0], r->unroll[1], r->unroll[2], r->unroll[3],
            (unsigned long long)r->loops[0], (unsigned long long)r->windows,
            (unsigned long long)r->kept, r->blocks);
    fprintf(f, "\n  per copy         value      95%% interval\n");
    fprintf(f, "  ticks        %9.4f  [%.4f, %.4f]\n", t->value, t->lo, t->hi);
    if (isfinite(c->value))
        fprintf(f, "  core cycles  %9.4f  [%.4f, %.4f]  %s (%.4f cycles per tick)\n", c->value,
                c->lo, c->hi, r->core_cycles_source, r->cycles_per_tick);
    else
        fprintf(f, "  core cycles        -   (the add-chain reference could not be fitted)\n");
    if (p && p->tsc_hz > 0)
        fprintf(f, "  ns           %9.4f\n", tks_ticks_to_ns(p, t->value));
    fprintf(f, "\nFit         ticks per iteration = %.4f x copies %+.3f (r2 %.6f): the slope is "
            "the cost of a copy, the intercept the loop's own\n",
            r->fit.slope, r->fit.intercept, r->fit.r2);
    if (r->ring == 0 && p && p->tsc_hz > 0)
        fprintf(f, "Longest stretch with %s off: %llu ticks (%.1f us)\n",
                q->where == TKS_WHERE_KERNEL_PREEMPT_OFF ? "preemption" : "interrupts",
                (unsigned long long)r->section_max_ticks,
                tks_ticks_to_ns(p, (double)r->section_max_ticks) / 1000);
    fprintf(f, "\nWhat ran: the loop of %u copies (%zu bytes a copy), disassembled by objdump%s\n",
            r->unroll[0], r->code_bytes,
            r->ring == 0 ? " (the module calls it between the clock reads, with R14 and R15 set)"
                         : "");
    for (size_t i = 0; i < r->n_disasm; i++)
        fprintf(f, "  %s\n", r->disasm[i]);
    tks__diags_print(f, &r->diags, "", NULL);
}

static void interval_json(tks__json *j, const char *key, const tks_asm_interval *v)
{
    tks__json_range(j, key, v->lo, v->hi);
}

/* The members of one snippet's result, into the current object. */
void tks__report_asm_members(tks__json *j, const tks__asm_request *q, const tks_asm_result *r)
{
    if (q->name)
        tks__json_string(j, "name", q->name);
    tks__json_string(j, "snippet", q->code);
    tks__json_string(j, "init", q->init && *q->init ? q->init : NULL);
    tks__json_string(j, "syntax", syntax_name(q->syntax));
    tks__json_string(j, "mode", mode_name(q->mode));
    tks__json_string(j, "chain", q->chain);
    tks__json_u64(j, "chase_bytes", q->chase_bytes);
    tks__json_u64(j, "align", q->align);
    tks__json_u64(j, "ring", (uint64_t)r->ring);
    if (r->ring == 0) {
        tks__json_string(j, "kernel_own", q->where == TKS_WHERE_KERNEL_PREEMPT_OFF ? "preempt"
                                                                                 : "irq");
        tks__json_i64(j, "kernel_cpu", r->kernel_cpu);
        tks__json_u64(j, "section_max_ticks", r->section_max_ticks);
    }
    tks__json_begin_array(j, "unroll");
    for (int i = 0; i < TKS_ASM_UNROLLS; i++)
        tks__json_u64(j, NULL, r->unroll[i]);
    tks__json_end_array(j);
    tks__json_u64(j, "loops", r->loops[0]);
    tks__json_u64(j, "windows", r->windows);
    tks__json_u64(j, "kept", r->kept);
    tks__json_u64(j, "discarded", r->discarded);
    tks__json_double(j, "ticks_per_copy", r->ticks_per_copy.value);
    interval_json(j, "ticks_per_copy_ci", &r->ticks_per_copy);
    tks__json_double(j, "core_cycles", r->core_cycles.value);
    interval_json(j, "core_cycles_ci", &r->core_cycles);
    tks__json_string(j, "core_cycles_source", r->core_cycles_source);
    tks__json_bool(j, "core_cycles_estimate", 1);
    tks__json_double(j, "cycles_per_tick", r->cycles_per_tick);
    tks__json_begin_object(j, "fit");
    tks__json_double(j, "slope", r->fit.slope);
    tks__json_double(j, "intercept", r->fit.intercept);
    tks__json_double(j, "r2", r->fit.r2);
    tks__json_double(j, "slope_se", r->fit.slope_se);
    tks__json_u64(j, "points", r->fit.n);
    tks__json_end_object(j);
    tks__json_u64(j, "code_bytes", r->code_bytes);
    tks__json_begin_array(j, "disassembly");
    for (size_t i = 0; i < r->n_disasm; i++)
        tks__json_string(j, NULL, r->disasm[i]);
    tks__json_end_array(j);
    tks__json_diags(j, &r->diags);
}

void tks__report_asm_json_begin(tks__json *j, const tks_platform *p, FILE *f)
{
    tks__json_init(j, f);
    tks__json_begin_object(j, NULL);
    tks__json_string(j, "command", "asm");
    if (p)
        tks__report_context_json(j, p, p->quantum.quantum);
}

int tks__report_asm_json(const tks__asm_request *q, const tks_asm_result *r,
                         const tks_platform *p, FILE *f)
{
    tks__json j;
    tks__report_asm_json_begin(&j, p, f);
    tks__report_asm_members(&j, q, r);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}
