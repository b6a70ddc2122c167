/* SPDX-License-Identifier: MIT */
/* measure.c: the glue between a measuring subcommand and the library's analyses: their options from
 * the common and --kernel options, progress, and what is done with each run's samples. */
#include "cli/measure.h"

#include <errno.h>
#include <string.h>

void cli_run_init(struct cli_run *r, const struct cli_common *c, const struct cli_kernel *k,
                  FILE *raw, const char *plot_dir)
{
    memset(r, 0, sizeof *r);
    cli_progress_init(&r->prog, "", c->quiet);
    r->common = c;
    r->kernel = k;
    r->raw = raw;
    r->plot_dir = plot_dir;
}

/* Notes, then the raw CSV, then the figures: the figures reorder the samples. */
static int on_samples(void *ctx, enum tks_method m, const tks_sample_run *run,
                      const tks_summary *ens, uint64_t quantum)
{
    struct cli_run *r = ctx;
    int rc;
    cli_placement_notes(r->common, run);
    if (r->raw && tks__csv_samples(r->raw, tks_method_info(m)->name, run->ticks, run->ensembles,
                                  run->samples) != 0)
        return TKS_EIO;
    if (r->plot_dir && (rc = tks__report_validation_plots(r->plot_dir, m, run, ens, quantum)) != 0) {
        r->plot_rc = rc;
        r->plot_errno = errno;
        return TKS_EIO; /* stops the run: --plot was asked for and cannot be honoured */
    }
    return 0;
}

void cli_run_options(struct cli_run *r, tks_analysis_common *o)
{
    o->pin_cpu = r->common->pin_cpu;
    o->fifo = r->common->fifo;
    o->where = r->kernel->where;
    o->kernel_device = r->kernel->device;
    o->kernel_methods = r->kernel->methods;
    o->stage = cli_progress_stage;
    o->progress = cli_progress_cb;
    o->progress_ctx = &r->prog;
    o->on_samples = on_samples;
    o->samples_ctx = r;
}
