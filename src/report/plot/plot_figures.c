/* SPDX-License-Identifier: MIT */
/* plot_figures.c: the gnuplot figures (a histogram of samples, per-ensemble minimum and variance,
 * the resolution staircase): each a data file of exact numbers and a script that draws it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot/plot_internal.h"
#include "report/common/report.h"
#include "stats/bins.h"
#include "tickscope.h"

/* Bars in a histogram: enough to show a quantised distribution quantum by quantum, few enough to
 * stay readable 900 pixels wide. */
#define PLOT_MAX_BINS 200
/* Above this many ensembles points would merge into a smear; lines alone read better. */
#define PLOT_MAX_POINTS 200

/* ---------------------------------------------------------------- writing numbers and text */

/* Exact to the last bit, and "NaN" for what is not finite: gnuplot skips such points. */
static void put_double(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("NaN", f);
}

/* The inside of a gnuplot double-quoted string: backslashes and quotes escaped, control
 * characters (a title must stay on its line) turned into spaces. */
static void put_gp_chars(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' || c == '"')
            fputc('\\', f);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
}

/* What every script starts with. `reset` because `cd DIR && gnuplot *.gp` runs all the scripts
 * in one session, where one figure's arrows and labels would otherwise land on the next. */
static void gp_begin(FILE *f, const char *name, const char *what)
{
    fprintf(f, "# %s.gp: %s, written by tickscope. Render with: gnuplot %s.gp (in this "
               "directory)\n", name, what, name);
    fputs("reset\n", f);
    fputs("set terminal svg size 900,500 dynamic enhanced font 'sans,11'\n", f);
    fprintf(f, "set output '%s.svg'\n", name);
    fputs("set grid\n", f);
}

/* `cmd "title"` (with an optional second line), never read as enhanced text: '_' and '^' in a
 * method or file name stay as they are. */
static void gp_title(FILE *f, const char *cmd, const char *title, const char *second_line)
{
    fprintf(f, "%s \"", cmd);
    put_gp_chars(f, title);
    if (second_line && *second_line) {
        fputs("\\n", f);
        put_gp_chars(f, second_line);
    }
    fputs("\" noenhanced\n", f);
}

/* ---------------------------------------------------------------- histogram */

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The bins: the same bulk of the samples as the terminal histogram's (stats/bins.h), so one
 * preemption of a million ticks does not squash the rest into one bar, and a sparse tail of a
 * few hundred ticks does not shrink the bulk to a sliver; but more of them, and on the lattice of
 * the minimum (mn + kq): the multiples of q when the readings are, and otherwise still one value
 * per quantum slot, so each bar is centred on the values it holds. */
struct bins {
    uint64_t q, lo, width, last; /* bins cover [lo, last], each width wide */
    size_t nbins;
    uint64_t *counts;
    uint64_t below, above, below_min, above_max;
};

static int bins_build(const uint64_t *x, size_t n, uint64_t q, struct bins *b)
{
    uint64_t mn, first, last;
    tks__bins layout;
    size_t i;
    int rc;

    memset(b, 0, sizeof *b);
    b->q = q = q ? q : 1;
    if ((rc = tks__bins_bulk(x, n, q, &first, &last, &mn)) != 0)
        return rc;
    tks__bins_layout(first, last, mn, q, PLOT_MAX_BINS, &layout);
    b->lo = layout.lo;
    b->width = layout.width;
    b->nbins = layout.nbins;
    b->last = sat_add(b->lo + (uint64_t)(b->nbins - 1) * b->width, b->width - 1);
    b->counts = calloc(b->nbins, sizeof *b->counts);
    if (!b->counts)
        return TKS_ENOMEM;
    b->below_min = UINT64_MAX;
    for (i = 0; i < n; i++) {
        if (x[i] < b->lo) {
            b->below++;
            b->below_min = x[i] < b->below_min ? x[i] : b->below_min;
        } else if (x[i] > b->last) {
            b->above++;
            b->above_max = x[i] > b->above_max ? x[i] : b->above_max;
        } else {
            b->counts[(x[i] - b->lo) / b->width]++;
        }
    }
    return 0;
}

