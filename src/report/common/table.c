/* SPDX-License-Identifier: MIT */
/* table.c: aligned text tables for the terminal. Widths count UTF-8 code points, not bytes, because
 * the cells carry "±" and "µ"; every line is printed without trailing spaces. A table fits the
 * width it is given (a terminal's): columns that do not fit wrap onto continuation lines, a cell
 * wider than a line is abbreviated with "…". A streamed table prints its header at once and each
 * row as it is given, in widths planned before the rows are known. */
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
    size_t *width;     /* the layout: each column's width (NULL until printed or streamed) */
    int *line_of;      /* and the line of a row it is printed on (0, or a continuation line) */
    size_t *fit;       /* the width a cell is abbreviated to, 0 where the layout kept it whole */
    FILE *stream;      /* tks__table_stream's output, NULL when not streaming */
    const char *indent;
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

/* The first n code points of s, or all of s when it has fewer: how many bytes they take. */
static size_t prefix_bytes(const char *s, size_t n)
{
    size_t i = 0;

    for (; s[i]; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && n-- == 0)
            break;
    return i;
}

/* s shortened to at most w code points with "…" where text was left out: in the middle for the
 * first column (a benchmark's name keeps its start and its argument), at the end elsewhere. */
static const char *fit_cell(const char *s, size_t w, int middle, char *buf, size_t size)
{
    size_t have = display_width(s), head, tail, hb, skip;

    if (have <= w || w < 2)
        return s;
    head = middle ? (w - 1 + 1) / 2 : w - 1;
    tail = w - 1 - head;
    hb = prefix_bytes(s, head);
    skip = prefix_bytes(s, have - tail);
    if (hb + 3 + strlen(s + skip) + 1 > size)
        return s;
    memcpy(buf, s, hb);
    memcpy(buf + hb, "\xe2\x80\xa6", 3);
    strcpy(buf + hb + 3, s + skip);
    return buf;
}

/* Which line of a row each column goes on, and how wide each is, within `columns` characters
 * (0: no limit). Columns that do not fit wrap onto continuation lines indented by four spaces;
 * a column wider than a whole line, and the first column when the row must wrap, are
 * abbreviated. */
static void layout(tks__table *t, size_t *width, int columns, size_t indent)
{
    size_t total = indent + 2 * (size_t)(t->ncols - 1), room = (size_t)columns, used = indent;
    int line = 0, first = 1;

    for (int c = 0; c < t->ncols; c++) {
        total += width[c];
        t->line_of[c] = 0;
        t->fit[c] = 0;
    }
    if (columns <= 0 || total <= room)
        return;
    if (width[0] > room / 3 && room / 3 >= display_width(cell_text(t->headers[0], 1)))
        t->fit[0] = width[0] = room / 3;
    for (int c = 0; c < t->ncols; c++) {
        size_t sep = first ? 0 : 2;
        if (!first && used + sep + width[c] > room) {
            line++;
            used = indent + TKS__TABLE_WRAP_INDENT;
            sep = 0;
        }
        if (used + sep + width[c] > room)
            t->fit[c] = width[c] = room > used + sep + 1 ? room - used - sep : 1;
        used += sep + width[c];
        first = 0;
        t->line_of[c] = line;
    }
}

/* A cell wider than its column (a streamed row, whose widths were planned before it came) runs
 * on; the cells after it on its line give back what it took from their padding and separators
 * (down to one space), so that the line still ends within the columns where they have room. */
static size_t give_back(size_t *over, size_t room)
{
    size_t take = *over < room ? *over : room;
    *over -= take;
    return room - take;
}

