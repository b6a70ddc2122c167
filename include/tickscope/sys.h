/* SPDX-License-Identifier: MIT */
/* tickscope/sys.h: what the machine's operations cost, suite by suite (the course notes' project:
 * the CPU, the operating system, the memory hierarchy), each operation measured by the benchmark
 * runner (tickscope/bench.h) with its interval and its core cycles from the interleaved reference.
 *
 *     tks_sys_options o;
 *     tks_sys_result *r;
 *     tks_sys_options_init(&o);
 *     if (tks_sys_run(TKS_SYS_OS, &o, &platform, &r) == 0) { ... r->ops[i] ...; tks_sys_result_free(r); }
 *
 * The suites start processes and threads, pin them, map memory and fault it in; they print
 * nothing. One tks_sys_run at a time per process: the bodies share file-scope state. */
#ifndef TICKSCOPE_SYS_H
#define TICKSCOPE_SYS_H

#include "analysis.h"
#include "bench.h"
#include "common.h"
#include "diag.h"
#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

enum tks_sys_suite {
    TKS_SYS_CPU = 0,  /* measurement and loop overhead, calls with 0-7 arguments, indirect call, branches */
    TKS_SYS_OS,       /* system calls, page faults, process and thread creation, context switches */
    TKS_SYS_MEM,      /* load-to-use latency by working set, the cache levels, bandwidth, a TLB miss */
    TKS_SYS_SUITE_COUNT
};
/* "cpu", "os", "mem"; and back (-1 for an unknown name). */
TKS_API const char *tks_sys_suite_name(enum tks_sys_suite s);
TKS_API int tks_sys_suite_from_name(const char *name);
/* The operations a suite measures, in order: their ids ("call_3", "getpid") for filters and
 * JSON. Returns how many; *ids points at a static array. */
TKS_API size_t tks_sys_operations(enum tks_sys_suite s, const char *const **ids);

struct tks_sys_op; /* a row, below */
typedef struct tks_sys_options {
    int quick;                /* about a sixth of the default time per operation */
    double min_time;          /* > 0: seconds of sampling per operation (overrides quick) */
    int method;               /* enum tks_method, or -1: the best fenced method this CPU has */
    const char *const *only;  /* NULL, or ids (NULL-terminated) to measure; the rest are skipped */
    const char *root;         /* where /sys and /proc are read (NULL: "/") */
    size_t mem_max_bytes;     /* mem: the largest working set (0: 4x the last-level cache) */
    int huge_pages;           /* mem: 1 (default) also chase over transparent huge pages */
    tks_stage_fn stage;       /* a suite's label when it starts, NULL when it ends */
    tks_progress_fn progress; /* operations done of the suite's total, between operations */
    void *progress_ctx;
    /* Each row once it is final (when the next one starts, or the suite ends), for output that
     * arrives as it is made; NULL: none. The row belongs to the result being built. */
    void (*row)(void *ctx, const struct tks_sys_op *op);
    void *row_ctx;
    /* > 0: seconds this suite may take. Each row gets its share of the time left: a row whose
     * share is below its sampling time is cut short (its diagnostic sys.time_cut), and the rows
     * still to come when it is spent are left out (the suite's sys.time_left_out lists them; a
     * cut curve: sys.curve_cut). 0 (default): no budget. `tickscope sys --quick` sets it. */
    double budget;
} tks_sys_options;

TKS_API void tks_sys_options_init(tks_sys_options *o);

