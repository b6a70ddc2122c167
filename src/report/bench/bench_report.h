/* SPDX-License-Identifier: MIT */
/* bench_report.h: benchmark results for people (console table, Markdown, histograms) and for
 * programs (Google Benchmark's JSON schema with our fields, CSV), and their output files, which
 * appear whole or not at all. */
#ifndef TKS_REPORT_BENCH_H
#define TKS_REPORT_BENCH_H

#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope/bench.h"

struct tks__bench_outputs {
    tks__atomic_file out, raw, file; /* file: --benchmark_out's second report */
    const char *out_path, *raw_path, *file_path; /* as given, for messages ("-": stdout) */
    int have_raw, have_file;
    tks__atomic_file html; /* --html's page */
    const char *html_path;
    int have_html;
    int streamed; /* the console rows went to out as they were measured (tks__bench_stream) */
};

/* Open --out (stdout when not given) and --raw before measuring, so a bad path fails at once.
 * 0, or TKS_EIO with a one-line reason in err. */
int tks__bench_outputs_open(struct tks__bench_outputs *w, const tks_options *o, char *err,
                           size_t errlen);
/* Commit both files (or remove them when commit is 0). 0, or TKS_EIO with the reason in err. */
int tks__bench_outputs_close(struct tks__bench_outputs *w, int commit, char *err, size_t errlen);

/* Results are grouped by instance: r[i * o->repetitions + rep]. */
int tks__bench_report(struct tks__bench_outputs *w, const tks_options *o, const tks_platform *p,
                     const tks_result *r, size_t n, const char *prog, char *err, size_t errlen);

/* What a benchmark program writes; its table (bench_outputs.c) holds the writers below. */
typedef struct tks__bench_doc {
    const tks_options *o;
    const tks_platform *p;
    const tks_result *r;
    size_t n;
    const char *prog;
    int streamed; /* console: the table is out already (tks__bench_stream) */
} tks__bench_doc;
extern const tks__writers tks__bench_writers; /* of a tks__bench_doc */
/* --explain's report (bench_explain_report.c): what limits each benchmark, r[i] for names[i]
 * (r[i].error set and n == 0: that benchmark's run failed). */
struct tks_explain_result;
typedef struct tks__bench_explain_doc {
    const tks_platform *p;
    const struct tks_explain_result *r;
    const char *const *names;
    size_t n;
} tks__bench_explain_doc;
extern const tks__writers tks__bench_explain_writers; /* of a tks__bench_explain_doc */
/* A benchmark program's --format (and Google Benchmark's --benchmark_format, _out_format): 0, or
 * 2 with the error listing the formats in err. */
int tks__bench_format_parse(const char *opt, const char *v, enum tks_format *out, char *err,
                            size_t errlen);

/* ---- the console table as it is measured: on standard output in the console format (a file,
 * JSON and CSV are written whole at the end), each row printed and flushed when its benchmark
 * finishes, after the progress line is erased; the table fits the terminal. The final report
 * then writes only what follows the table (tks__bench_report, w->streamed). */
/* --benchmark_counters_tabular's console table (counters_tabular.c): the console's own columns
 * (fixed of them, headers and align as for tks__table_new) and, after them, a column per counter
 * of the row, a new header whenever the set of counters changes. planned NULL: the rows are kept
 * and each set's printed whole, fitted to columns; else each row is printed at once, the fixed
 * columns planned that wide. */
typedef struct tks__bench_tabular tks__bench_tabular;
tks__bench_tabular *tks__bench_tabular_new(FILE *f, int fixed, const char *const *headers,
                                           const char *align, int columns,
                                           const size_t *planned);
/* A row: its fixed cells, and its counters: r's (stat < 0) or the statistic stat over
 * r[0..reps) (TKS__AGG_*). 0, TKS_ENOMEM or TKS_EIO. */
int tks__bench_tabular_row(tks__bench_tabular *tb, const char *const *cells, const tks_result *r,
                           size_t reps, int stat);
/* Print what is kept and free tb (NULL: nothing). 0 or TKS_EIO. */
int tks__bench_tabular_end(tks__bench_tabular *tb);

