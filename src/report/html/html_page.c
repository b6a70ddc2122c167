/* SPDX-License-Identifier: MIT */
/* html_page.c: the HTML page every report is written into: escaping, the skeleton with its
 * inline style and script, data attributes and sortable, filterable tables. */
#include <math.h>
#include <string.h>

#include "report/html/html.h"
#include "tickscope.h"

/* The first len bytes of s, escaped. */
static void escape_n(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(s[i], f);
        }
    }
}

void tks__html_text(FILE *f, const char *s)
{
    if (s)
        escape_n(f, s, strlen(s));
}

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:75em;padding:0 1em;"
    "color:#222}\n"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
    "table{border-collapse:collapse;margin:.5em 0}\n"
    "th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}\n"
    "th{text-align:left}\n"
    "th:first-child,td:first-child,td.l{text-align:left}\n"
    "table.sortable th{cursor:pointer;user-select:none}\n"
    "th[data-dir=asc]::after{content:' \\25B2'}th[data-dir=desc]::after{content:' \\25BC'}\n"
    "input.filter{margin:.3em 0;padding:.2em .4em;width:20em}\n"
    ".meta{color:#555}.warn{color:#a40}.verdict{font-weight:bold}\n"
    "figure{margin:1em 0}figcaption{font-weight:bold;margin-bottom:.3em}\n"
    "svg{font:11px sans-serif;background:#fff}\n"
    "svg .axis{stroke:#444;fill:none}svg .grid{stroke:#eee}\n"
    "svg .a,svg .b,svg .c{fill:none;stroke-width:1.5}\n"
    "svg .a{stroke:#1f77b4}svg .b{stroke:#d62728}svg .c{stroke:#2ca02c}\n"
    "svg circle.a{fill:#1f77b4}svg circle.b{fill:#d62728}svg circle.c{fill:#2ca02c}\n"
    "svg .mark{stroke:#999;stroke-dasharray:4 3}svg .knee{stroke:#d62728;stroke-dasharray:2 2}\n"
    "svg .ref{stroke:#555;stroke-dasharray:3 3}svg .bar{fill:#9ecae1}\n";

/* Clicking a header sorts its table (by data-v where a cell has it, else by text); typing in
 * a filter box keeps the rows holding what was typed. */
static const char script[] =
    "document.querySelectorAll('table.sortable').forEach(function(t){\n"
    " t.querySelectorAll('th').forEach(function(th,i){th.addEventListener('click',function(){\n"
    "  var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),asc=th.dataset.dir!=='asc';\n"
    "  t.querySelectorAll('th').forEach(function(h){delete h.dataset.dir;});\n"
    "  th.dataset.dir=asc?'asc':'desc';\n"
    "  rows.sort(function(x,y){var p=x.cells[i],q=y.cells[i],u=parseFloat(p.dataset.v),"
    "v=parseFloat(q.dataset.v);\n"
    "   var r=(!isNaN(u)&&!isNaN(v))?u-v:p.textContent.localeCompare(q.textContent);"
    "return asc?r:-r;});\n"
    "  rows.forEach(function(r){b.appendChild(r);});});});});\n"
    "document.querySelectorAll('input.filter').forEach(function(box){\n"
    " var t=document.getElementById(box.dataset.table);\n"
    " box.addEventListener('input',function(){var q=box.value.toLowerCase();\n"
    "  Array.prototype.forEach.call(t.tBodies[0].rows,function(r){\n"
    "   r.hidden=q!==''&&r.textContent.toLowerCase().indexOf(q)<0;});});});\n";

void tks__html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"generator\" content=\"tickscope " TKS_VERSION_STRING "\">\n<title>",
          f);
    tks__html_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
    tks__html_text(f, title);
    fputs("</h1>\n", f);
}

int tks__html_end(FILE *f)
{
    fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", script);
    return ferror(f) ? TKS_EIO : 0;
}

void tks__html_lines(FILE *f, const char *text, const char *cls)
{
    for (const char *s = text; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len) {
            const char *warn = strstr(s, "warning: ");
            fprintf(f, "<p class=\"%s\">", cls ? cls : warn && warn < s + len ? "warn" : "meta");
            escape_n(f, s, len);
            fputs("</p>\n", f);
        }
        s += len + (nl != NULL);
    }
}

void tks__html_data(FILE *f, const char *name, double v)
{
    if (isfinite(v))
        fprintf(f, " data-%s=\"%.17g\"", name, v);
    else
        fprintf(f, " data-%s=\"\"", name);
}

void tks__html_data_figures(FILE *f, double ticks, double ticks_lo, double ticks_hi,
                            double core_cycles, double ns)
{
    tks__html_data(f, "ticks", ticks);
    tks__html_data(f, "ticks-lo", ticks_lo);
    tks__html_data(f, "ticks-hi", ticks_hi);
    tks__html_data(f, "core-cycles", core_cycles);
    tks__html_data(f, "ns", ns);
}

void tks__html_table_begin(FILE *f, const char *id, const char *const *headers, int n, int filter)
{
    if (filter)
        fprintf(f, "<input class=\"filter\" type=\"search\" placeholder=\"filter rows\" "
                   "data-table=\"%s\" aria-label=\"filter rows\">\n", id);
    fprintf(f, "<table class=\"sortable\" id=\"%s\">\n<thead><tr>", id);
    for (int i = 0; i < n; i++) {
        fputs("<th>", f);
        tks__html_text(f, headers[i]);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
}

void tks__html_table_end(FILE *f)
{
    fputs("</tbody>\n</table>\n", f);
}

void tks__html_cell(FILE *f, const char *text, double v)
{
    fputs("<td", f);
    if (isfinite(v))
        tks__html_data(f, "v", v);
    fputc('>', f);
    tks__html_text(f, text);
    fputs("</td>", f);
}

char *tks__html_interval(char *buf, size_t size, double v, double lo, double hi, int decimals)
{
    if (!isfinite(v))
        snprintf(buf, size, "-");
    else if (isfinite(lo) && isfinite(hi))
        snprintf(buf, size, "%.*f [%.*f, %.*f]", decimals, v, decimals, lo, decimals, hi);
    else
        snprintf(buf, size, "%.*f", decimals, v);
    return buf;
}
