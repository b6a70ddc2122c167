/* SPDX-License-Identifier: MIT */
/* report.h: turning results into text tables, JSON, CSV and files that appear whole or not at all.
 * Nothing here measures; everything here may allocate and do I/O. */
#ifndef TKS_REPORT_H
#define TKS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "tickscope.h"

/* ---- output files that are safe to point anywhere (atomic.c). A regular file or a new name is
 * written to a temporary in the same directory and renamed on commit, so it appears whole or not
 * at all; a symbolic link is followed to where it points; a character device, FIFO or socket is
 * written directly, with no rename; a directory or block device is refused at open, before any
 * measuring. "-" means stdout (a stream of ours over descriptor 1, flushed, never closed).
 * Temporaries are removed on SIGINT, SIGTERM and SIGHUP. */
typedef struct tks__atomic_file {
    FILE *f;
    char *tmp_path;   /* NULL when written directly (stdout, a device, a FIFO, a socket) */
    char *final_path; /* NULL when written directly */
    void *sink;       /* the descriptor and its first write error, for a stream of ours */
    int slot;         /* 1 + the signal-cleanup slot of tmp_path; 0 (as zeroed) if none */
    int err;          /* errno of the last failure (kept after commit and abort), 0 if none */
    const char *why;  /* a refusal that no errno names ("a block device"), else NULL */
} tks__atomic_file;

int tks__atomic_open(tks__atomic_file *af, const char *path);   /* 0 or TKS_EIO/TKS_ENOMEM/TKS_EINVAL */
int tks__atomic_commit(tks__atomic_file *af);                   /* flush, fsync, close, rename; on failure removes the temporary */
void tks__atomic_abort(tks__atomic_file *af);                   /* close and remove the temporary */
/* Why the last open or commit of af failed, for a message: strerror of the real cause (ENOSPC,
 * EISDIR, EACCES, ...) when known, else tks_strerror(rc). */
const char *tks__atomic_why(const tks__atomic_file *af, int rc);
/* THE message for an output that could not be written, in buf: "cannot write 'PATH': CAUSE"
 * ("cannot write to standard output: CAUSE" for "-" or NULL), the cause as tks__atomic_why
 * gives it (a writer's failing stream included). An af still open is aborted (its temporary
 * removed). Returns buf. */
const char *tks__atomic_failure(tks__atomic_file *af, int rc, const char *path, char *buf,
                                size_t size);
/* atomic_signal.c: a temporary to remove if a signal ends the process; -1 if the table is full. */
int tks__atomic_track(const char *tmp_path);
void tks__atomic_untrack(int slot);

/* ---- JSON: a streaming writer. Keys are given for members of objects and NULL for array
 * elements and the top-level value. Doubles that are not finite are written as null.
 * Errors (a write failing, nesting deeper than TKS_JSON_MAX_DEPTH, a key where none belongs)
 * are sticky and returned by tks__json_finish. Output is indented by two spaces. */
#define TKS_JSON_MAX_DEPTH 32
typedef struct tks__json {
    FILE *f;
    int depth;
    int count[TKS_JSON_MAX_DEPTH + 1]; /* members written at each level */
    char kind[TKS_JSON_MAX_DEPTH + 1]; /* '{' or '[' */
    int err;
} tks__json;

void tks__json_init(tks__json *j, FILE *f);
void tks__json_begin_object(tks__json *j, const char *key);
void tks__json_end_object(tks__json *j);
void tks__json_begin_array(tks__json *j, const char *key);
void tks__json_end_array(tks__json *j);
void tks__json_string(tks__json *j, const char *key, const char *value); /* NULL value -> null */
void tks__json_u64(tks__json *j, const char *key, uint64_t value);
void tks__json_i64(tks__json *j, const char *key, int64_t value);
void tks__json_double(tks__json *j, const char *key, double value);     /* shortest round-trip-ish %.17g trimmed; non-finite -> null */
void tks__json_bool(tks__json *j, const char *key, int value);
void tks__json_null(tks__json *j, const char *key);
void tks__json_range(tks__json *j, const char *key, double lo, double hi); /* [lo, hi] */
int tks__json_finish(tks__json *j); /* 0, or TKS_EIO/TKS_EINVAL; checks all containers are closed; writes the final newline */