/* A vertical line at v labelled "what v", the label on its left when left_side (away from the
 * other line, so neither crosses it). A value off the axis (the mean of samples with a far
 * preemption among them) is not allowed to stretch it: it gets an arrow-like label at that
 * edge instead of a line. Nothing for a value that is not finite. */
static void gp_marker(FILE *f, int id, const char *what, double v, int left_side, const char *rgb,
                      const char *dash, double height, double x0, double x1)
{
    if (!isfinite(v))
        return;
    if (v < x0 || v > x1) {
        fprintf(f, "set label %d '%s%s %.7g (off the axis)%s' at graph %s, graph %.2f %s front "
                   "textcolor rgb '%s'\n", id, v < x0 ? "<- " : "", what, v, v > x1 ? " ->" : "",
                v < x0 ? "0.01" : "0.99", height, v < x0 ? "left" : "right", rgb);
        return;
    }
    fprintf(f, "set arrow %d from %.9g, graph 0 to %.9g, graph 1 nohead front lw 2%s lc rgb '%s'\n",
            id, v, v, dash, rgb);
    fprintf(f, "set label %d '%s %.7g' at %.9g, graph %.2f %s front textcolor rgb '%s'\n", id, what,
            v, v, height, left_side ? "right offset -0.6,0" : "left offset 0.6,0", rgb);
}

int tks__plot_histogram(const char *dir, const char *name, const char *title, const uint64_t *ticks,
                       size_t n, uint64_t quantum, double median, double mean)
{
    struct tks__plot_figure fig;
    struct bins b;
    char note[256] = "";
    double half_q, x0, x1, centre;
    FILE *f;
    size_t i;
    int rc;

    if (!ticks || n == 0)
        return TKS_EINVAL;
    if ((rc = tks__plot_figure_open(&fig, dir, name)) != 0)
        return rc;
    if ((rc = bins_build(ticks, n, quantum, &b)) != 0) {
        tks__plot_figure_abort(&fig);
        return rc;
    }

    /* A value v owns the slot [v - q/2, v + q/2): a bin of m quanta starting at s is drawn from
     * s - q/2 to s + w - q/2, so a quantised distribution shows each value in the middle of its
     * bar and the median line through the middle of the bar that holds it. */
    f = fig.dat.f;
    half_q = (double)b.q / 2;
    fputs("# from_ticks to_ticks centre_ticks count\n", f);
    for (i = 0; i < b.nbins; i++) {
        uint64_t from = b.lo + (uint64_t)i * b.width;
        centre = (double)from + (double)(b.width - b.q) / 2;
        fprintf(f, "%llu %llu ", (unsigned long long)from,
                (unsigned long long)sat_add(from, b.width - 1));
        put_double(f, centre);
        fprintf(f, " %llu\n", (unsigned long long)b.counts[i]);
    }

    f = fig.gp.f;
    gp_begin(f, fig.name, "a histogram of samples");
    if (b.below && b.above)
        snprintf(note, sizeof note, "not shown: %llu sample(s) below %llu ticks (lowest %llu) and "
                 "%llu above %llu (highest %llu)", (unsigned long long)b.below,
                 (unsigned long long)b.lo, (unsigned long long)b.below_min,
                 (unsigned long long)b.above, (unsigned long long)b.last,
                 (unsigned long long)b.above_max);
    else if (b.below)
        snprintf(note, sizeof note, "not shown: %llu sample(s) below %llu ticks (lowest %llu)",
                 (unsigned long long)b.below, (unsigned long long)b.lo,
                 (unsigned long long)b.below_min);
    else if (b.above)
        snprintf(note, sizeof note, "not shown: %llu sample(s) above %llu ticks (highest %llu)",
                 (unsigned long long)b.above, (unsigned long long)b.last,
                 (unsigned long long)b.above_max);
    gp_title(f, "set title", title, note);
    if (b.width == b.q)
        fprintf(f, "set xlabel 'ticks (one bar per quantum of %llu tick%s)'\n",
                (unsigned long long)b.q, b.q == 1 ? "" : "s");
    else
        fprintf(f, "set xlabel 'ticks (bars %llu ticks = %llu quanta wide)'\n",
                (unsigned long long)b.width, (unsigned long long)(b.width / b.q));
    fputs("set ylabel 'samples'\n", f);
    fputs("set key top right\n", f);
    fputs("set style fill solid 0.6 border -1\n", f);
    fprintf(f, "set boxwidth %llu absolute\n", (unsigned long long)b.width);
    x0 = (double)b.lo - half_q - (double)b.width;
    x1 = (double)b.lo + (double)b.nbins * (double)b.width - half_q + (double)b.width;
    gp_marker(f, 1, "median", median, mean > median, "#d62728", "", 0.95, x0, x1);
    gp_marker(f, 2, "mean", mean, mean < median, "#2ca02c", " dt 2", 0.87, x0, x1);
    fprintf(f, "set xrange [%.9g:%.9g]\n", x0, x1);
    fputs("set yrange [0:*]\n", f);
    /* Room above the tallest bar for the key and the two labels. */
    fputs("set offsets 0, 0, graph 0.2, 0\n", f);
    if (b.below || b.above)
        fprintf(f, "plot '%s.dat' using 3:4 with boxes lc rgb '#4878d0' title '%llu of %zu "
                   "samples'\n", fig.name, (unsigned long long)(n - b.below - b.above), n);
    else
        fprintf(f, "plot '%s.dat' using 3:4 with boxes lc rgb '#4878d0' title '%zu samples'\n",
                fig.name, n);
    fputs("unset output\n", f);

    free(b.counts);
    return tks__plot_figure_commit(&fig);
}

