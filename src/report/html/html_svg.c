/* SPDX-License-Identifier: MIT */
/* html_svg.c: plots as inline SVG for the HTML reports: a frame with its axes, ticks and labels,
 * and lines, points, intervals and marks in data coordinates. */
#include <math.h>

#include "report/html/html.h"

#define SVG_WIDTH 760.0
#define SVG_RIGHT 20.0
#define SVG_TOP 24.0
#define SVG_BOTTOM 44.0

static double fx(const tks__svg *s, double x)
{
    return s->a.logx ? log2(x > 0 ? x : s->a.x0) : x;
}

double tks__svg_x(const tks__svg *s, double x)
{
    double lo = fx(s, s->a.x0), hi = fx(s, s->a.x1);
    return s->a.left + (hi > lo ? (fx(s, x) - lo) / (hi - lo) : 0.5) * s->w;
}

double tks__svg_y(const tks__svg *s, double y)
{
    double lo = s->a.y0, hi = s->a.y1;
    return SVG_TOP + (hi > lo ? (hi - y) / (hi - lo) : 0.5) * s->h;
}

/* A step of 1, 2 or 5 times a power of ten giving about n ticks over span. */
static double nice_step(double span, int n)
{
    double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void tks__svg_range(double lo, double hi, double *out_lo, double *out_hi)
{
    double step;
    if (!isfinite(lo) || !isfinite(hi)) {
        *out_lo = 0;
        *out_hi = 1;
        return;
    }
    if (lo >= 0)
        lo = 0;
    if (!(hi > lo))
        hi = lo + 1;
    step = nice_step(hi - lo, 5);
    *out_lo = floor(lo / step) * step;
    *out_hi = ceil(hi / step) * step;
}

static void tick_x(tks__svg *s, double x, double step)
{
    char buf[32];
    double px = tks__svg_x(s, x), bottom = SVG_TOP + s->h;
    if (fabs(x) < step * 1e-9) /* a sum of steps that should be zero: 0, not -5.6e-17 or -0 */
        x = 0;
    if (s->a.xfmt)
        s->a.xfmt(buf, sizeof buf, x);
    else
        snprintf(buf, sizeof buf, "%g", x);
    fprintf(s->f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            px, SVG_TOP, px, bottom, px, bottom + 14);
    tks__html_text(s->f, buf);
    fputs("</text>\n", s->f);
}

static void axes(tks__svg *s)
{
    double bottom = SVG_TOP + s->h, right = s->a.left + s->w;
    if (s->a.logx) {
        double e0 = ceil(log2(s->a.x0)), e1 = floor(log2(s->a.x1));
        double every = ceil((e1 - e0 + 1) / 12); /* at most a dozen labels */
        for (double e = e0; e <= e1; e += every > 1 ? every : 1)
            tick_x(s, exp2(e), 0);
    } else {
        double step = nice_step(s->a.x1 - s->a.x0, 6);
        for (double x = ceil(s->a.x0 / step) * step; x <= s->a.x1 + step * 1e-9; x += step)
            tick_x(s, x, step);
    }
    if (!s->a.no_y_ticks) {
        double step = nice_step(s->a.y1 - s->a.y0, 5);
        for (double y = ceil(s->a.y0 / step) * step; y <= s->a.y1 + step * 1e-9; y += step) {
            double py = tks__svg_y(s, y);
            fprintf(s->f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                          "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                    s->a.left, py, right, py, s->a.left - 4, py + 4, fabs(y) < step * 1e-9 ? 0 : y);
        }
    }
    fprintf(s->f, "<path class=\"axis\" d=\"M%d %.1fV%.1fH%.1f\"/>\n", s->a.left, SVG_TOP, bottom,
            right);
    fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", s->a.left + s->w / 2,
            bottom + 34);
    tks__html_text(s->f, s->a.xlabel);
    fprintf(s->f, "</text>\n<text transform=\"translate(12 %.1f) rotate(-90)\" "
                  "text-anchor=\"middle\">", SVG_TOP + s->h / 2);
    tks__html_text(s->f, s->a.ylabel);
    fputs("</text>\n", s->f);
}

void tks__svg_begin(tks__svg *s, FILE *f, const tks__svg_axes *a)
{
    s->f = f;
    s->a = *a;
    if (s->a.left <= 0)
        s->a.left = 70;
    if (s->a.height <= 0)
        s->a.height = 320;
    if (s->a.logx && !(s->a.x0 > 0))
        s->a.x0 = 1;
    s->w = SVG_WIDTH - s->a.left - SVG_RIGHT;
    s->h = s->a.height - SVG_TOP - SVG_BOTTOM;
    fputs("<figure>\n<figcaption>", f);
    tks__html_text(f, a->title);
    fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
               "height=\"%d\" viewBox=\"0 0 %.0f %d\" role=\"img\">\n",
            SVG_WIDTH, s->a.height, SVG_WIDTH, s->a.height);
    axes(s);
}

void tks__svg_end(tks__svg *s)
{
    fputs("</svg>\n</figure>\n", s->f);
}

void tks__svg_line(tks__svg *s, const double *x, const double *y, size_t n, const char *cls)
{
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]))
            continue;
        if (first)
            fprintf(s->f, "<path class=\"%s\" d=\"", cls);
        fprintf(s->f, "%s%.1f %.1f", first ? "M" : "L", tks__svg_x(s, x[i]), tks__svg_y(s, y[i]));
        first = 0;
    }
    if (!first) /* no path at all when no point is known (huge pages not measured) */
        fputs("\"/>\n", s->f);
}

void tks__svg_point(tks__svg *s, double x, double y, const char *title, const char *cls)
{
    if (!isfinite(x) || !isfinite(y))
        return;
    fprintf(s->f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\">", cls, tks__svg_x(s, x),
            tks__svg_y(s, y));
    if (title) {
        fputs("<title>", s->f);
        tks__html_text(s->f, title);
        fputs("</title>", s->f);
    }
    fputs("</circle>\n", s->f);
}

void tks__svg_interval(tks__svg *s, double at, double lo, double hi, int horizontal, const char *cls)
{
    double a, b, c;
    if (!isfinite(at) || !isfinite(lo) || !isfinite(hi))
        return;
    if (horizontal) {
        a = tks__svg_y(s, at), b = tks__svg_x(s, lo), c = tks__svg_x(s, hi);
        fprintf(s->f, "<path class=\"%s\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>\n",
                cls, b, a, c, b, a - 4, a + 4, c, a - 4, a + 4);
    } else {
        a = tks__svg_x(s, at), b = tks__svg_y(s, lo), c = tks__svg_y(s, hi);
        fprintf(s->f, "<path class=\"%s\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>\n",
                cls, a, b, c, a - 4, b, a + 4, a - 4, c, a + 4);
    }
}

void tks__svg_vmark(tks__svg *s, double x, const char *label, const char *cls)
{
    double px = tks__svg_x(s, x);
    if (!isfinite(px))
        return;
    fprintf(s->f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", cls, px,
            SVG_TOP, px, SVG_TOP + s->h);
    if (label) {
        fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px, SVG_TOP - 6);
        tks__html_text(s->f, label);
        fputs("</text>", s->f);
    }
    fputc('\n', s->f);
}

void tks__svg_text(tks__svg *s, double x, double y, double dx, const char *anchor, const char *text)
{
    fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", tks__svg_x(s, x) + dx,
            tks__svg_y(s, y) + 4, anchor);
    tks__html_text(s->f, text);
    fputs("</text>\n", s->f);
}
