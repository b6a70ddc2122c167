/* SPDX-License-Identifier: MIT */
/* cli.h: what the subcommands of the tickscope command share: exit codes, option parsing,
 * errors in one format, where output goes, progress on stderr. */
#ifndef TKS_CLI_H
#define TKS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "report/machine/analysis_report.h"
#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope.h"
#include "tickscope/analysis.h"
#include "tickscope/bench.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* "tickscope: error: ..." on stderr; return the exit status to use. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Option values: each returns 0, or prints a usage error and returns CLI_EXIT_USAGE. */
int cli_parse_u32(const char *cmd, const char *opt, const char *text, uint32_t lo, uint32_t hi,
                  uint32_t *out);
int cli_parse_seconds(const char *cmd, const char *opt, const char *text, double *out);
/* A comma-separated list of method names into selected[TKS_METHOD_COUNT] (1 = chosen). */
int cli_parse_methods(const char *cmd, const char *text, int *selected);
/* The value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL if argv[*i] is not opt.
 * Sets *missing when the option is there but its value is not. */
const char *cli_option_value(int argc, char **argv, int *i, const char *opt, int *missing);

/* Options every measuring command takes. */
struct cli_common {
    int pin_cpu;          /* -1: not pinned */
    int fifo;
    enum tks_format format; /* --format F (--json: json); the first of writers' formats if not given */
    const tks__writers *writers; /* the formats of the command's result (NULL: no --format) */
    const char *out;      /* NULL: stdout */
    const char *html;     /* --html FILE: the page too (NULL: none; only where writers has html) */
    const char *raw;      /* NULL: no raw samples */
    int quiet;            /* no progress, no notes */
    double tsc_hz;        /* --tsc-hz: > 0 overrides the TSC rate */
    int recalibrate;      /* --recalibrate: ignore the per-boot cache */
    const char *root;     /* --root: where /proc, /sys and /dev/kmsg are read (tests) */
};
/* writers: the table of the command's result kind; --format, --json and the error naming the
 * formats come from it (NULL: the command takes neither). */
void cli_common_init(struct cli_common *c, const tks__writers *writers);
/* The help lines of --format and --json, the formats listed from t. */
void cli_format_help(FILE *f, const tks__writers *t);
/* Write doc in c's format through its table: 0 or a TKS_E* code; and, with --html, the page
 * (cli_write_page). */
int cli_write(const struct cli_common *c, FILE *f, const void *doc);
/* 1 if argv[*i] was a common option (advancing *i past its value), 0 if not, or
 * -CLI_EXIT_USAGE after printing an error. */
int cli_common_option(const char *cmd, int argc, char **argv, int *i, struct cli_common *c);
extern const char cli_common_help[];

/* Progress for the sampler: drawn on stderr when it is a terminal, on work that lasts (with the
 * time left; tks__progress). */
struct cli_progress {
    tks__progress bar;
    double start;
    int started;
    char label[64];
    int quiet;
};
void cli_progress_init(struct cli_progress *p, const char *label, int quiet);
void cli_progress_cb(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(struct cli_progress *p);
/* tks_stage_fn over a struct cli_progress: a labelled bar starts, or (label NULL) ends. */
void cli_progress_stage(void *ctx, const char *label);

/* Notes about pinning and real-time priority, printed once per run when they failed. */
void cli_placement_notes(const struct cli_common *c, const tks_sample_run *run);

/* Open --out (stdout when not given) and --raw before measuring, so a bad path fails at once,
 * not after a long run; commit both at the end. Each prints its own error and returns an exit
 * status. */
int cli_open_outputs(const char *cmd, const struct cli_common *c, tks__atomic_file *out,
                     tks__atomic_file *raw);
int cli_close_outputs(tks__atomic_file *out, tks__atomic_file *raw, const struct cli_common *c);
/* An output that could not be written (opened, filled or committed; rc the failure): prints
 * "tickscope: error: CMD: cannot write 'PATH': CAUSE" (no "CMD: " when cmd is NULL; PATH NULL
 * or "-": standard output),
 * aborts af if still open and returns CLI_EXIT_FAIL. */
int cli_write_failure(const char *cmd, const char *path, tks__atomic_file *af, int rc);
/* --html FILE: doc as t's HTML page, written whole (opened, filled and committed at once; a
 * failure is printed here, and cli_close_outputs then fails). An exit status. */
int cli_write_page(const char *cmd, const tks__writers *t, const char *path, const void *doc);


/* A rate in Hz: a positive number, optionally with k, M or G and "Hz" ("2.3GHz", "2300M"). */
int cli_parse_hz(const char *cmd, const char *opt, const char *text, double *out);

/* What the machine is (tks_platform_probe with the common options), with a note on stderr for
 * what makes every figure suspect (no invariant TSC, no known rate). Returns an exit status. */
int cli_platform(const char *cmd, const struct cli_common *c, tks_platform *p);
/* body(argc, argv, p) with a zeroed platform p it may fill, freed on every return (the platform's
 * diagnostics own memory); body's return. */
int cli_with_platform(int (*body)(int argc, char **argv, tks_platform *p), int argc, char **argv);

/* --plot DIR, before measuring: create DIR (and missing parents) and check that a file can be
 * written there, so a bad directory fails in a moment rather than after the run. Prints its own
 * one-line error; returns an exit status. */
int cli_plot_dir_check(const char *cmd, const char *dir);
/* After the figures are written: render them when gnuplot is installed and say what happened in a
 * note (nothing under --quiet). Never a failure: the data and scripts are already there. */
void cli_plot_render(const char *dir, int quiet);

double cli_now(void);

#endif
