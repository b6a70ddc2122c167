/* SPDX-License-Identifier: MIT */
/* compare.h: `tickscope compare`'s findings as library functions: result files (ours and Google
 * Benchmark's JSON) read into figures per benchmark, then each benchmark of the new file judged
 * against the old one with the test its figures allow. Private to the library; nothing prints. */
#ifndef TKS_ANALYSIS_COMPARE_H
#define TKS_ANALYSIS_COMPARE_H

#include <stddef.h>

#include "base/json_read.h"
#include "tickscope/diag.h"

enum tks__unit { TKS__UNIT_CORE, TKS__UNIT_TICKS, TKS__UNIT_NS, TKS__UNITS };

/* ---- issue 26: a work counter of one benchmark of one file (compare_counters.c). */
#define TKS__CMP_COUNTERS_MAX 16
#define TKS__CMP_COUNTER_NAME 48
typedef struct tks__cmp_counter {
    char name[TKS__CMP_COUNTER_NAME];
    double *v;                    /* its value in each iteration row */
    size_t n;
    int refused;                  /* an event counter the file lists as refused */
} tks__cmp_counter;
typedef struct tks__cmp_counter_row {
    char name[TKS__CMP_COUNTER_NAME];
    double old_value, new_value;  /* the means over each file's rows */
    double change;                /* new / old - 1 (NaN when old is 0) */
} tks__cmp_counter_row;

/* One benchmark of one file, in each unit the file has for it. A figure is one repetition's or
 * one process's result; se is the standard error its interval implies (0: no interval). */
typedef struct tks__cmp_bench {
    char name[128];
    int has[TKS__UNITS];          /* every figure has this unit */
    double *fig[TKS__UNITS], *se[TKS__UNITS];
    size_t n;                     /* figures */
    size_t runs;                  /* runs behind them (an aggregate stands for its repetitions) */
    int se_between;               /* each figure's own interval is a between-run one (Google
                                     Benchmark's aggregates: the stddev of the repetitions) */
    int from_processes;           /* the figures came from a row's process_figures */
    int one_process;              /* ours: the figures are repetitions of one process (the
                                     row's between_run.processes is not above 1) */
    tks__cmp_counter *counters;   /* issue 26: its work counters (owned) */
    size_t n_counters;
} tks__cmp_bench;

typedef struct tks__cmp_file {
    int ours;                     /* written by tickscope (context.tickscope_version) */
    char tool[48];                /* "tickscope 0.1.0" or "Google Benchmark" */
    char host[128], cpu[200], version[32], method[32], mode[16], build[16];
    double tsc_hz;                /* 0: not given */
    tks__cmp_bench *b;
    size_t n;
} tks__cmp_file;

/* Read a result file held in buf[0, len). Every figure is checked before any statistic sees it.
 * 0, or TKS_EINVAL with a one-line reason in err (not JSON, another tool's JSON, no benchmarks; a
 * figure missing, not a number, not finite, a Google Benchmark time of zero or below, an unknown
 * time_unit: naming the benchmark and its repetition), TKS_ENOMEM. Free with tks__cmp_file_free. */
int tks__cmp_file_read(const char *buf, size_t len, tks__cmp_file *f, char *err, size_t errlen);
void tks__cmp_file_free(tks__cmp_file *f);

enum tks__cmp_test { TKS__TEST_NONE, TKS__TEST_UTEST, TKS__TEST_BOOTSTRAP };
enum tks__verdict { TKS__SAME, TKS__SLOWER, TKS__FASTER, TKS__INCONCLUSIVE };

typedef struct tks__cmp_row {
    char name[128];
    enum tks__unit unit;
    size_t n_old, n_new;
    double old_value, new_value;  /* medians (U test) or means (bootstrap) of the figures */
    double change, lo, hi;        /* new / old - 1 and its ~95% interval */
    double p;                     /* the test's two-sided p value (NaN: no test) */
    double min_p;                 /* the smallest p a rank test over these runs could give */
    int too_few;                  /* no test: too few runs for one to reach p < 0.05 */
    enum tks__cmp_test test;
    enum tks__verdict verdict;
    int regression;               /* slower by more than the gate's threshold, with confidence
                                     (too_few: with the spread assumed between processes) */
    /* issue 46: a row with too few runs under a gate (compare_gate.c). assumed_lo, assumed_hi:
     * the change's ~95% interval from the runs' own intervals and spread plus the spread assumed
     * between processes (NaN: not made); not_tested: it does not lie above the gate, so the gate
     * cannot decide; runs_old, runs_new: each side's runs as a test counts them; need_old,
     * need_new: the runs a side needs for a test (0: it has enough). */
    double assumed_lo, assumed_hi;
    int not_tested;
    size_t runs_old, runs_new, need_old, need_new;
    /* issue 26: the work counters both files have for it, shown, not judged */
    tks__cmp_counter_row counters[TKS__CMP_COUNTERS_MAX];
    size_t n_counters;
} tks__cmp_row;