typedef struct tks__bench_stream {
    FILE *f;
    const tks_options *o;
    const tks_platform *p;
    tks__table *t;
    tks__bench_tabular *tab; /* instead of t, with --benchmark_counters_tabular */
    size_t name_width;
    int columns, started;
} tks__bench_stream;
/* Whether w's standard output takes the console table row by row (o's format is console). */
int tks__bench_outputs_stream(const struct tks__bench_outputs *w, const tks_options *o);
/* name_width: the longest instance name. 0 or TKS_ENOMEM. */
int tks__bench_stream_begin(tks__bench_stream *s, FILE *f, const tks_options *o,
                            const tks_platform *p, size_t name_width);
/* r[i] has just been measured (r grouped as for tks__bench_report): its row, and the aggregate
 * rows after an instance's last repetition. The first call writes the lines above the table. */
int tks__bench_stream_result(tks__bench_stream *s, const tks_result *r, size_t i);
void tks__bench_stream_end(tks__bench_stream *s);

/* Each format on its own (tks__bench_report picks one from the table). */
/* streamed: the head and the rows were written by a tks__bench_stream; only what follows the
 * table is left to write. */
int tks__bench_console(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                      size_t n, int streamed);
int tks__bench_markdown(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                       size_t n);
int tks__bench_json(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                   size_t n, const char *prog);
int tks__bench_csv(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                   size_t n);
/* A result's event counters (bench_events.c): lines under the notes, fields of its JSON entry,
 * CSV columns after the others (those of the first result with counters, for every row). */
void tks__bench_events_text(FILE *f, const tks_result *r, const char *pre);
void tks__bench_events_json(tks__json *j, const tks_result *r);
void tks__bench_events_csv_header(FILE *f, const tks_result *r, size_t n);
void tks__bench_events_csv_row(FILE *f, const tks_result *x, const tks_result *r, size_t n);
/* One self-contained HTML page (bench_html.c). */
int tks__bench_html(FILE *f, const tks_options *o, const tks_platform *p, const tks_result *r,
                    size_t n, const char *prog);
/* Every kept window: benchmark,repetition,window,k,empty_ticks,ticks. */
int tks__bench_raw_csv(FILE *f, const tks_result *r, size_t n);

/* Histogram and plots of each benchmark's windows (the largest k in throughput mode); msg says
 * what was written and whether it was rendered. */
void tks__bench_plots(const char *dir, const tks_result *r, size_t n, char *msg, size_t size);

/* The windows of r with the largest k, sorted, into a new array (*count of them), and their
 * summary; NULL when there are none or memory ran out. */
uint64_t *tks__bench_windows(const tks_result *r, size_t *count, tks_summary *summary);

/* Across the repetitions of one instance: the headline estimate's mean, median, standard
 * deviation (n - 1) and coefficient of variation, over the runs that succeeded. */
enum { TKS__AGG_MEAN, TKS__AGG_MEDIAN, TKS__AGG_STDDEV, TKS__AGG_CV, TKS__AGG_COUNT };
typedef struct tks__bench_aggregate {
    size_t runs;
    /* Mean, median, stddev (n - 1) and cv in each unit, computed here once so that writers only
     * format them: ticks; ns (ticks at the platform's TSC rate, one rate for every run; the cv is
     * the ticks'); core cycles from the runs' own core-cycle figures (each converted at its
     * run's own clock, so the median is a run's, never the tick median times an average rate).
     * NaN where a unit is missing (core cycles: unless every run that succeeded had them). */
    double ticks[TKS__AGG_COUNT], ns[TKS__AGG_COUNT], cycles[TKS__AGG_COUNT];
    /* Between runs (NaN with fewer than two): the mean's 95% interval (Student's t, runs - 1
     * degrees of freedom) and the 95% prediction interval of one more run, which is what "the next
     * run will read" means; in ticks and, over the runs that had them, in core cycles. */
    tks_interval ticks_mean, ticks_next;
    size_t cycle_runs;
    tks_interval cycles_mean, cycles_next;
} tks__bench_aggregate;
void tks__bench_aggregate_of(const tks_result *r, size_t reps, const tks_platform *p,
                             tks__bench_aggregate *a);
/* Mean, median, stddev (n - 1) and cv of v[0..n) (NaN when n is 0). */
void tks__bench_four(double *v, size_t n, double out[TKS__AGG_COUNT]);

/* ---- issue 26: the work counters in each format (bench_counters.c). */
/* A counter's statistic over r[0..reps), from the runs that succeeded and have it. */
void tks__bench_counter_aggregate(const tks_result *r, size_t reps, const char *name,
                                  double out[TKS__AGG_COUNT]);