/* ---------------------------------------------------------------- ensembles */

/* The y range of one panel, computed here rather than left to gnuplot, which warns about and
 * then stretches a range of one value (an ergodic minimum) by a fraction of a tick. Headroom at
 * the top keeps the key off the data. A variance that one interrupt drives a thousand times above
 * the rest gets a logarithmic axis, or every other ensemble would sit flat on zero. */
static void y_range(FILE *f, const double *a, const double *b, size_t stride, size_t n,
                    int allow_log)
{
    double lo = INFINITY, hi = -INFINITY, pos = INFINITY, span, below, above;
    size_t i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 2; k++) {
            const double *col = k ? b : a;
            double y;
            if (!col)
                continue;
            y = *(const double *)((const char *)col + i * stride);
            if (!isfinite(y))
                continue;
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
            pos = y > 0 && y < pos ? y : pos;
        }
    if (lo > hi) {
        fputs("set yrange [*:*]\n", f);
        return;
    }
    if (allow_log && lo >= 0 && isfinite(pos) && hi > 1000 * pos) {
        /* Zeros cannot be drawn on it: gnuplot skips them, and the .dat file still has them. */
        fputs("set logscale y\nset format y '%g'\n", f);
        fprintf(f, "set yrange [%.9g:%.9g]\n", pos / 2, hi * 30);
        return;
    }
    span = hi - lo;
    below = span / 10 > 1 ? span / 10 : 1;
    above = span * 0.4 > 2 ? span * 0.4 : 2;
    /* Never below zero for what cannot be negative. */
    fprintf(f, "set yrange [%.9g:%.9g]\n", lo >= 0 && lo - below < 0 ? 0 : lo - below, hi + above);
}

