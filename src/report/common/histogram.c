/* SPDX-License-Identifier: MIT */
/* histogram.c: the distribution of one set of samples as rows of text bars, binned on whole
 * timer quanta so that a quantised clock shows neither false gaps nor doubled rows. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/common/report.h"
#include "stats/bins.h"
#include "tickscope.h"

int tks__histogram_build(const uint64_t *sorted, size_t n, uint64_t quantum, size_t max_bins,
                        tks__histogram *h)
{
    uint64_t start, end;
    tks__bins b;
    size_t done;
    int rc;

    if (h)
        memset(h, 0, sizeof *h);
    if (!sorted || n == 0 || !h)
        return TKS_EINVAL;
    if (max_bins == 0)
        max_bins = 24;
    if ((rc = tks__bins_bulk_sorted(sorted, n, quantum, &start, &end)) != 0)
        return rc;
    /* Bins on the multiples of the quantum: a quantised timer's readings are. */
    tks__bins_layout(start, end, 0, quantum, max_bins, &b);
    h->lo = b.lo;
    h->width = b.width;
    h->nbins = b.nbins;
    h->counts = calloc(h->nbins, sizeof *h->counts);
    if (!h->counts) {
        memset(h, 0, sizeof *h);
        return TKS_ENOMEM;
    }
    /* The samples are sorted, so each bin is a run found by bisection: runs of 10^8 readings
     * cost a few thousand comparisons instead of 10^8 divisions. */
    done = tks__bins_first_from(sorted, n, h->lo);
    h->below = done;
    for (size_t i = 0; i < h->nbins; i++) {
        uint64_t from = h->lo + i * h->width; /* <= end, so no overflow */
        size_t next = from > UINT64_MAX - h->width ? n
                                                   : tks__bins_first_from(sorted, n, from + h->width);

        h->counts[i] = next - done;
        done = next;
    }
    h->above = n - done;
    h->below_min = h->below ? sorted[0] : 0;
    h->above_max = h->above ? sorted[n - 1] : 0;
    h->total = n;
    return 0;
}

void tks__histogram_free(tks__histogram *h)
{
    if (!h)
        return;
    free(h->counts);
    memset(h, 0, sizeof *h);
}

/* ---- printing */

/* Saturating, so the last bin's label near 2^64 does not wrap to a small number. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* One printed row: bins, and the "below" and "above" rows around them. */
typedef struct hist_row {
    char label[48];   /* "52", "52-53", "< 52" or "> 200" */
    char extra[32];   /* "min 3" or "max 12345" for the folded rows */
    char count[24];
    char pct[24];     /* "12.5%" */
    uint64_t n;
    int median, mean; /* marks */
} hist_row;

#define NO_ROW SIZE_MAX

/* The row a value such as the median or the mean belongs to: the bin holding the nearest whole
 * tick, so a mean of 53.9 between quantised values 52 and 54 is shown beside 54, not 52.
 * NO_ROW when no printed row holds it (NaN, or a fold that is empty). */
static size_t row_of(const tks__histogram *h, double x, size_t has_below, size_t has_above)
{
    size_t above_row = has_above ? has_below + h->nbins : NO_ROW;
    long double r;
    uint64_t bin;

    if (isnan(x))
        return NO_ROW;
    r = floorl((long double)x + 0.5L);
    if (r < (long double)h->lo)
        return has_below ? 0 : NO_ROW;
    if (r >= 0x1p64L)
        return above_row;
    bin = ((uint64_t)r - h->lo) / h->width;
    return bin < h->nbins ? has_below + (size_t)bin : above_row;
}

static void set_count(hist_row *row, uint64_t count, uint64_t total)
{
    char pct[16];

    row->n = count;
    snprintf(row->count, sizeof row->count, "%" PRIu64, count);
    snprintf(row->pct, sizeof row->pct, "%s%%",
             tks__fmt_double(pct, sizeof pct, 100.0 * (double)count / (double)total, 1));
}

