/* SPDX-License-Identifier: MIT */
/* sys_plot.c: `tickscope sys --plot DIR`: the memory-latency curve (working set on a log scale
 * against core cycles per load, /sys's cache sizes and the curve's knees marked) and the call
 * staircase (core cycles per call against the number of arguments), as gnuplot data and scripts. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/bytes_text.h"
#include "report/plot/plot_internal.h"
#include "report/sys/sys_report.h"

/* "nan" is what gnuplot skips as missing; %.6g keeps the files short and exact enough. */
static void put(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.6g", v);
    else
        fputs(" nan", f);
}

static void gp_head(FILE *f, const char *name, const char *what)
{
    fprintf(f, "# %s.gp: %s, written by tickscope sys. Render with: gnuplot %s.gp (in this "
               "directory)\n", name, what, name);
    fputs("reset\nset terminal svg size 900,500 dynamic enhanced font 'sans,11'\n", f);
    fprintf(f, "set output '%s.svg'\nset grid\n", name);
}

static int latency(const char *dir, const tks_sys_result *r)
{
    struct tks__plot_figure fig;
    FILE *f;
    char a[32];
    int rc, huge = 0, cycles = 1;
    if ((rc = tks__plot_figure_open(&fig, dir, "memory_latency")) != 0)
        return rc;
    f = fig.dat.f;
    for (size_t i = 0; i < r->n_curve; i++) {
        huge |= isfinite(r->curve[i].cycles_huge);
        cycles &= !isnan(r->curve[i].cycles);
    }
    fputs("# bytes kib per_load per_load_lo per_load_hi huge_pages_cycles (per_load in core cycles, "
          "or ticks when the core clock is unknown)\n", f);
    for (size_t i = 0; i < r->n_curve; i++) {
        const tks_sys_curve_point *pt = &r->curve[i];
        double k = cycles && pt->ticks > 0 ? pt->cycles / pt->ticks : 1;
        fprintf(f, "%zu", pt->bytes);
        put(f, (double)pt->bytes / 1024);
        put(f, cycles ? pt->cycles : pt->ticks);
        put(f, pt->lo * k);
        put(f, pt->hi * k);
        put(f, pt->cycles_huge);
        fputc('\n', f);
    }
    f = fig.gp.f;
    gp_head(f, fig.name, "load-to-use latency against working set");
    fputs("set title 'Load-to-use latency (dependent pointer chase, random cyclic order)' noenhanced\n", f);
    fputs("set logscale x 2\nset xlabel 'working set (KiB, log scale)'\n", f);
    fprintf(f, "set ylabel '%s per load'\n", cycles ? "core cycles" : "ticks");
    fputs("set key top left\n", f);
    for (size_t i = 0; i < r->n_caches; i++)
        fprintf(f, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lc rgb '#2ca02c'\n"
                   "set label 'L%d %s (/sys)' at %.6g, graph 0.95 rotate by 90 right offset -1,0 "
                   "tc rgb '#2ca02c' noenhanced\n",
                (double)r->caches[i].bytes / 1024, (double)r->caches[i].bytes / 1024,
                r->caches[i].level, tks__fmt_bytes(a, sizeof a, r->caches[i].bytes),
                (double)r->caches[i].bytes / 1024);
    for (size_t i = 0; i < r->n_knees; i++)
        fprintf(f, "set arrow from %.6g, graph 0 to %.6g, graph 0.3 nohead lw 2 lc rgb '#d62728'\n",
                (double)r->knees[i] / 1024, (double)r->knees[i] / 1024);
    fprintf(f, "plot '%s.dat' using 2:3:4:5 with yerrorlines pt 7 ps 0.5 lc rgb '#1f77b4' "
               "title '4 KiB pages'", fig.name);
    if (huge)
        fprintf(f, ", \\\n     '%s.dat' using 2:6 with linespoints pt 5 ps 0.5 lc rgb '#ff7f0e' "
                   "title 'huge pages'", fig.name);
    fprintf(f, ", \\\n     NaN with lines lw 2 lc rgb '#d62728' title 'knees found in the curve'");
    fputs("\nunset output\n", f);
    return tks__plot_figure_commit(&fig);
}

static int staircase(const char *dir, const tks_sys_result *r)
{
    struct tks__plot_figure fig;
    FILE *f;
    int rc, cycles = 1, any = 0;
    for (size_t i = 0; i < r->n_ops; i++)
        if (!strncmp(r->ops[i].id, "call_", 5) && r->ops[i].ok && strcmp(r->ops[i].id, "call_indirect")) {
            any = 1;
            cycles &= !isnan(r->ops[i].cycles.value);
        }
    if (!any)
        return 0;
    if ((rc = tks__plot_figure_open(&fig, dir, "call_staircase")) != 0)
        return rc;
    f = fig.dat.f;
    fputs("# arguments per_call lo hi (core cycles, or ticks when the core clock is unknown)\n", f);
    for (size_t i = 0; i < r->n_ops; i++) {
        const tks_sys_op *op = &r->ops[i];
        if (strncmp(op->id, "call_", 5) || !op->ok || !strcmp(op->id, "call_indirect"))
            continue;
        const tks_interval *v = cycles ? &op->cycles : &op->ticks;
        fprintf(f, "%s", op->id + 5);
        put(f, v->value);
        put(f, v->lo);
        put(f, v->hi);
        fputc('\n', f);
    }
    f = fig.gp.f;
    gp_head(f, fig.name, "the cost of a call by its number of integer arguments");
    fputs("set title 'A call with n integer arguments (Dr Dobb''s Testing Times experiment)' noenhanced\n", f);
    fputs("set xlabel 'integer arguments (the 7th goes on the stack)'\nset xrange [-0.5:7.5]\n", f);
    fprintf(f, "set ylabel '%s per call'\nset yrange [0:*]\nset key top left\n",
            cycles ? "core cycles" : "ticks");
    fprintf(f, "plot '%s.dat' using 1:2 with steps lw 2 lc rgb '#1f77b4' title 'staircase', \\\n"
               "     '%s.dat' using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb '#1f77b4' "
               "title 'estimate with its interval'\nunset output\n", fig.name, fig.name);
    return tks__plot_figure_commit(&fig);
}

int tks__report_sys_plots(const char *dir, tks_sys_result *const *res, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (res[i]->suite == TKS_SYS_MEM && res[i]->n_curve)
            rc = latency(dir, res[i]);
        else if (res[i]->suite == TKS_SYS_CPU)
            rc = staircase(dir, res[i]);
    }
    return rc;
}