/* ---- diagnostics (diag_text.c): the only place their messages are rendered. */
/* "diagnostics": [{code, severity, message, values}] */
void tks__json_diags(tks__json *j, const tks_diags *ds);
/* key: [messages] (the "warnings" strings Google Benchmark's readers know) */
void tks__json_diag_messages(tks__json *j, const char *key, const tks_diags *ds);
/* One line per diagnostic: "PREFIXwarning: message", or "PREFIXwarning: SUBJECT: message". */
void tks__diags_print(FILE *f, const tks_diags *ds, const char *prefix, const char *subject);
/* One Markdown quote per diagnostic: "> **Warning** (`code`): message". */
void tks__diags_markdown(FILE *f, const tks_diags *ds);
/* The items of a "diagnostics" array, for one that gathers several lists. */
void tks__json_diag_items(tks__json *j, const tks_diags *ds);
/* The messages on one line, sep between them. */
void tks__diags_join(FILE *f, const tks_diags *ds, const char *sep);
/* The same as an allocated string (free it; NULL when out of memory), and as a JSON text key
 * (the prose keys kept beside the codes: a finding, its advice, a note). */
char *tks__diags_text(const tks_diags *ds, const char *sep);
void tks__json_diags_text(tks__json *j, const char *key, const tks_diags *ds, const char *sep);
/* The codes, separated by spaces (one CSV field: ids hold no comma or quote). */
void tks__csv_diag_codes(FILE *f, const tks_diags *ds);

/* ---- text tables: aligned columns, a header row and a rule under it. */
typedef struct tks__table tks__table;
/* align: one char per column, 'l' or 'r'. Returns NULL on allocation failure. */
tks__table *tks__table_new(int ncols, const char *const *headers, const char *align);
/* Append a row; cells are copied. NULL cell prints as "-". 0 or TKS_ENOMEM. */
int tks__table_add_row(tks__table *t, const char *const *cells);
void tks__table_print(tks__table *t, FILE *f, const char *indent);
/* The same within `columns` characters (0: no limit, as for a file or a pipe): columns that do
 * not fit wrap onto continuation lines indented by TKS__TABLE_WRAP_INDENT, a cell wider than a
 * line (and the first column, to a third of the line, when a row must wrap) is abbreviated. */
#define TKS__TABLE_WRAP_INDENT 4
void tks__table_print_fit(tks__table *t, FILE *f, const char *indent, int columns);
/* Rows as they come: the header and rule now, laid out in planned widths (per column; 0 or a
 * NULL planned: the header's), then each tks__table_stream_row printed and flushed at once (not
 * kept). A cell wider than planned pushes its row's later cells right; it is abbreviated only
 * where the layout had to narrow its column. 0, TKS_EIO or TKS_ENOMEM. */
int tks__table_stream(tks__table *t, FILE *f, const char *indent, int columns,
                      const size_t *planned);
int tks__table_stream_row(tks__table *t, const char *const *cells);
/* The width of the terminal on descriptor fd (term.c): COLUMNS when set, else the terminal's
 * own (TIOCGWINSZ), else 80; 0 when fd is not a terminal (full lines for files and pipes). */
int tks__term_columns(int fd);
/* The same for a stream: its descriptor's, or the one tks__term_stream said it writes to (an
 * output file of atomic.c over a terminal is a stream of ours, with no descriptor of its own). */
int tks__term_columns_of(FILE *f);
/* f writes to fd (-1: forget f). Kept for a few streams at once; only terminals are kept. */
void tks__term_stream(FILE *f, int fd);
void tks__table_free(tks__table *t);
/* One Markdown table cell, " s |", with pipes escaped so that a name cannot break the table. */
void tks__md_cell(FILE *f, const char *s);

/* ---- numbers for people: "%.*f" with thousands separators off, trailing zeros kept, and
 * magnitudes >= 1e7 in %.3g style. Writes into buf (always NUL-terminated), returns buf. */
