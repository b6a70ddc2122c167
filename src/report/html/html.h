/* SPDX-License-Identifier: MIT */
/* html.h: the pieces every HTML report is made of: text escaped for HTML, one self-contained
 * page (its style and its few lines of script inline: no network, no external file, no font),
 * numbers as data attributes that programs (and the tests) read back, tables that sort and
 * filter, and an SVG plotter (axes, lines, points, intervals, marks) drawn here, with no
 * gnuplot. Each result's page is a writer beside its other writers (bench_html.c, ...). */
#ifndef TKS_REPORT_HTML_H
#define TKS_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "tickscope/diag.h"

/* s with &, <, >, " and ' escaped (NULL writes nothing). */
void tks__html_text(FILE *f, const char *s);
/* The page's head (title escaped), its style, and an <h1> of the title. */
void tks__html_begin(FILE *f, const char *title);
/* Text that a report function wrote for the console, one paragraph per line, escaped, in class
 * cls (NULL: "warn" for a line that holds "warning: ", else "meta"). */
void tks__html_lines(FILE *f, const char *text, const char *cls);
/* Diagnostics as the console words them (tks__diags_print): one paragraph each, "warning:
 * SUBJECT: message" (subject NULL: none), in class cls (NULL: "warn" for a warning, else
 * "meta"); or, when sep is given, only their messages joined by sep, escaped, in the text at
 * hand (a tooltip's). Returns how many were written (ds NULL: none). */
size_t tks__html_diags(FILE *f, const tks_diags *ds, const char *subject, const char *cls,
                       const char *sep);
/* The sorting and filtering script, and the end of the page. 0, or TKS_EIO if f failed. */
int tks__html_end(FILE *f);

/* ` data-NAME="v"`: v as %.17g, which reads back as the same double, or "" when not finite
 * (an unknown figure). */
void tks__html_data(FILE *f, const char *name, double v);
/* A measured row's figures as data attributes (ticks with its interval, core cycles, ns): the
 * page's script and tests/html_check.py read them by these names. */
void tks__html_data_figures(FILE *f, double ticks, double ticks_lo, double ticks_hi,
                            double core_cycles, double ns);
/* A table whose header cells sort it when clicked (numerically by each cell's data-v when it
 * has one), with a filter box above it when filter is set; id names it. Close it with
 * tks__html_table_end. */
void tks__html_table_begin(FILE *f, const char *id, const char *const *headers, int n, int filter);
void tks__html_table_end(FILE *f);
/* One cell: text, and its number for sorting (data-v) when v is finite. */
void tks__html_cell(FILE *f, const char *text, double v);
/* "12.3 [12.1, 12.5]" from a value and its interval, at the decimals given. Returns buf. */
char *tks__html_interval(char *buf, size_t size, double v, double lo, double hi, int decimals);

/* ---- SVG plots: data coordinates mapped into a frame with its axes and tick labels. */
typedef struct tks__svg_axes {
    const char *title, *xlabel, *ylabel;
    double x0, x1, y0, y1; /* the ranges shown (x0 > 0 when logx) */
    int logx;              /* base-2 logarithmic x, ticks at powers of two (working sets) */
    int no_y_ticks;        /* categories on y: the caller writes their labels */
    int left, height;      /* the left margin and the height in pixels (0: 70 and 320) */
    char *(*xfmt)(char *buf, size_t size, double v); /* x tick labels (NULL: %g) */
} tks__svg_axes;

typedef struct tks__svg {
    FILE *f;
    tks__svg_axes a;
    double w, h; /* the frame's pixels */
} tks__svg;

void tks__svg_begin(tks__svg *s, FILE *f, const tks__svg_axes *a);
void tks__svg_end(tks__svg *s);
/* Pixel coordinates of a data point. */
double tks__svg_x(const tks__svg *s, double x);
double tks__svg_y(const tks__svg *s, double y);
/* A polyline through the finite points, in class cls (its colour comes from the page's style). */
void tks__svg_line(tks__svg *s, const double *x, const double *y, size_t n, const char *cls);
/* A point with its tooltip (title may be NULL). */
void tks__svg_point(tks__svg *s, double x, double y, const char *title, const char *cls);
/* An interval with caps: vertical at x from lo to hi, or horizontal at y when horizontal. */
void tks__svg_interval(tks__svg *s, double at, double lo, double hi, int horizontal, const char *cls);
/* A vertical mark across the frame at x, labelled at its top. */
void tks__svg_vmark(tks__svg *s, double x, const char *label, const char *cls);
/* Text at a data point; anchor "start", "middle" or "end"; dx shifts it in pixels. */
void tks__svg_text(tks__svg *s, double x, double y, double dx, const char *anchor, const char *text);
/* Nice bounds for a range that holds lo and hi, starting at 0 when lo >= 0. */
void tks__svg_range(double lo, double hi, double *out_lo, double *out_hi);

#endif
