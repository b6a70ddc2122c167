/* SPDX-License-Identifier: MIT */
/* kernel_report.c: where the samples were taken (user space or the kernel module, and how long
 * the module kept the CPU), and the "context" block every result file carries. */
#include "report/machine/analysis_report.h"

#include <math.h>

const char *tks__report_where_name(enum tks_where where)
{
    switch (where) {
    case TKS_WHERE_KERNEL_IRQ_OFF:     return "kernel-irq-off";
    case TKS_WHERE_KERNEL_PREEMPT_OFF: return "kernel-preempt-off";
    default:                           return "user";
    }
}

static double section_us(const tks_platform *p, const tks_kernel_stats *s)
{
    return p ? tks_ticks_to_ns(p, (double)s->section_max_ticks) / 1000 : NAN;
}

void tks__report_kernel_line(enum tks_where where, const tks_kernel_stats *s, const tks_platform *p,
                            FILE *f)
{
    double us;
    if (where == TKS_WHERE_USER)
        return;
    fprintf(f, "Samples taken in the kernel module on CPU %d with %s.", s->cpu,
            where == TKS_WHERE_KERNEL_IRQ_OFF ? "preemption and interrupts off (white paper)"
                                              : "preemption off and interrupts on");
    us = section_us(p, s);
    if (s->sections) {
        fprintf(f, " Longest stretch with %s off: %llu ticks",
                where == TKS_WHERE_KERNEL_IRQ_OFF ? "interrupts" : "preemption",
                (unsigned long long)s->section_max_ticks);
        if (isfinite(us))
            fprintf(f, " (%.0f us)", us);
        fprintf(f, ", over %llu stretches.", (unsigned long long)s->sections);
    }
    fprintf(f, "\n");
}

void tks__report_kernel_json(enum tks_where where, const tks_kernel_stats *s, const tks_platform *p,
                            tks__json *j)
{
    tks__json_string(j, "where", tks__report_where_name(where));
    if (where == TKS_WHERE_USER)
        return;
    tks__json_begin_object(j, "kernel");
    tks__json_u64(j, "cpu", (uint64_t)(s->cpu < 0 ? 0 : s->cpu));
    tks__json_u64(j, "sections", s->sections);
    tks__json_u64(j, "section_max_ticks", s->section_max_ticks);
    tks__json_double(j, "section_max_us", section_us(p, s));
    tks__json_end_object(j);
}

void tks__report_context_json(tks__json *j, const tks_platform *p, uint64_t quantum)
{
    tks__json_begin_object(j, "context");
    tks__report_platform_json(j, p);
    tks__json_u64(j, "method_quantum_ticks", quantum);
    tks__json_end_object(j);
}
