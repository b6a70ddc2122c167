/* SPDX-License-Identifier: MIT */
/* sys_internal.h: what the suites of `tickscope sys` share: running one operation through the
 * benchmark runner and turning its result into a row, derived rows, notes. */
#ifndef TKS_SYS_INTERNAL_H
#define TKS_SYS_INTERNAL_H

#include <stddef.h>

#include "base/diag.h"
#include "tickscope/bench.h"
#include "tickscope/sys.h"

/* One suite's run in progress: the options, the machine, the rows so far. */
struct tks__sys_run {
    const tks_sys_options *o;
    const tks_platform *p;
    tks_sys_result *r;
    size_t cap;
    size_t done, total;       /* for progress */
    size_t emitted;           /* rows handed to o->row so far */
    double time_factor;       /* > 0: the next operations sample this many times longer */
    /* the time budget (budget.c; all 0 without one) */
    double deadline;          /* tks__now_s() by which the suite ends (0: no budget) */
    double asked, spent;      /* sampling time asked of the rows measured so far, their wall */
    char *left_out;           /* ids left out for time, ", " between them */
    size_t n_left_out;
};

/* The runner's options for one operation of this suite. */
void tks__sys_bench_options(const struct tks__sys_run *run, enum tks_mode mode, tks_options *bo);
/* 1 when o->only lets id through. */
int tks__sys_wanted(const struct tks__sys_run *run, const char *id);
/* A new row (zeroed, id and what set, NaN figures); NULL when out of memory. */
tks_sys_op *tks__sys_row(struct tks__sys_run *run, const char *id, const char *what);
/* Measure fn in mode into a new row; divisor: operations per execution of the block (a round
 * trip is 2 switches...). Returns the row (NULL: out of memory) whether or not it measured. */
tks_sys_op *tks__sys_measure(struct tks__sys_run *run, const char *id, const char *what,
                             tks_bench_fn fn, enum tks_mode mode, double divisor);
/* As tks__sys_measure; overhead: the row is the empty window itself (what every other row has
 * had subtracted), not the block. */
tks_sys_op *tks__sys_measure_figure(struct tks__sys_run *run, const char *id, const char *what,
                                    tks_bench_fn fn, enum tks_mode mode, double divisor,
                                    int overhead);
/* The row with this id, or NULL. */
tks_sys_op *tks__sys_find(const struct tks__sys_run *run, const char *id);
/* A derived row: (a - bk * b) * k (b may be NULL: a * k), its interval the widest the two
 * allow, note the sys.row.* code that says so. NULL when either is missing or failed (no row is
 * added). */
tks_sys_op *tks__sys_derive(struct tks__sys_run *run, const char *id, const char *what,
                            const char *a, const char *b, double bk, double k,
                            enum tks_diag_code note);
/* The row's note (a sys.row.* code and its values), put before the runner's warnings. */
void tks__sys_note_add(tks_sys_op *op, enum tks_diag_code code, const tks_diag_value *v, size_t n);
#define tks__sys_note(op, code, ...)                                                               \
    tks__sys_note_add((op), (code), TKS__DIAG_ARGS(__VA_ARGS__),                                   \
                      sizeof TKS__DIAG_ARGS(__VA_ARGS__) / sizeof(tks_diag_value))
#define tks__sys_note0(op, code) tks__sys_note_add((op), (code), NULL, 0)
/* Fill a row's ns and cycles from its ticks (used by derived rows). */
void tks__sys_units(const struct tks__sys_run *run, tks_sys_op *op, double cycles_per_tick);
/* Mark a measured row failed (after the runner said it was fine: a partner died). */
void tks__sys_fail(tks_sys_op *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tks__sys_progress(struct tks__sys_run *run);

/* What a perf row's reason draws on beyond the row itself (NaN: not measured). */
struct tks__sys_perf_facts {
    double perf_one_cpu;      /* perf's sched pipe pinned to one CPU, us */
    double ours_share;        /* pipe_rt_proc's windows with both on one CPU, 0..1 */
    double ours_one_cpu;      /* pipe_rt_proc_1cpu, us */
    double ours_two_cpus;     /* pipe_rt_proc_2cpu, us */
};
/* Set x->gap and, when it is over 10%, the reason in x->diags from what was measured. Pure
 * but for the diagnostics' memory. */
void tks__sys_perf_reason(tks_sys_perf_row *x, const struct tks__sys_perf_facts *f);

/* A knee of r's curve within one point of the first working set at or past bytes. Pure. */
int tks__sys_knee_near(const tks_sys_result *r, size_t bytes);
/* Where r's curve ends /sys's level r->caches[c] when no knee is near its size: the largest knee
 * below that size and past the level before it (0: none, or a knee is near). Pure. */
size_t tks__sys_shown_level(const tks_sys_result *r, size_t c);

/* The time budget (budget.c). The sampling time of the next row: want, or its share of the time
 * left when that is less (a row is cut short), 0 when no time is left (left out): left seconds
 * shared by rows_left rows, each taking ratio seconds of wall time per second of sampling
 * (ratio <= 1: 1). Pure. */
double tks__sys_time_share(double left, size_t rows_left, double ratio, double want);
/* Start the suite's clock (o->budget; none when 0). */
void tks__sys_budget_start(struct tks__sys_run *run);
/* tks__sys_time_share for the next row of this run (want when there is no budget). */
double tks__sys_budget_time(struct tks__sys_run *run, double want);
/* A row measured: asked seconds of sampling took wall seconds. */
void tks__sys_budget_spent(struct tks__sys_run *run, double asked, double wall);
/* 1 when the budget is spent. */
int tks__sys_out_of_time(const struct tks__sys_run *run);
/* Record id as left out for time; 1 when id was. */
void tks__sys_left_out(struct tks__sys_run *run, const char *id);
int tks__sys_was_left_out(const struct tks__sys_run *run, const char *id);
/* The suite's sys.time_left_out, when rows were; frees the list. */
void tks__sys_budget_end(struct tks__sys_run *run);

/* The suites. */
int tks__sys_cpu(struct tks__sys_run *run);
int tks__sys_os(struct tks__sys_run *run);
int tks__sys_ctxsw(struct tks__sys_run *run);
int tks__sys_mem(struct tks__sys_run *run);

/* The suites' operation lists (ids), NULL-terminated. */
extern const char *const tks__sys_cpu_ids[];
extern const char *const tks__sys_os_ids[];
extern const char *const tks__sys_mem_ids[];

/* Pin the calling thread to cpu: 0 or an errno. */
int tks__sys_pin(int cpu);
/* The CPUs this process may run on: up to max of them into out, returns how many. */
int tks__sys_cpus(int *out, int max);

#endif
