/* SPDX-License-Identifier: MIT */
/* measure.h: glue between a measuring subcommand and the library's analyses: their options, progress
 * on stderr, and from each run's samples the placement notes, --raw CSV and --plot figures. */
#ifndef TKS_CLI_RUN_H
#define TKS_CLI_RUN_H

#include "cli/cmd_kernel.h"

struct cli_run {
    struct cli_progress prog;
    const struct cli_common *common;
    const struct cli_kernel *kernel; /* cli_kernel_ready done */
    FILE *raw;                       /* CSV sink for every sample (header written), or NULL */
    const char *plot_dir;            /* validate --plot: each method's figures go here, or NULL */
    int plot_rc, plot_errno;         /* why a figure could not be written (the run: TKS_EIO) */
};

void cli_run_init(struct cli_run *r, const struct cli_common *c, const struct cli_kernel *k,
                  FILE *raw, const char *plot_dir);
/* Placement, --kernel, progress and the samples hook of an analysis's options. */
void cli_run_options(struct cli_run *r, tks_analysis_common *o);

#endif