char *tks__fmt_double(char *buf, size_t size, double v, int decimals);
char *tks__fmt_u64(char *buf, size_t size, uint64_t v);

/* One CSV field as RFC 4180 has it: quoted (quotes doubled) when it holds a comma, a quote or a
 * line break, as is otherwise. Names (of benchmarks, regions) may hold any of them. */
void tks__csv_field(FILE *f, const char *s);
/* A comma, then v as %.6g; the field stays empty when v is not finite (an unknown figure). */
void tks__csv_next_double(FILE *f, double v);
/* ---- rows of ready cells (rows.c): one list of columns for a kind's CSV and Markdown writers. */
void tks__csv_row(FILE *f, int n, const char *const *cells);   /* NULL cell: empty field */
void tks__md_row(FILE *f, int n, const char *const *cells);    /* NULL cell: "-" */
/* The header row and the rule under it; align: 'l' or 'r' per column (NULL: all left). */
void tks__md_header(FILE *f, int n, const char *const *headers, const char *align);
/* v as %.6g, or "" when it is not finite (an unknown figure). Returns buf. */
char *tks__cell_double(char *buf, size_t size, double v);
/* ---- raw samples as CSV: "method,ensemble,sample,ticks" (header written by tks__csv_header). */
int tks__csv_header(FILE *f);
int tks__csv_samples(FILE *f, const char *method, const uint64_t *ticks,
                    uint32_t ensembles, uint32_t samples); /* row-major: ticks[e * samples + s] */

/* ---- progress on stderr, only when stderr is a terminal (or force is set): one line, "LABEL
 * 38% (12/31), ETA 0:07", redrawn in place at most ten times a second, never wider than the
 * terminal, and only on work that will last more than about two seconds (once a second has
 * passed, when the time left says so). The ETA comes from the time the finished items took
 * (before the first, from item_s, the planned seconds per item, when the caller knows it). A
 * row printed to the same terminal first calls tks__progress_erase; the next update redraws. */
typedef struct tks__progress {
    int enabled, forced; /* forced: drawn even on a file, and from the first update */
    const char *label;
    double last_draw;  /* seconds, CLOCK_MONOTONIC */
    int drawn;
    double start;      /* when begun */
    double item_s;     /* planned seconds per item, 0 when unknown */
    uint64_t done;     /* items finished at the last update, and when the last one finished */
    double done_at;
    double quiet;      /* seconds before the line may appear (TICKSCOPE_PROGRESS_AFTER) */
} tks__progress;

void tks__progress_begin(tks__progress *p, const char *label, int force);
void tks__progress_plan(tks__progress *p, double item_s); /* after begin */
void tks__progress_update(tks__progress *p, uint64_t done, uint64_t total);
void tks__progress_end(tks__progress *p);
/* Clear the line of the bar being drawn, if any, so that what is printed next starts clean. */
void tks__progress_erase(void);
/* Seconds left for total - done items, or a negative number when nothing says yet. */
double tks__progress_eta(const tks__progress *p, uint64_t done, uint64_t total, double now);

/* ---- terminal histograms, like the "incidence of each cycle count" charts of the Dr Dobb's
 * article: one row per bin, each bin a whole number of timer quanta wide and starting on a
 * multiple of the quantum, so a quantised distribution never shows empty or doubled bins.
 * Values far outside the bulk are folded into one "below" and one "above" row, counted, never
 * dropped. */
typedef struct tks__histogram {
    uint64_t lo;          /* first bin starts here (a multiple of the quantum) */
    uint64_t width;       /* bin width in ticks (a multiple of the quantum, >= 1) */
    size_t nbins;
    uint64_t *counts;     /* nbins counts, allocated */
    uint64_t below, above;/* samples left of lo, and right of the last bin */
    uint64_t below_min, above_max; /* the extreme values folded into those rows */
    uint64_t total;
} tks__histogram;