#define TKS_SYS_ERROR_LEN 320
typedef struct tks_sys_op {
    char id[32];              /* "call_3", "ctx_pipe_proc_1cpu", "chase_65536" */
    char what[96];            /* "call with 3 integer arguments" */
    int ok;                   /* 0: not measured, see error */
    int unavailable;          /* not measured because this machine cannot (one CPU, no file) */
    char error[TKS_SYS_ERROR_LEN];
    int derived;              /* computed from other operations (its sys.row.* diagnostic says
                                 how), not measured alone */
    tks_interval ticks;       /* per operation, the empty window subtracted; ~95% interval */
    tks_interval cycles;      /* core cycles (NaN when unknown) */
    int core_source;          /* an enum tks_core_source (tickscope/bench.h) value */
    tks_interval ns;          /* through the platform's TSC rate */
    double all_windows_ns;    /* the plain mean of every kept window, interrupts and stolen time
                                 included, as a loop timed by the wall clock sees it (NaN in
                                 throughput mode and for derived rows) */
    double same_cpu_share;    /* pipe_rt_proc (unpinned): the share of its windows that ended
                                 with both processes on one CPU (NaN for every other row) */
    double per_op_divisor;    /* windows held this many operations (1 unless its note says) */
    uint64_t windows;
    double bytes;             /* bandwidth rows: bytes one operation moves (0 otherwise) */
    double gb_per_s;          /* bytes / ns (0 when not a bandwidth row) */
    tks_diags diags;          /* coded (tickscope/diag.h), owned by the result: first the row's
                                 note (a sys.row.* code: what the figure includes or had
                                 subtracted), then its warnings */
} tks_sys_op;

/* The memory hierarchy: a cache level as /sys (or CPUID) describes it, and as the latency curve
 * shows it. */
#define TKS_SYS_LEVEL_MAX 6
typedef struct tks_sys_cache_level {
    int level;                /* 1, 2, 3 */
    char type[16];            /* "Data", "Unified" */
    size_t bytes;
} tks_sys_cache_level;

#define TKS_SYS_CURVE_MAX 48
typedef struct tks_sys_curve_point {
    size_t bytes;             /* working set */
    double cycles;            /* per load, core cycles (ticks x cycles per tick) */
    double ticks, lo, hi;     /* per load, ticks, with the interval */
    double cycles_huge;       /* the same over transparent huge pages (NaN when not measured) */
} tks_sys_curve_point;

typedef struct tks_sys_result {
    enum tks_sys_suite suite;
    tks_sys_op *ops;
    size_t n_ops;
    tks_diags diags;          /* the suite's notes, coded: pinning refused, huge pages absent */
    double seconds;
    /* mem only */
    tks_sys_cache_level caches[TKS_SYS_LEVEL_MAX];        /* from /sys, data and unified */
    size_t n_caches;
    tks_sys_curve_point curve[TKS_SYS_CURVE_MAX];
    size_t n_curve;
    size_t knees[TKS_SYS_LEVEL_MAX];  /* working sets where the curve steps up (the last size before it) */
    size_t n_knees;
} tks_sys_result;

/* Measure one suite. p is the machine (tks_platform_probe; required). 0 with *out filled (operations that
 * failed are in it with ok == 0 and their reason); TKS_EINVAL for an unknown suite or an id in
 * o->only that no suite has; TKS_ERANGE when the mem suite's working set would not fit in free
 * memory (*out is still filled, with TKS_DIAG_SYS_MEMORY_SHORT in its diagnostics); TKS_ENOMEM. */
TKS_API int tks_sys_run(enum tks_sys_suite s, const tks_sys_options *o, const tks_platform *p,
                        tks_sys_result **out);
TKS_API void tks_sys_result_free(tks_sys_result *r);

/* The cache sizes under root/sys/devices/system/cpu/cpu0/cache (data and unified caches, by
 * level). Returns how many were found (0 when none). */
TKS_API size_t tks_sys_cache_levels(const char *root, tks_sys_cache_level *out, size_t max);

/* The size of each cache level under root, L1 first: one size a level (a level's data and
 * unified caches are one size), the sizes tks_explain_run and a benchmark's --explain take.
 * Returns how many (0: /sys declares none, as in some virtual machines). */
TKS_API size_t tks_sys_level_bytes(const char *root, uint64_t *out, size_t max);