static void print_row(const tks__table *t, line_writer *w, char *const *row, const size_t *width,
                      int is_header)
{
    int line = 0;
    size_t over = 0; /* characters this line has run past its columns so far */

    for (int c = 0; c < t->ncols; c++) {
        char buf[512];
        const char *s = cell_text(row[c], is_header);
        size_t dw, pad;

        if (t->fit[c])
            s = fit_cell(s, t->fit[c], c == 0, buf, sizeof buf);
        dw = display_width(s);
        pad = width[c] > dw ? width[c] - dw : 0;

        if (t->line_of[c] != line) {
            if (w->started || line == 0)
                lw_end(w);
            line = t->line_of[c];
            w->pending = TKS__TABLE_WRAP_INDENT;
            over = 0;
        } else if (c > 0) {
            w->pending += 1 + give_back(&over, 1);
        }
        if (t->align[c] == 'r')
            w->pending += give_back(&over, pad);
        lw_text(w, s);
        over += dw > width[c] ? dw - width[c] : 0;
        if (t->align[c] != 'r')
            w->pending += give_back(&over, pad);
    }
    if (w->started || line == 0) /* a continuation line with nothing on it is left out */
        lw_end(w);
    w->pending = 0;
}

static void print_rule(const tks__table *t, line_writer *w, const size_t *width)
{
    size_t total = 0, len = 0;
    int line = 0;

    for (int c = 0; c < t->ncols; c++) {
        if (t->line_of[c] != line) {
            line = t->line_of[c];
            len = TKS__TABLE_WRAP_INDENT;
        } else if (c > 0) {
            len += 2;
        }
        len += width[c];
        total = len > total ? len : total;
    }
    if (total > 0)
        fputs(w->indent, w->f);
    for (size_t i = 0; i < total; i++)
        putc('-', w->f);
    putc('\n', w->f);
}

/* Each column as wide as its header and, when given, its widest row or its planned width. */
static int natural_widths(tks__table *t, const size_t *planned, int rows)
{
    free(t->width);
    t->width = calloc((size_t)t->ncols, sizeof *t->width);
    if (!t->line_of)
        t->line_of = calloc((size_t)t->ncols, sizeof *t->line_of);
    if (!t->fit)
        t->fit = calloc((size_t)t->ncols, sizeof *t->fit);
    if (!t->width || !t->line_of || !t->fit)
        return TKS_ENOMEM;
    for (int c = 0; c < t->ncols; c++) {
        t->width[c] = display_width(cell_text(t->headers[c], 1));
        if (planned && planned[c] > t->width[c])
            t->width[c] = planned[c];
        for (size_t r = 0; rows && r < t->nrows; r++) {
            size_t cw = display_width(cell_text(t->cells[r * (size_t)t->ncols + c], 0));
            t->width[c] = cw > t->width[c] ? cw : t->width[c];
        }
    }
    return 0;
}

static void print_head(tks__table *t, line_writer *w)
{
    print_row(t, w, t->headers, t->width, 1);
    print_rule(t, w, t->width);
}

void tks__table_print_fit(tks__table *t, FILE *f, const char *indent, int columns)
{
    line_writer w = {f, indent ? indent : "", 0, 0};

    if (!t || !f || natural_widths(t, NULL, 1) != 0)
        return;
    layout(t, t->width, columns, strlen(w.indent));
    print_head(t, &w);
    for (size_t r = 0; r < t->nrows; r++)
        print_row(t, &w, t->cells + r * (size_t)t->ncols, t->width, 0);
}

void tks__table_print(tks__table *t, FILE *f, const char *indent)
{
    tks__table_print_fit(t, f, indent, tks__term_columns_of(f));
}

int tks__table_stream(tks__table *t, FILE *f, const char *indent, int columns,
                      const size_t *planned)
{
    line_writer w = {f, indent ? indent : "", 0, 0};
    int rc;

    if (!t || !f)
        return TKS_EINVAL;
    if ((rc = natural_widths(t, planned, 0)) != 0)
        return rc;
    t->stream = f;
    t->indent = w.indent;
    layout(t, t->width, columns, strlen(w.indent));
    print_head(t, &w);
    fflush(f);
    return ferror(f) ? TKS_EIO : 0;
}

int tks__table_stream_row(tks__table *t, const char *const *cells)
{
    line_writer w;

    if (!t || !t->stream || !cells)
        return TKS_EINVAL;
    w = (line_writer){t->stream, t->indent, 0, 0};
    print_row(t, &w, (char *const *)cells, t->width, 0);
    fflush(t->stream);
    return ferror(t->stream) ? TKS_EIO : 0;
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
    free(t->width);
    free(t->line_of);
    free(t->fit);
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
