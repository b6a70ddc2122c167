/* SPDX-License-Identifier: MIT */
/* writers.h: one table of writers per result kind. A result kind (a benchmark run, a validation,
 * the machine's description, a comparison, ...) lists, once, the formats it can be written in and
 * the function writing each; the command's --format, the error naming the formats a kind has and
 * the help text's list all come from that table, and writing is a lookup in it.
 *
 * A new format is one writer file and one row per kind it fits. The HTML pages came so:
 * TKS_FORMAT_HTML in enum tks_format (tickscope/common.h) and "html" in the names of
 * base/formats.c; report/<kind>/<kind>_html.c holding a tks__write_fn for the kind's document
 * (the same `const void *` the kind's other writers take), built from report/html/'s page and
 * plotter; the row {TKS_FORMAT_HTML, ...} in the kind's table. Parsing, errors and help
 * followed; --html FILE (cli_write_page) writes the same row's page besides the report. */
#ifndef TKS_REPORT_WRITERS_H
#define TKS_REPORT_WRITERS_H

#include <stddef.h>
#include <stdio.h>

#include "tickscope/common.h"

/* Writes the kind's document (its own struct, named in the kind's header) to f: 0 or a TKS_E*
 * code. */
typedef int (*tks__write_fn)(FILE *f, const void *doc);

typedef struct tks__writer {
    enum tks_format format;
    tks__write_fn write;
} tks__writer;

typedef struct tks__writers {
    const char *kind;         /* what the result is, for messages ("validate", "a benchmark program") */
    const tks__writer *rows;  /* the first row is the default format */
    size_t n;
} tks__writers;

/* Defines the table NAME of kind KIND from its rows: TKS__WRITERS(x, "info", {..}, {..}). */
#define TKS__WRITERS(name, kind_name, ...)                                                        \
    static const tks__writer name##_rows[] = {__VA_ARGS__};                                       \
    const tks__writers name = {kind_name, name##_rows, sizeof name##_rows / sizeof name##_rows[0]}

/* The writer of format f, or NULL if the kind has none. */
tks__write_fn tks__writers_find(const tks__writers *t, enum tks_format f);
/* Write doc in format f (TKS_FORMAT_DEFAULT: the table's first row); TKS_EINVAL if the kind has
 * no such format. */
int tks__writers_write(const tks__writers *t, enum tks_format f, FILE *out, const void *doc);
/* The format called name if the kind has it, else -1 ("text" is console, as tks_format_from_name). */
int tks__writers_parse(const tks__writers *t, const char *name);
/* "console, json, csv, markdown": the kind's formats in its table's order. Returns buf. */
const char *tks__writers_list(const tks__writers *t, char *buf, size_t size);
/* The one-line error for a format the kind lacks: "OPT: 'NAME' is not a format of KIND; its
 * formats are console, json, ...". Returns buf. */
const char *tks__writers_unknown(const tks__writers *t, const char *opt, const char *name, char *buf,
                                 size_t size);

#endif