/* Knees of a latency curve: bytes[i] ascending, cost[i] per load. A knee is the last working
 * set before the cost rises by at least `rise` (a ratio) over the plateau before it, and the next
 * point stays up too; the next plateau starts where the climb flattens (a step of less than 20%).
 * The mem suite uses rise 2: each cache level at least doubles the load-to-use latency of the one
 * before, where running out of a TLB's reach adds less. Writes the knees' working sets into out
 * (at most max), returns how many. Pure. */
TKS_API size_t tks_sys_knees(const size_t *bytes, const double *cost, size_t n, double rise,
                             size_t *out, size_t max);

/* ---- perf bench beside our figures (--versus-perf) */
typedef struct tks_sys_perf_row {
    char what[64];            /* "syscall basic (getppid)", "sched pipe, pinned to CPU 0" */
    char ours_id[32];         /* the operation it is put beside */
    int like_for_like;        /* 1: ours times what perf times, the same way and placed the same
                                 (the figures the 10% target is about); 0: placement differs */
    int pinned_cpu;           /* perf ran pinned to this CPU, as taskset -c would (-1: unpinned) */
    double perf_value;        /* in perf's unit: the median of perf_runs runs */
    double perf_lo, perf_hi;  /* the smallest and largest of those runs */
    int perf_runs;
    double perf_on_cpu;       /* the share of perf's wall time it spent on a CPU (the median of
                                 its runs' user + system time over wall time, from rusage) */
    char unit[16];            /* "us/op", "GB/s" */
    double ours_value;        /* ours in the same unit (NaN: ours not measured) */
    int ours_runs;            /* ours was measured again right before each of perf's runs, so
                                 both saw the same load: ours_value (and ours_all_value) is the
                                 median of these; 0: the figure from the suite's run */
    double gap;               /* ours / perf - 1 */
    double ours_all_value;    /* ours with every window counted (all_windows_ns), the figure
                                 that, like perf's wall clock, includes interrupts (NaN: none) */
    double gap_all;           /* ours_all_value / perf - 1 */
    char alt_id[32];          /* ours measured the other way ("getppid": one call per fenced
                                 window beside the stream; "" when none) */
    double alt_value;         /* its figure in perf's unit (NaN: none) */
    tks_diags diags;          /* for a gap over 10%: why, from what this run measured (sys.perf.*
                                 codes); owned: tks_sys_perf_rows_free */
    int ok;
    char error[TKS_SYS_ERROR_LEN];
} tks_sys_perf_row;

/* Run perf bench syscall basic (beside getppid_stream: perf's loop of back-to-back getppid
 * calls), sched pipe pinned to the CPU our one-CPU rows use (beside pipe_rt_proc_1cpu), sched
 * pipe unpinned (beside pipe_rt_proc: both placed by the scheduler) and mem memcpy (at the size
 * of our copy_ram row when there is one), each but the last five times, our row measured again
 * right before each run (o and p as for tks_sys_run; the figure from res when that fails), and
 * put each beside ours (res: the suites already run; a missing row of ours is NaN). Fills up to max
 * rows, returns how many; a row that could not run (no perf, perf failed) has ok == 0 and the
 * reason. Runs processes. */
#define TKS_SYS_PERF_MAX 4
TKS_API size_t tks_sys_versus_perf(tks_sys_result *const *res, size_t n, const tks_sys_options *o,
                                   const tks_platform *p, tks_sys_perf_row *rows, size_t max);
/* Release what tks_sys_versus_perf put in n rows (their diagnostics). */
TKS_API void tks_sys_perf_rows_free(tks_sys_perf_row *rows, size_t n);

/* Parse the standard output of `perf bench syscall basic`, `perf bench sched pipe` (usecs/op)
 * or `perf bench mem memcpy` (GB/sec of the first function, in GB/s). 0 with *value, or
 * TKS_EINVAL when the text has no figure. Pure. */
TKS_API int tks_sys_perf_parse(const char *text, double *value);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_SYS_H */
