/* SPDX-License-Identifier: MIT */
/* rows.c: a row of ready cells as CSV or as a Markdown table row, so that a result kind's CSV and
 * Markdown writers share one list of columns and differ only in punctuation. */
#include <math.h>

#include "report/common/report.h"

void tks__csv_row(FILE *f, int n, const char *const *cells)
{
    for (int c = 0; c < n; c++) {
        if (c)
            fputc(',', f);
        tks__csv_field(f, cells[c] ? cells[c] : "");
    }
    fputc('\n', f);
}

void tks__md_row(FILE *f, int n, const char *const *cells)
{
    fputc('|', f);
    for (int c = 0; c < n; c++)
        tks__md_cell(f, cells[c] ? cells[c] : "-");
    fputc('\n', f);
}

void tks__md_header(FILE *f, int n, const char *const *headers, const char *align)
{
    tks__md_row(f, n, headers);
    fputc('|', f);
    for (int c = 0; c < n; c++)
        fputs(align && align[c] == 'r' ? " ---: |" : " --- |", f);
    fputc('\n', f);
}

char *tks__cell_double(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%.6g", v);
    else if (size)
        buf[0] = '\0';
    return buf;
}