int tks__plot_ensembles(const char *dir, const char *name, const char *title,
                       const tks_summary *ens, size_t count, const uint32_t *work)
{
    struct tks__plot_figure fig;
    double *mins;
    const char *x, *style;
    FILE *f;
    size_t e;
    int rc;

    if (!ens || count == 0)
        return TKS_EINVAL;
    if (!(mins = malloc(count * sizeof *mins)))
        return TKS_ENOMEM;
    if ((rc = tks__plot_figure_open(&fig, dir, name)) != 0) {
        free(mins);
        return rc;
    }
    f = fig.dat.f;
    fputs("# ensemble work min_ticks variance_ticks2 inlier_variance_ticks2 median_ticks "
          "mean_ticks\n", f);
    for (e = 0; e < count; e++) {
        fprintf(f, "%zu ", e);
        put_double(f, work ? (double)work[e] : NAN);
        fprintf(f, " %llu ", (unsigned long long)ens[e].min);
        put_double(f, ens[e].variance);
        fputc(' ', f);
        put_double(f, ens[e].inlier_variance);
        fputc(' ', f);
        put_double(f, ens[e].median);
        fputc(' ', f);
        put_double(f, ens[e].mean);
        fputc('\n', f);
        mins[e] = (double)ens[e].min;
    }

    /* The white paper's Figures 1-10 as two panels sharing the x axis: the minimum (the overhead
     * to subtract; flat when the method is ergodic) above, the variance below. */
    f = fig.gp.f;
    x = work ? "2" : "1";
    style = count <= PLOT_MAX_POINTS ? "linespoints pt 7 ps 0.5" : "lines";
    gp_begin(f, fig.name, "per-ensemble minimum and variance");
    gp_title(f, "set multiplot layout 2,1 title", title, NULL);
    fputs("set key top right\n", f);
    fputs("set lmargin 12\n", f); /* the two panels' plot areas line up whatever their labels */
    fputs("set format x ''\n", f);
    fputs("set ylabel 'minimum (ticks)'\n", f);
    y_range(f, mins, NULL, sizeof *mins, count, 0);
    fprintf(f, "plot '%s.dat' using %s:3 with %s lc rgb '#1f77b4' title 'minimum of each "
               "ensemble'\n", fig.name, x, style);
    fputs("set format x '%g'\n", f);
    fprintf(f, "set xlabel '%s'\n",
            work ? "work: dependent adds in the window" : "ensemble");
    fputs("set ylabel 'variance (ticks^2)'\n", f);
    y_range(f, &ens[0].variance, &ens[0].inlier_variance, sizeof *ens, count, 1);
    fprintf(f, "plot '%s.dat' using %s:4 with %s lc rgb '#d62728' title 'variance', \\\n"
               "     '' using %s:5 with lines dt 2 lc rgb '#555555' title 'variance of the inliers "
               "(within the far fences)'\n", fig.name, x, style, x);
    fputs("unset multiplot\n", f);
    fputs("unset output\n", f);
    free(mins);
    return tks__plot_figure_commit(&fig);
}

/* ---------------------------------------------------------------- resolution */

int tks__plot_resolution(const char *dir, const char *name, const char *title, const double *work,
                        const double *est, const double *lo, const double *hi, size_t n,
                        const tks_fit *fit)
{
    struct tks__plot_figure fig;
    FILE *f;
    size_t i;
    int rc;

    if (!work || !est || n == 0)
        return TKS_EINVAL;
    if ((rc = tks__plot_figure_open(&fig, dir, name)) != 0)
        return rc;
    f = fig.dat.f;
    fputs("# work estimate_ticks lo_ticks hi_ticks\n", f);
    for (i = 0; i < n; i++) {
        put_double(f, work[i]);
        fputc(' ', f);
        put_double(f, est[i]);
        fputc(' ', f);
        /* No interval given: a bar of no height, so the point is still drawn. */
        put_double(f, lo ? lo[i] : est[i]);
        fputc(' ', f);
        put_double(f, hi ? hi[i] : est[i]);
        fputc('\n', f);
    }

    f = fig.gp.f;
    gp_begin(f, fig.name, "a resolution staircase");
    gp_title(f, "set title", title, NULL);
    fputs("set xlabel 'work: dependent adds in the window'\n", f);
    fputs("set ylabel 'ticks'\n", f);
    fputs("set key top left Left reverse\n", f);
    /* Exactly the data's range plus a margin, not stretched to the next round tick. */
    fputs("set autoscale fix\n", f);
    fputs("set offsets graph 0.02, graph 0.02, graph 0.15, graph 0.05\n", f);
    fprintf(f, "plot '%s.dat' using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb '#1f77b4' "
               "title 'estimate with its interval'", fig.name);
    if (fit && isfinite(fit->slope) && isfinite(fit->intercept))
        fprintf(f, ", \\\n     %.17g + %.17g * x with lines lw 2 lc rgb '#d62728' "
                   "title 'fit: slope %.4g +- %.2g ticks per add, intercept %.4g +- %.2g ticks "
                   "(r^2 %.5f)'",
                fit->intercept, fit->slope, fit->slope, 1.96 * fit->slope_se, fit->intercept,
                1.96 * fit->intercept_se, fit->r2);
    fputs("\n", f);
    fputs("unset output\n", f);
    return tks__plot_figure_commit(&fig);
}
