/* SPDX-License-Identifier: MIT */
/* summarise.c: the helpers the analyses share: a run summarised per ensemble and across them,
 * the median of a few values, and the kernel module's section figures merged over runs. */
#include "analysis/summarise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tks__summarise_run(const tks_sample_run *run, uint64_t quantum, tks_summary **ens_out,
                      tks_across *across)
{
    tks_summary *ens = malloc(sizeof *ens * run->ensembles);
    uint64_t *scratch = malloc(sizeof *scratch * run->samples);
    int rc = TKS_ENOMEM;
    if (ens && scratch) {
        rc = tks_summarize_ensembles(run->ticks, run->ensembles, run->samples, quantum, scratch, ens);
        if (!rc)
            rc = tks_across_ensembles(ens, run->ensembles, across);
    }
    free(scratch);
    if (rc) {
        free(ens);
        ens = NULL;
    }
    *ens_out = ens;
    return rc;
}

void tks__kernel_stats_init(tks_kernel_stats *s)
{
    memset(s, 0, sizeof *s);
    s->cpu = -1;
}

void tks__kernel_stats_add(tks_kernel_stats *s, const tks_sample_run *run)
{
    if (run->kernel_cpu < 0)
        return;
    s->cpu = run->kernel_cpu;
    s->sections += run->kernel_sections;
    if (run->kernel_section_max_ticks > s->section_max_ticks)
        s->section_max_ticks = run->kernel_section_max_ticks;
}

void tks__analysis_common_init(tks_analysis_common *o)
{
    memset(o, 0, sizeof *o);
    o->pin_cpu = -1;
    o->where = TKS_WHERE_USER;
}

int tks__analysis_common_check(const tks_analysis_common *o)
{
    if (o->where != TKS_WHERE_USER && o->where != TKS_WHERE_KERNEL_IRQ_OFF &&
        o->where != TKS_WHERE_KERNEL_PREEMPT_OFF)
        return TKS_EINVAL;
    return 0;
}

int tks__analysis_kernel_methods(const tks_analysis_common *o, uint32_t *methods)
{
    tks_kernel_info info;
    int rc;
    *methods = o->kernel_methods;
    if (o->where == TKS_WHERE_USER || *methods != 0)
        return 0;
    if ((rc = tks_kernel_probe(o->kernel_device, &info)) != 0)
        return rc;
    *methods = info.methods;
    return 0;
}

void tks__analysis_plan(const tks_analysis_common *o, enum tks_method m, tks_sample_plan *p)
{
    tks_sample_plan_init(p, m);
    p->pin_cpu = o->pin_cpu;
    p->fifo = o->fifo;
    p->where = o->where;
    p->kernel_device = o->kernel_device;
}
