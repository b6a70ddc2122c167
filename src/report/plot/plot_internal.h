/* SPDX-License-Identifier: MIT */
/* plot_internal.h: what the gnuplot files share: a figure's data file and script, written under
 * temporary names and committed together (plot_files.c), for the figures (plot_figures.c). */
#ifndef TKS_REPORT_PLOT_INTERNAL_H
#define TKS_REPORT_PLOT_INTERNAL_H

#include "report/common/report.h"

/* One figure being written: NAME.dat and NAME.gp, both under temporary names until the end. */
struct tks__plot_figure {
    char *name;             /* sanitised */
    char *dat_path, *gp_path;
    tks__atomic_file dat, gp;
};

/* Create dir if missing and open dir/NAME.dat and dir/NAME.gp, NAME being name made safe for a
 * file name. 0, or a TKS_E* code with nothing left behind. */
int tks__plot_figure_open(struct tks__plot_figure *fig, const char *dir, const char *name);
/* Undo everything; errno is kept so the caller can say why it failed. */
void tks__plot_figure_abort(struct tks__plot_figure *fig);
/* Both files or neither; fig is freed either way. 0 or a TKS_E* code. */
int tks__plot_figure_commit(struct tks__plot_figure *fig);

#endif
