/* SPDX-License-Identifier: MIT */
/* table.c: aligned text tables for the terminal. Widths count UTF-8 code points, not bytes, because
 * the cells carry "±" and "µ"; every line is printed without trailing spaces. */
#include <stdlib.h>
#include <string.h>

#include "report/common/report.h"
#include "tickscope.h"

struct tks__table {
    int ncols;
    char *align;       /* ncols chars, each 'l' or 'r' */
    char **headers;    /* ncols strings */
    char **cells;      /* nrows * ncols strings, NULL where the caller gave NULL */
    size_t nrows, cap; /* rows used and allocated */
};

static char *dup_or_null(const char *s, int *failed)
{
    char *d;

    if (!s)
        return NULL;
    d = strdup(s);
    if (!d)
        *failed = 1;
    return d;
}

tks__table *tks__table_new(int ncols, const char *const *headers, const char *align)
{
    tks__table *t;
    int failed = 0, align_done = (align == NULL);

    if (ncols <= 0)
        return NULL;
    t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    t->align = malloc((size_t)ncols);
    t->headers = calloc((size_t)ncols, sizeof *t->headers);
    if (!t->align || !t->headers) {
        tks__table_free(t);
        return NULL;
    }
    for (int c = 0; c < ncols; c++) {
        /* A short or missing align string leaves the remaining columns left-aligned. */
        align_done = align_done || align[c] == '\0';
        t->align[c] = (!align_done && align[c] == 'r') ? 'r' : 'l';
        t->headers[c] = dup_or_null(headers ? headers[c] : NULL, &failed);
    }
    if (failed) {
        tks__table_free(t);
        return NULL;
    }
    return t;
}

static int table_grow(tks__table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 16;
    char **cells;

    if (cap > SIZE_MAX / sizeof *cells / (size_t)t->ncols)
        return TKS_ENOMEM;
    cells = realloc(t->cells, cap * (size_t)t->ncols * sizeof *cells);
    if (!cells)
        return TKS_ENOMEM;
    t->cells = cells;
    t->cap = cap;
    return 0;
}

int tks__table_add_row(tks__table *t, const char *const *cells)
{
    char **row;
    int failed = 0;

    if (!t || !cells)
        return TKS_EINVAL;
    if (t->nrows == t->cap && table_grow(t) != 0)
        return TKS_ENOMEM;
    row = t->cells + t->nrows * (size_t)t->ncols;
    for (int c = 0; c < t->ncols; c++)
        row[c] = dup_or_null(cells[c], &failed);
    if (failed) {
        for (int c = 0; c < t->ncols; c++)
            free(row[c]);
        return TKS_ENOMEM;
    }
    t->nrows++;
    return 0;
}

/* Code points in a UTF-8 string: every byte that is not a continuation byte starts one. */
static size_t display_width(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static const char *cell_text(const char *s, int is_header)
{
    return s ? s : (is_header ? "" : "-");
}

/* Spaces are not written until something visible follows them, so no line ends in spaces
 * whatever the alignment, the cell contents or the indent. */
typedef struct line_writer {
    FILE *f;
    const char *indent;
    size_t pending;   /* spaces owed before the next visible text */
    int started;      /* indent written */
} line_writer;

static void lw_text(line_writer *w, const char *s)
{
    size_t len = strlen(s), visible = len;

    while (visible > 0 && s[visible - 1] == ' ')
        visible--;
    if (visible > 0) {
        if (!w->started)
            fputs(w->indent, w->f);
        w->started = 1;
        for (; w->pending > 0; w->pending--)
            putc(' ', w->f);
        fwrite(s, 1, visible, w->f);
    }
    w->pending += len - visible;
}

static void lw_end(line_writer *w)
{
    putc('\n', w->f);
    w->pending = 0;
    w->started = 0;
}

static void print_row(const tks__table *t, line_writer *w, char *const *row, const size_t *width,
                      int is_header)
{
    for (int c = 0; c < t->ncols; c++) {
        const char *s = cell_text(row[c], is_header);
        size_t pad = width[c] - display_width(s);

        if (c > 0)
            w->pending += 2;
        if (t->align[c] == 'r')
            w->pending += pad;
        lw_text(w, s);
        if (t->align[c] != 'r')
            w->pending += pad;
    }
    lw_end(w);
}

static void print_rule(const tks__table *t, line_writer *w, const size_t *width)
{
    size_t total = 2 * (size_t)(t->ncols - 1);

    for (int c = 0; c < t->ncols; c++)
        total += width[c];
    if (total > 0)
        fputs(w->indent, w->f);
    for (size_t i = 0; i < total; i++)
        putc('-', w->f);
    putc('\n', w->f);
}

void tks__table_print(const tks__table *t, FILE *f, const char *indent)
{
    line_writer w = {f, indent ? indent : "", 0, 0};
    size_t *width;

    if (!t || !f)
        return;
    width = calloc((size_t)t->ncols, sizeof *width);
    if (!width)
        return;
    for (int c = 0; c < t->ncols; c++) {
        width[c] = display_width(cell_text(t->headers[c], 1));
        for (size_t r = 0; r < t->nrows; r++) {
            size_t cw = display_width(cell_text(t->cells[r * (size_t)t->ncols + c], 0));
            width[c] = cw > width[c] ? cw : width[c];
        }
    }
    print_row(t, &w, t->headers, width, 1);
    print_rule(t, &w, width);
    for (size_t r = 0; r < t->nrows; r++)
        print_row(t, &w, t->cells + r * (size_t)t->ncols, width, 0);
    free(width);
}

void tks__table_free(tks__table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    if (t->headers)
        for (int c = 0; c < t->ncols; c++)
            free(t->headers[c]);
    free(t->cells);
    free(t->headers);
    free(t->align);
    free(t);
}

void tks__md_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputs(" |", f);
}