/* JSON: a run's counters as Google Benchmark's top-level fields and ours under "work_counters";
 * an aggregate row's (stat: TKS__AGG_*) over the repetitions r[0..reps). */
void tks__bench_json_counters(tks__json *j, const tks_result *r);
void tks__bench_json_counter_aggregates(tks__json *j, const tks_result *r, size_t reps, int stat);
/* Console and Markdown: "name=value/s (per cycle)" for each counter of r (stat < 0), or the
 * statistic stat over the repetitions r[0..reps). */
void tks__bench_counters_cell(char *buf, size_t size, const tks_result *r, size_t reps, int stat);
/* CSV: the counter columns of all[0..n): their header (row NULL) or row's fields. */
void tks__bench_csv_counters(FILE *f, const tks_result *all, size_t n, const tks_result *row);
/* CSV: an aggregate row's counter columns, the statistic stat over group[0..reps). */
void tks__bench_csv_counters_aggregate(FILE *f, const tks_result *all, size_t n,
                                       const tks_result *group, size_t reps, int stat);
/* Whether any result has a work counter or a counted event. */
int tks__bench_have_counters(const tks_result *r, size_t n);
/* A counter's value as Google Benchmark's console shows it: prefixed (k, M, G, ... or m, u, n),
 * "/s" after a rate ("s" after an inverted one), "12.34%" for a cv (stat TKS__AGG_CV). */
void tks__bench_counter_text(char *buf, size_t size, double value, unsigned flags, int stat);
/* The name of a rate's per-core-cycle figure: bytes_per_second's bytes_per_cycle, NAME_per_cycle. */
void tks__bench_per_cycle_name(char *buf, size_t size, const char *name);
/* r's work counters in name order; a counter's figure (stat < 0) or statistic over r[0..reps). */
size_t tks__bench_counters_sorted(const tks_result *r,
                                  const tks_work_counter *out[TKS_WORK_COUNTERS_MAX]);
double tks__bench_counter_stat(const tks_result *r, size_t reps, const tks_work_counter *c,
                               int stat);

/* ---- event counters over repetitions (bench_events.c): each counted event's per-iteration
 * count, as Google Benchmark aggregates its perf counters. */
/* How many events r counted (0 when r failed). */
size_t tks__bench_events_counted(const tks_result *r);
/* The first of r[0..reps) that counted events (it names the aggregate rows'), or NULL. */
const tks_result *tks__bench_events_namer(const tks_result *r, size_t reps);
void tks__bench_event_aggregate(const tks_result *r, size_t reps, const char *name,
                                double out[TKS__AGG_COUNT]);
/* e's per-iteration count (stat < 0) or the statistic stat of e's name over r[0..reps). */
double tks__bench_event_stat(const tks_result *r, size_t reps, const tks_event_figure *e,
                             int stat);
/* "name=value" per counted event (a space first when sep), for a run (stat < 0) or an
 * aggregate row over r[0..reps). */
void tks__bench_events_cell(char *buf, size_t size, int sep, const tks_result *r, size_t reps,
                            int stat);
/* JSON and CSV aggregate rows: each event's statistic (CSV: in its four columns). */
void tks__bench_events_json_aggregates(tks__json *j, const tks_result *r, size_t reps, int stat);
void tks__bench_events_csv_aggregate(FILE *f, const tks_result *group, size_t reps, int stat,
                                     const tks_result *r, size_t n);

/* Google Benchmark's flags as the writers see them: a time in ns in the unit asked for
 * (--benchmark_time_unit) and that unit's name; whether this report shows the rows of the runs
 * of the instance whose repetitions start at group, or only its aggregates (tks__bench_report
 * sets report_aggregates_only in the options each writer gets: the display's also from
 * --benchmark_display_aggregates_only). */
double tks__bench_time(const tks_options *o, double ns);
const char *tks__bench_time_unit(const tks_options *o);
int tks__bench_show_runs(const tks_options *o, const tks_result *group, const tks_platform *p);
/* The same when only the aggregates are asked for or not (aggregates_only) whatever o says: the
 * streamed display's (--benchmark_display_aggregates_only, which o leaves to the display). */
int tks__bench_show_runs_of(const tks_options *o, int aggregates_only, const tks_result *group,
                            const tks_platform *p);

#endif