/* Bin sorted[0..n) (ascending) into at most max_bins bins (0: 24). quantum >= 1 (0 taken as 1).
 * The bins cover the bulk of the distribution (Tukey's far fences, at least the middle 98%), by
 * the rule of stats/bins.h, which tks__plot_histogram shares. */
int tks__histogram_build(const uint64_t *sorted, size_t n, uint64_t quantum, size_t max_bins,
                        tks__histogram *h);
void tks__histogram_free(tks__histogram *h);

typedef struct tks__histogram_style {
    int width;            /* characters of the longest bar (0: 40) */
    size_t max_rows;      /* most bins (0: 24) */
    int ascii;            /* '#' instead of Unicode eighth blocks */
    const char *indent;   /* before every line (NULL: "") */
} tks__histogram_style;

/* Print the histogram of sorted[0..n): one row per bin with its range, a bar, the count and
 * the percentage; the rows holding the median and the mean are marked. 0 or a TKS_E* code. */
int tks__histogram_print(FILE *f, const uint64_t *sorted, size_t n, uint64_t quantum, double median,
                        double mean, const tks__histogram_style *style);

/* ---- plots for gnuplot: for each figure, a data file (NAME.dat) and a script (NAME.gp) in dir,
 * written atomically; dir is created if missing. NAME is made safe for a file name ('/' and other
 * characters outside [A-Za-z0-9._-] become '_'). Nothing here runs gnuplot: tks__plot_render does. */
/* The distribution of one set of samples (ticks in any order), median and mean marked: binned
 * as the terminal histogram is, but in up to 200 bins and on the lattice of the smallest sample. */
int tks__plot_histogram(const char *dir, const char *name, const char *title, const uint64_t *ticks,
                       size_t n, uint64_t quantum, double median, double mean);
/* Per-ensemble minimum and variance against the ensemble index (the white paper's Figures 1-10);
 * work[e] (may be NULL) is the work each ensemble carried. */
int tks__plot_ensembles(const char *dir, const char *name, const char *title,
                       const tks_summary *ens, size_t count, const uint32_t *work);
/* The resolution staircase: estimate against work with its interval [lo, hi], and the fitted
 * line (fit may be NULL). */
int tks__plot_resolution(const char *dir, const char *name, const char *title, const double *work,
                        const double *est, const double *lo, const double *hi, size_t n,
                        const tks_fit *fit);
/* Create dir (and its parents) if missing and check a figure could be written there, before
 * anything is measured. 0, or a TKS_E* code with a one-line reason in why. */
int tks__plot_dir_ready(const char *dir, char *why, size_t size);
/* Render every script in dir to SVG with gnuplot. 0 when rendered; TKS_EUNAVAIL when gnuplot is
 * not installed; TKS_EIO when it failed. message (always set) says what happened and, when
 * nothing was rendered, how to render later. */
int tks__plot_render(const char *dir, char *message, size_t size);

/* ---- the machine (tks_platform) for people and programs. */
/* One line saying what a tick is here: nanoseconds and core cycles. */
void tks__report_units(const tks_platform *p, FILE *f);
/* An environment finding in words: what was found, then (after sep) its remedy when it has one. */
void tks__report_finding(FILE *f, const tks_env_finding *e, const char *sep);
/* "; back-to-back unfenced reads most often differ by N" from p's commonest nonzero unfenced
 * delta (nothing when there is none): the mode, because the smallest delta seen is one rare
 * reading, different from run to run, and info, validate and the tour must say the same. */
void tks__report_unfenced_phrase(const tks_platform *p, FILE *f);
/* The machine's facts as members of the current JSON object: the block `tickscope info --json`
 * writes at its top level and every result file carries in its "context". */
void tks__report_platform_json(tks__json *j, const tks_platform *p);
/* The add check (tickscope/stats.h's tks_add_check) as the object "add_check": its verdict's name
 * ("none", "holds", "slow", "disagree") and figures. A benchmark's core clock and the platform's
 * carry one. */
void tks__report_add_check_json(tks__json *j, const tks_add_check *c);
const char *tks__report_add_check_name(enum tks_add_check_verdict v);

#endif