typedef struct tks__cmp_result {
    tks__cmp_row *rows;
    size_t n;
    size_t only_old, only_new;    /* benchmarks in one file only */
    char only_old_names[200], only_new_names[200]; /* the first few, comma-separated */
    tks_diags diags;              /* what makes the figures hard to compare (codes: diag.h) */
    double threshold;             /* relative: changes inside +-threshold are "same" */
    double gate;                  /* relative; < 0: no gate */
    size_t regressions;
    size_t not_tested;            /* issue 46: rows the gate could not decide */
    int old_ours, new_ours;       /* which files tickscope wrote (for what a side needs) */
} tks__cmp_result;

/* Judge every benchmark the two files share. threshold (e.g. 0.01) makes an interval within
 * +-threshold "same"; gate >= 0 marks rows whose interval lies above +gate as regressions, and
 * rows with too few runs for a test as regressions when their interval with the assumed spread
 * lies above it, else as not tested (issue 46). 0; TKS_EINVAL with the reason in err when the
 * files share no benchmark; TKS_ENOMEM. */
int tks__cmp_files(const tks__cmp_file *old, const tks__cmp_file *new_, double threshold,
                   double gate, tks__cmp_result *r, char *err, size_t errlen);
void tks__cmp_result_free(tks__cmp_result *r);

/* The verdict for a relative change and its interval [lo, hi] (shared with the paired
 * comparison): slower (faster) when the interval lies above (below) zero and the change is at
 * least half the threshold, nearer a change of the threshold's size than no change; same when
 * the interval lies within +-threshold; inconclusive otherwise. */
enum tks__verdict tks__verdict_of(double change, double lo, double hi, double threshold);
/* The same, downgraded to inconclusive when the test's p is not below 0.05 (or NaN: no test). */
enum tks__verdict tks__verdict_tested(double change, double lo, double hi, double p,
                                      double threshold);
const char *tks__verdict_name(enum tks__verdict v);
/* A row's verdict as printed: "slower", or "inconclusive: too few runs (the smallest p this test
 * can give is 0.333)"; without the REGRESSION or NOT TESTED the tables add. */
void tks__cmp_verdict_text(const tks__cmp_row *row, char *buf, size_t size);

/* ---- issue 46 (compare_gate.c): the gate on a row with too few runs for a test. */
/* The spread between processes assumed of a figure where the files cannot show it: its
 * coefficient of variation, a process (docs/compare.md says where it comes from). */
#define TKS__CMP_ASSUMED_CV 0.0266
/* The runs a test needs a side: with 4 and 4 the U test can reach p < 0.05. */
#define TKS__CMP_RUNS_FOR_TEST 4
/* For a row with too few runs: sets its runs and needs, and under a gate (gate >= 0) its
 * interval with the assumed spread (assumed_lo, assumed_hi), regression or not_tested. Nothing
 * for a tested row. */
void tks__cmp_gate_untested(const tks__cmp_bench *a, const tks__cmp_bench *b, double threshold,
                            double gate, tks__cmp_row *row);
/* What each side of a row needs for a test: "old has 1 run, needs 4 (--processes 4); new has 1
 * run, needs 4 (--benchmark_repetitions=4)", by the tool that wrote each file. */
void tks__cmp_needs_text(const tks__cmp_result *r, const tks__cmp_row *row, char *buf,
                         size_t size);
const char *tks__unit_name(enum tks__unit u);

/* compare_counters.c: the counters of one iteration row of a file (ours: the names under
 * "work_counters"; Google Benchmark's: every other top-level number) into b; their memory; the
 * counters two benchmarks share into a row. */
int tks__cmp_counters_read(const tks__jr_doc *d, size_t row, int ours, tks__cmp_bench *b);
void tks__cmp_counters_free(tks__cmp_bench *b);
/* A counter one file has and the other refused or lacks: a diagnostic in diags. */
void tks__cmp_counters_pair(const tks__cmp_bench *a, const tks__cmp_bench *b, tks__cmp_row *row,
                            tks_diags *diags);

#endif
