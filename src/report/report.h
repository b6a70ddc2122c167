/* report.h: turning results into text tables, JSON, CSV and files that appear whole or not at all.
 * Nothing here measures; everything here may allocate and do I/O. */
#ifndef TKS_REPORT_H
#define TKS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "tickscope.h"

/* ---- files written atomically: a temporary name in the same directory, renamed on commit.
 * A path of "-" means stdout (no temporary, commit only flushes). */
typedef struct tks_atomic_file {
    FILE *f;
    char *tmp_path;   /* NULL for stdout */
    char *final_path; /* NULL for stdout */
} tks_atomic_file;

int tks_atomic_open(tks_atomic_file *af, const char *path);   /* 0 or TKS_EIO/TKS_ENOMEM/TKS_EINVAL */
int tks_atomic_commit(tks_atomic_file *af);                   /* flush, fsync, close, rename; on failure removes the temporary */
void tks_atomic_abort(tks_atomic_file *af);                   /* close and remove the temporary */

/* ---- JSON: a streaming writer. Keys are given for members of objects and NULL for array
 * elements and the top-level value. Doubles that are not finite are written as null.
 * Errors (a write failing, nesting deeper than TKS_JSON_MAX_DEPTH, a key where none belongs)
 * are sticky and returned by tks_json_finish. Output is indented by two spaces. */
#define TKS_JSON_MAX_DEPTH 32
typedef struct tks_json {
    FILE *f;
    int depth;
    int count[TKS_JSON_MAX_DEPTH + 1]; /* members written at each level */
    char kind[TKS_JSON_MAX_DEPTH + 1]; /* '{' or '[' */
    int err;
} tks_json;

void tks_json_init(tks_json *j, FILE *f);
void tks_json_begin_object(tks_json *j, const char *key);
void tks_json_end_object(tks_json *j);
void tks_json_begin_array(tks_json *j, const char *key);
void tks_json_end_array(tks_json *j);
void tks_json_string(tks_json *j, const char *key, const char *value); /* NULL value -> null */
void tks_json_u64(tks_json *j, const char *key, uint64_t value);
void tks_json_i64(tks_json *j, const char *key, int64_t value);
void tks_json_double(tks_json *j, const char *key, double value);     /* shortest round-trip-ish %.17g trimmed; non-finite -> null */
void tks_json_bool(tks_json *j, const char *key, int value);
void tks_json_null(tks_json *j, const char *key);
int tks_json_finish(tks_json *j); /* 0, or TKS_EIO/TKS_EINVAL; checks all containers are closed; writes the final newline */

/* ---- text tables: aligned columns, a header row and a rule under it. */
typedef struct tks_table tks_table;
/* align: one char per column, 'l' or 'r'. Returns NULL on allocation failure. */
tks_table *tks_table_new(int ncols, const char *const *headers, const char *align);
/* Append a row; cells are copied. NULL cell prints as "-". 0 or TKS_ENOMEM. */
int tks_table_add_row(tks_table *t, const char *const *cells);
void tks_table_print(const tks_table *t, FILE *f, const char *indent);
void tks_table_free(tks_table *t);

/* ---- numbers for people: "%.*f" with thousands separators off, trailing zeros kept, and
 * magnitudes >= 1e7 in %.3g style. Writes into buf (always NUL-terminated), returns buf. */
char *tks_fmt_double(char *buf, size_t size, double v, int decimals);
char *tks_fmt_u64(char *buf, size_t size, uint64_t v);

/* ---- raw samples as CSV: "method,ensemble,sample,ticks" (header written by tks_csv_header). */
int tks_csv_header(FILE *f);
int tks_csv_samples(FILE *f, const char *method, const uint64_t *ticks,
                    uint32_t ensembles, uint32_t samples); /* row-major: ticks[e * samples + s] */

/* ---- progress on stderr, only when stderr is a terminal (or force is set):
 * one line redrawn with \r at most ten times a second, cleared on finish. */
typedef struct tks_progress {
    int enabled;
    const char *label;
    double last_draw;  /* seconds, CLOCK_MONOTONIC */
    int drawn;
} tks_progress;

void tks_progress_begin(tks_progress *p, const char *label, int force);
void tks_progress_update(tks_progress *p, uint64_t done, uint64_t total);
void tks_progress_end(tks_progress *p);

/* ---- the machine (tks_platform) for people and programs. */
/* One line saying what a tick is here: nanoseconds and core cycles. */
void tks_report_units(const tks_platform *p, FILE *f);
/* The machine's facts as members of the current JSON object: the block `tickscope info --json`
 * writes at its top level and every result file carries in its "context". */
void tks_report_platform_json(tks_json *j, const tks_platform *p);

#endif