static hist_row *make_rows(const tks__histogram *h, double median, double mean, size_t *nrows)
{
    size_t has_below = h->below > 0, has_above = h->above > 0;
    size_t count = h->nbins + has_below + has_above, r = 0, mark;
    hist_row *rows = calloc(count, sizeof *rows);

    if (!rows)
        return NULL;
    if (has_below) {
        snprintf(rows[r].label, sizeof rows[r].label, "< %" PRIu64, h->lo);
        snprintf(rows[r].extra, sizeof rows[r].extra, "min %" PRIu64, h->below_min);
        set_count(&rows[r++], h->below, h->total);
    }
    for (size_t b = 0; b < h->nbins; b++, r++) {
        uint64_t from = h->lo + b * h->width, to = add_sat(from, h->width - 1);

        if (h->width == 1)
            snprintf(rows[r].label, sizeof rows[r].label, "%" PRIu64, from);
        else
            snprintf(rows[r].label, sizeof rows[r].label, "%" PRIu64 "-%" PRIu64, from, to);
        set_count(&rows[r], h->counts[b], h->total);
    }
    if (has_above) {
        /* Values exist past the last bin, so its end is below 2^64 - 1 and cannot wrap. */
        uint64_t last = h->lo + h->nbins * h->width - 1;

        snprintf(rows[r].label, sizeof rows[r].label, "> %" PRIu64, last);
        snprintf(rows[r].extra, sizeof rows[r].extra, "max %" PRIu64, h->above_max);
        set_count(&rows[r++], h->above, h->total);
    }
    if ((mark = row_of(h, median, has_below, has_above)) != NO_ROW)
        rows[mark].median = 1;
    if ((mark = row_of(h, mean, has_below, has_above)) != NO_ROW)
        rows[mark].mean = 1;
    *nrows = count;
    return rows;
}

/* Bar length in units (eighths of a character, or whole '#'s), rounded; a row with any samples
 * gets at least one unit so that it never looks like an empty bin. */
static uint64_t bar_units(uint64_t count, uint64_t most, uint64_t full)
{
    uint64_t u;

    if (count == 0 || most == 0)
        return 0;
    u = (uint64_t)((long double)count * (long double)full / (long double)most + 0.5L);
    return u ? u : 1;
}

static void put_spaces(FILE *f, uint64_t n)
{
    for (; n > 0; n--)
        putc(' ', f);
}

/* The bar padded to width characters, so the counts after it line up. */
static void put_bar(FILE *f, uint64_t count, uint64_t most, uint64_t width, int ascii)
{
    uint64_t units, chars;

    if (ascii) {
        units = bar_units(count, most, width);
        for (uint64_t i = 0; i < units; i++)
            putc('#', f);
        chars = units;
    } else {
        units = bar_units(count, most, width * 8);
        for (uint64_t i = 0; i < units / 8; i++)
            fputs("\xe2\x96\x88", f); /* U+2588 full block */
        chars = units / 8;
        if (units % 8) {
            /* U+258F (one eighth) down to U+2589 (seven eighths): 0x2590 - eighths. */
            char part[4] = {'\xe2', '\x96', (char)(0x90 - units % 8), '\0'};
            fputs(part, f);
            chars++;
        }
    }
    put_spaces(f, width - chars);
}

static void put_notes(FILE *f, const hist_row *row)
{
    const char *notes[3];
    int k = 0;

    if (row->extra[0])
        notes[k++] = row->extra;
    if (row->median)
        notes[k++] = "median";
    if (row->mean)
        notes[k++] = "mean";
    for (int i = 0; i < k; i++)
        fprintf(f, "%s%s", i ? ", " : "  ", notes[i]);
}

int tks__histogram_print(FILE *f, const uint64_t *sorted, size_t n, uint64_t quantum, double median,
                        double mean, const tks__histogram_style *style)
{
    tks__histogram h;
    hist_row *rows;
    size_t nrows, lw = 0, cw = 0, pw = 0;
    uint64_t most = 0, width = 40;
    const char *indent = "";
    int rc;

    if (!f || !sorted || n == 0 || (style && style->width < 0))
        return TKS_EINVAL;
    if (style && style->width > 0)
        width = (uint64_t)style->width;
    if (style && style->indent)
        indent = style->indent;
    rc = tks__histogram_build(sorted, n, quantum, style ? style->max_rows : 0, &h);
    if (rc != 0)
        return rc;
    rows = make_rows(&h, median, mean, &nrows);
    tks__histogram_free(&h);
    if (!rows)
        return TKS_ENOMEM;
    for (size_t r = 0; r < nrows; r++) {
        size_t len;

        len = strlen(rows[r].label);
        lw = len > lw ? len : lw;
        len = strlen(rows[r].count);
        cw = len > cw ? len : cw;
        len = strlen(rows[r].pct);
        pw = len > pw ? len : pw;
        most = rows[r].n > most ? rows[r].n : most;
    }
    for (size_t r = 0; r < nrows; r++) {
        fprintf(f, "%s%*s  ", indent, (int)lw, rows[r].label);
        put_bar(f, rows[r].n, most, width, style && style->ascii);
        fprintf(f, "  %*s  %*s", (int)cw, rows[r].count, (int)pw, rows[r].pct);
        put_notes(f, &rows[r]);
        putc('\n', f);
    }
    free(rows);
    return ferror(f) ? TKS_EIO : 0;
}
