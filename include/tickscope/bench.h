/* SPDX-License-Identifier: MIT */
/* tickscope/bench.h: measuring the user's own code. Write a body, register it, and let tks_main
 * (or your own main) run it with the harness overhead cancelled and honest error bars.
 *
 *     #include <tickscope/bench.h>
 *
 *     static void bm_strlen(tks_state *st)
 *     {
 *         char *s = make_string((size_t)tks_state_arg(st));  // once per run, outside every window
 *         TKS_MEASURE(st, { tks_do_not_optimize(strlen(s)); });
 *         free(s);
 *     }
 *     TKS_BENCHMARK_ARGS(bm_strlen, 0, 16, 256, 4096);
 *     TKS_MAIN();
 *
 * TKS_MEASURE's block is copied inline per clock method and kernel (TKS__KERNELS), chosen at run
 * time by a switch outside the windows: nothing but the block sits between the clock readings. */
#ifndef TICKSCOPE_BENCH_H
#define TICKSCOPE_BENCH_H

#include "common.h"
#include "diag.h"
#include "method.h"
#include "platform.h"
#include "sample.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tks_state;
#include "bench_args.h"    /* arguments: TKS_RANGE, TKS_ARGS, ... (issue 26) */
#include "bench_perturb.h" /* --explain's added work (issue 31) */
#include "work_counters.h" /* bytes, items and user counters (issue 26) */

/* ---------------------------------------------------------------- keeping the compiler honest
 * tks_do_not_optimize(expr): expr is computed and its value treated as used (in a register or in
 * memory), and memory is treated as read and written, so stores before it happen and loads after
 * it are redone. It does not stop the compiler from computing expr once, outside the window,
 * when it can prove expr's inputs do not change: make such inputs opaque with tks_opaque(var),
 * which makes the compiler forget what it knew about var (as if var had been written).
 * tks_clobber_memory(): every store before it to memory the compiler cannot prove private (a
 * pointer given to tks_do_not_optimize escapes) is done, every load after it is redone. None of these emit an instruction. gcc and clang (C and C++). */
#if defined(__cplusplus)
#define TKS__TYPEOF(x) decltype(x)
#else
#define TKS__TYPEOF(x) __typeof__(x)
#endif
#define tks_do_not_optimize(expr)                                                          \
    do {                                                                                   \
        TKS__TYPEOF(expr) tks__dno = (expr);                                               \
        __asm__ __volatile__("" : : "r,m"(tks__dno) : "memory");                           \
    } while (0)
/* gcc rejects "+r,m" as an impossible constraint where clang prefers it; the order of the
 * alternatives is the only difference. */
#if defined(__clang__)
#define tks_opaque(var) __asm__ __volatile__("" : "+r,m"(var) : : "memory")
#else
#define tks_opaque(var) __asm__ __volatile__("" : "+m,r"(var) : : "memory")
#endif
#define tks_clobber_memory() __asm__ __volatile__("" : : : "memory")

/* ---------------------------------------------------------------- measuring a block in place
 * TKS_TIME(method, ticks, { block }): one reading of the block with a method named as in
 * tickscope/clock.h (lfence, rdtscp, serialize, ...; isb on arm64), the paper's "inline the
 * measured function". ticks receives end - begin, harness included (measure an empty block the
 * same way and subtract); TKS_TIME_AUX also stores the end reading's TSC_AUX (the CPU, where the
 * method's end is RDTSCP). The block must not break, continue, return or goto out of itself. Collect the readings into an array you allocated before and summarise them with
 * tks_summarize. */
#define TKS_TIME(method, ticks, ...)                                                       \
    do {                                                                                   \
        tks_u32 tks__time_aux;                                                             \
        tks_u64 tks__time_t0 = TKS_BEGIN(method);                                          \
        { __VA_ARGS__ }                                                                    \
        (ticks) = TKS_END(method, &tks__time_aux) - tks__time_t0;                          \
        (void)tks__time_aux;                                                               \
    } while (0)
#define TKS_TIME_AUX(method, ticks, aux, ...)                                              \
    do {                                                                                   \
        tks_u64 tks__time_t0 = TKS_BEGIN(method);                                          \
        { __VA_ARGS__ }                                                                    \
        (ticks) = TKS_END(method, &(aux)) - tks__time_t0;                                  \
    } while (0)

/* ---------------------------------------------------------------- benchmarks */

typedef struct tks_state tks_state;       /* one run of one benchmark: opaque */
typedef void (*tks_bench_fn)(tks_state *st);
typedef void (*tks_hook_fn)(void *ctx);

enum tks_mode {
    TKS_MODE_LATENCY,    /* one execution of the block per window (the paper's) */
    TKS_MODE_THROUGHPUT  /* the block repeated k times per window, several k; cost = the slope */
};

TKS_API long long tks_state_arg(const tks_state *st); /* this run's first argument (or 0) */
#define tks_arg tks_state_arg /* the name before 0.2 */
/* Argument i of this run (Google Benchmark's state.range(i)); 0 past the last. */
TKS_API long long tks_state_arg_at(const tks_state *st, size_t i);
/* How many arguments this run has (0 for a benchmark registered without). */
TKS_API size_t tks_state_arg_count(const tks_state *st);
TKS_API const char *tks_state_name(const tks_state *st); /* as reported: "bm_strlen/256" */
/* The mode this run measures in (a body may skip itself in a mode it makes no sense in). */
TKS_API enum tks_mode tks_state_mode(const tks_state *st);
/* Give up on this run: it is reported as failed with this reason (call it instead of measuring). */
TKS_API void tks_state_skip(tks_state *st, const char *reason);

/* Registration. The macros run tks_register from a constructor, before main; they also record
 * whether the body's file was compiled with optimisation, so the report can warn about a debug
 * build of the code being measured. Names must be unique and at most 95 characters. */
#define TKS_ARGS_MAX 64
typedef struct tks_benchmark_spec {
    const char *name;               /* shown in reports; args are appended as "/arg" */
    tks_bench_fn fn;
    const long long *args;          /* NULL: one run without an argument */
    size_t n_args;                  /* at most TKS_ARGS_MAX */
    int optimized;                  /* the body's file had __OPTIMIZE__ (-1: unknown) */
} tks_benchmark_spec;

/* Copies the spec (not the strings: they must live as long as the program, as literals do).
 * 0, TKS_EINVAL (no name or fn, name too long or a duplicate), TKS_ERANGE (too many args or
 * benchmarks), TKS_ENOMEM. A failure inside a registration macro is reported by tks_main. */
TKS_API int tks_register(const tks_benchmark_spec *spec);

#if defined(__OPTIMIZE__)
#define TKS__OPTIMIZED 1
#else
#define TKS__OPTIMIZED 0
#endif
#if defined(__cplusplus)
#define TKS__NO_ARGS nullptr /* C++ users compile with -Wzero-as-null-pointer-constant */
#else
#define TKS__NO_ARGS 0
#endif
#define TKS__CAT2(a, b) a##b
#define TKS__CAT(a, b) TKS__CAT2(a, b)

/* TKS_BENCHMARK(fn): register `void fn(tks_state *)` under the name "fn".
 * TKS_BENCHMARK(fn, step, ...): with arguments, one run per argument tuple the steps make
 * (tickscope/bench_args.h): TKS_BENCHMARK(bm_memcpy, TKS_RANGE(8, 8 << 10)) runs bm_memcpy/8,
 * bm_memcpy/64, bm_memcpy/512, bm_memcpy/4096 and bm_memcpy/8192, as Google Benchmark's
 * BENCHMARK(bm_memcpy)->Range(8, 8 << 10) does. */
#define TKS_BENCHMARK(...) TKS__BENCHMARK_STEPS(__VA_ARGS__, TKS__STEP0(TKS_STEP_END))
#define TKS__BENCHMARK_STEPS(fn, ...)                                                      \
    static void fn(tks_state *);                                                           \
    __attribute__((constructor)) static void TKS__CAT(tks__register_, fn)(void)             \
    {                                                                                      \
        static const tks_args_step tks__steps[] = {__VA_ARGS__};                           \
        tks_benchmark_spec tks__spec = {#fn, fn, TKS__NO_ARGS, 0, TKS__OPTIMIZED};         \
        tks__register_steps_or_remember(&tks__spec, tks__steps,                            \
                                        sizeof tks__steps / sizeof tks__steps[0]);         \
    }                                                                                      \
    typedef int TKS__CAT(tks__benchmark_semicolon_, fn)
/* TKS_BENCHMARK_ARGS(fn, a, b, ...): one run per argument (whole numbers), like Google
 * Benchmark's ->Arg(a)->Arg(b); the body reads it with tks_state_arg(st). */
#define TKS_BENCHMARK_ARGS(fn, ...)                                                        \
    static void fn(tks_state *);                                                           \
    __attribute__((constructor)) static void TKS__CAT(tks__register_, fn)(void)             \
    {                                                                                      \
        static const long long tks__args[] = {__VA_ARGS__};                                \
        tks_benchmark_spec tks__spec = {#fn, fn, tks__args,                                \
                                        sizeof tks__args / sizeof tks__args[0],            \
                                        TKS__OPTIMIZED};                                   \
        tks__register_or_remember(&tks__spec);                                              \
    }                                                                                      \
    typedef int TKS__CAT(tks__benchmark_semicolon_, fn)
/* Registers, and remembers a failure for tks_main to report (constructors cannot return one). */
TKS_API void tks__register_or_remember(const tks_benchmark_spec *spec);
TKS_API void tks__register_steps_or_remember(const tks_benchmark_spec *spec,
                                             const tks_args_step *steps, size_t n);
/* Register spec (without spec->args) with the runs that steps[0..n) make, in order, up to a
 * TKS_STEP_END (tickscope/bench_args.h). 0; TKS_EINVAL (as tks_register, or a step Google
 * Benchmark refuses: tks_register_why says which); TKS_ERANGE (more than TKS_RUNS_MAX runs,
 * TKS_ARITY_MAX arguments or a name over 127 characters); TKS_ENOMEM. */
TKS_API int tks_register_steps(const tks_benchmark_spec *spec, const tks_args_step *steps,
                               size_t n);
/* Why the last registration failed, in one line ("" if it did not). */
TKS_API const char *tks_register_why(void);

/* ---- the runner's options: tks_main parses them from argv; your own main can too.
 * Google Benchmark's --benchmark_time_unit: the unit of real_time and of the console's time. */
enum tks_time_unit { TKS_TIME_NS = 0, TKS_TIME_US, TKS_TIME_MS, TKS_TIME_S };

typedef struct tks_options {
    const char *filter;       /* extended regex on names (NULL: all) */
    int method;               /* enum tks_method, or -1: the best fenced method this CPU has */
    enum tks_mode mode;
    double min_time;          /* seconds of sampling per benchmark run (default 0.2) */
    unsigned repetitions;     /* runs of each benchmark (default 1); > 1 adds mean/median/stddev */
    int pin_cpu;              /* -1: not pinned */
    int fifo;                 /* SCHED_FIFO, paced clear of RT throttling */
    int isolate;              /* each benchmark run in a fresh child process */
    enum tks_format format;
    const char *out;          /* NULL or "-": stdout */
    const char *raw;          /* CSV of every sample: benchmark,repetition,k,kind,ticks */
    int histogram;            /* a terminal histogram per benchmark (console format) */
    const char *plot_dir;     /* gnuplot data and scripts (and SVG when gnuplot is installed) */
    int list;                 /* print the names and exit */
    int quiet;                /* no notes or progress on stderr */
    double tsc_hz;            /* > 0: override the TSC rate */
    int recalibrate;          /* ignore this boot's cached calibration */
    unsigned processes;       /* > 1: each benchmark this many times, each in a fresh process
                               * (repetitions then equals it); 1: once; 0: once, and a second,
                               * shorter process (bench.within_process) */
    int disasm;               /* print the instructions inside each benchmark's windows and exit */
    /* Google Benchmark's --benchmark_out and --benchmark_out_format: a second report, written
     * besides the one on stdout or --out (NULL: none), JSON unless said otherwise. */
    const char *report_file;
    enum tks_format report_file_format;
    unsigned long windows;    /* > 0: this many windows per run instead of min_time (Nx) */
    const char *compare;      /* "A,B": measure B against A in turns (tickscope/paired.h) */
    double compare_threshold; /* relative: B/A within 1 +- this is indistinguishable (0.01) */
    /* Google Benchmark 1.7's other flags (src/program/gbflags.c), new members at the end. */
    int report_aggregates_only;  /* repetitions > 1: only the aggregate rows, in every report */
    int display_aggregates_only; /* ... in the report on stdout (or --out) only */
    int random_interleaving;     /* every run of every benchmark in one random order */
    unsigned long long random_seed; /* that order's seed (0: drawn anew each run) */
    enum tks_time_unit time_unit; /* real_time's and the console's time unit (default ns) */
    int counters_tabular;        /* user counters as the console table's columns */
    const char *context;         /* "key=value,key=value": added to the JSON's context */
    double min_warmup_time;      /* seconds the body runs, its windows dropped, before measuring */
    int dry_run;                 /* each benchmark's body once (one window), no figures */
    int color;                   /* -1: auto, 0: no, 1: yes (the console has no colours) */
    int verbosity;               /* --v: >= 1, one line on stderr per run as it starts */
    const char *counters;        /* event counters to read, comma-separated (--counters,
                                  * --benchmark_perf_counters); NULL: none */
    /* --html FILE: the run as one self-contained HTML page too (NULL: none), besides the
     * report on stdout or --out (issue 27). */
    const char *html;
    int explain; /* --explain: what limits each benchmark, from perturbations (tks_main) */
    const char *record; /* --record FILE: every window and reference, for tickscope replay */
} tks_options;

TKS_API void tks_options_init(tks_options *o);
/* Parse runner options (argv[0] is the program name and is skipped). 0; 1 when --help or -h was
 * given (print tks_options_help()); 2 for a bad or unknown option, with a one-line reason in err. */
TKS_API int tks_options_parse(tks_options *o, int argc, char **argv, char *err, size_t errlen);
/* The options' help text. */
TKS_API const char *tks_options_help(void);

/* ---- event counters: one event counted around a run's batches of windows (docs/counters.md).
 * Per iteration means per execution of the block, as Google Benchmark's perf counters are: the
 * events of every batch over its executions, the harness included (an empty window and the loop
 * beside each real one); harness is what the same batches count with an empty block, so
 * per_iteration less harness is the block's own. Intervals are 95%, over the batches. */
#define TKS_EVENTS_MAX 8
typedef struct tks_event_figure {
    char name[48];            /* as asked: "instructions", "page-faults", "msr/tsc/" */
    int counted;              /* 0: refused, refusal says why */
    int refusal;              /* the diagnostic's code (enum tks_diag_code), -1 when counted */
    int rdpmc;                /* read in user space with rdpmc (else with read()) */
    tks_interval per_iteration; /* events per execution, the harness included */
    tks_interval harness;     /* of which the harness's, per execution (an empty block) */
    tks_interval block;       /* per_iteration less harness: the block's own */
    double read_cost;         /* events a pair of reads counts itself, taken out of each batch */
    double running;           /* share of the run the event was on the PMU (1: no multiplexing) */
    uint64_t batches;         /* batches counted (and as many with an empty block) */
} tks_event_figure;

/* ---- results of one run of one benchmark, per execution of the block, harness cancelled. */

typedef struct tks_result {
    char name[128];           /* "bm_strlen/256" */
    const char *family;       /* the registered name */
    long long arg;
    int has_arg;
    size_t family_index, instance_index; /* for Google Benchmark's JSON */
    unsigned repetition;      /* 0-based */
    enum tks_mode mode;
    enum tks_method method;
    int ok;                   /* 0: failed or skipped, see error */
    int skipped;              /* the body called tks_state_skip */
    char error[200];
    int signal;               /* --isolate: the signal that killed the child, 0 if none */

    uint64_t windows;         /* real windows kept (each paired with an empty one) */
    uint64_t executions;      /* executions of the block in kept windows */
    /* Estimates per execution, the empty window's figure subtracted. In throughput mode min,
     * median and mean come from the largest k; slope is the least-squares cost per execution. */
    tks_interval min, median, mean, slope;
    tks_interval estimate;    /* the headline: mean (latency) or slope (throughput) */
    tks_interval ns;          /* the headline in ns, at the platform's TSC rate (NaN: no rate) */
    double intercept;         /* throughput: the fit at k = 0, ticks (the harness) */
    double slope_r2;
    uint32_t ks[16];          /* throughput: the repetition counts used */
    size_t n_ks;
    /* The empty window, measured interleaved with the real one. */
    tks_interval overhead;    /* its phase-averaged mean */
    double overhead_median, overhead_mad;
    uint64_t overhead_min;
    uint64_t quantum;         /* the timer's step, ticks */
    uint64_t outliers_low, outliers_high; /* Tukey fences, real windows (never dropped) */
    uint64_t discarded_migrated, discarded_negative;
    uint64_t warmup;          /* windows taken and dropped to warm up */
    int optimized;            /* the body's file was optimised (-1 unknown) */
    double seconds;           /* wall time of the run */
    /* ---- issue 26: every argument of the run (name shows them with their names), and the
     * work counters the body set, with their figures (src/runner/work_counters.c). */
    long long args[TKS_ARITY_MAX];
    size_t n_args;
    tks_work_counter work_counters[TKS_WORK_COUNTERS_MAX];
    size_t n_work_counters;
    /* ---- end of issue 26's block */
    tks_diags diags;          /* warnings and notes, coded (tickscope/diag.h); owned */

    /* Every kept window (owned; freed by tks_result_free): real[i] ticks with k[i] executions,
     * empty[i] the empty window taken just before it. */
    uint64_t *real, *empty;
    uint32_t *k;
    size_t n_samples;

    /* Core cycles: the headline converted at the core clock that held while the windows were
     * taken, from a reference chain of dependent adds (one core cycle each) measured after
     * every batch of windows; where that was not possible, at the platform's per-boot figure.
     * A guest's core clock drifts against the TSC, so this is the figure that holds from one
     * run to the next; ticks and ns are what the TSC saw. */
    enum tks_core_source {
        TKS_CORE_NONE = 0,        /* no core-clock figure: core_cycles is NaN */
        TKS_CORE_INTERLEAVED,     /* the reference chain, measured with the windows */
        TKS_CORE_CALIBRATED       /* the platform's per-boot figure (tks_core_cycles_per_tick) */
    } core_source;
    tks_interval core_cycles;     /* per execution; [lo, hi] includes the reference's error */
    double cycles_per_tick;       /* the run's core cycles per TSC tick */
    double cycles_per_tick_start; /* over the first quarter of the run, and the last */
    double cycles_per_tick_end;
    double cycles_per_tick_range; /* (largest - smallest) / median of the run's four quarters */
    uint64_t reference_windows;   /* windows the reference took (what it cost) */
    /* Latency mode: what the fences cost around a non-empty window less what they cost around
     * an empty one, ticks, measured with the reference chains (NaN when not measured). The
     * headline is the mean of real less empty windows less this gap, which on some CPUs is
     * over ten core cycles either way; mean above is before it is taken out. */
    tks_interval harness_gap;
    /* Throughput mode: what the repetition loop costs a repetition with nothing in it, ticks,
     * measured with the run (NaN when not measured). A block that reads at this cost costs at
     * most this in a loop: the loop's counter and the block overlap. */
    tks_interval loop_floor;
    /* Latency mode, a block under about 100 ticks: its throughput-mode cost (ticks a
     * repetition), measured alongside in every fourth batch (NaN otherwise). A dependent chain
     * reads the same in both; independent work does not, and a warning says so. */
    tks_interval throughput_alongside;
    /* Latency mode: the fenced windows' own figure (the mean less the empty window and the
     * harness gap), in ticks and in core cycles (NaN without a core clock); its core-cycle
     * interval also holds the spread between stretches of the run. When throughput_alongside
     * agrees with it within their uncertainties (and 3%), in core cycles where there are any,
     * the block costs the same alone and in a stream, and the headline (estimate, core_cycles)
     * is the two figures' inverse-variance combination, modes_combined 1: far narrower for a
     * block under a timer step, whose window figure carries the harness gap's error. Otherwise
     * the headline is this figure, modes_combined 0 (and a warning when the two disagree). */
    tks_interval latency_window;
    tks_interval latency_window_cycles;
    int modes_combined;
    /* Event counters (--counters): one figure per event asked for, counted or refused, in the
     * order asked (the refusals are diagnostics too). */
    tks_event_figure events[TKS_EVENTS_MAX];
    size_t n_events;
    /* Latency mode's correction. A run without hooks also times the block once and twice back
     * to back: twice less once (latency_twice, ticks, from twice_windows pairs) is the block's
     * cost with the fences' overlap of its own first and last instructions cancelled; the
     * headline took it (gap_source TKS_GAP_BLOCK, harness_gap the block's own) or the add
     * chain's gap (TKS_GAP_ADDS: a block with hooks, or whose two copies overlap), its interval
     * widened by how far other instructions' overlap can differ from the adds' (a few core
     * cycles). latency_adds_cycles: the add chain's gap as before 0.x, core cycles. */
    enum tks_gap_source { TKS_GAP_NONE = 0, TKS_GAP_ADDS, TKS_GAP_BLOCK } gap_source;
    tks_interval latency_twice;
    uint64_t twice_windows;
    tks_interval latency_adds_cycles;
    tks_add_check add_check; /* behind core_cycles (tickscope/stats.h); NONE when not taken */
} tks_result;

TKS_API void tks_result_free(tks_result *r); /* empties r in place; r stays the caller's */
/* tks_result grows at its end when a release adds members, and TKS_RESULT_LAYOUT with it. A
 * result from tks_result_new (freed by tks_result_delete) has the running library's layout, so a
 * program that takes its results there keeps working with a later library; one that declares a
 * tks_result itself must be rebuilt when the layout changes (tks_result_layout() says which). */
#define TKS_RESULT_LAYOUT 2
TKS_API tks_result *tks_result_new(void);
TKS_API void tks_result_delete(tks_result *r);
TKS_API int tks_result_layout(void);

/* Run every registered benchmark that o selects, report as o says, return an exit status:
 * 0 all ran, 1 one failed (the others still ran), 2 bad options. Prints (it is a program's main). */
TKS_API int tks_main(int argc, char **argv);
#define TKS_MAIN()                                                                         \
    int main(int argc, char **argv) { return tks_main(argc, argv); }                       \
    typedef int tks__main_semicolon

/* The plain API, for a main of your own: measure one benchmark with one argument (ignored when
 * spec->args is NULL). p is the machine (tks_platform_probe). Fills r, which must be released
 * with tks_result_free whatever the outcome. 0 when measured; a TKS_E* code with r->error saying
 * why otherwise. Prints nothing. Fill the spec yourself or with TKS_SPEC(fn), which records
 * whether your file was optimised. */
TKS_API int tks_run_benchmark(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *spec,
                      long long arg, tks_result *r);
/* The same with every argument of the run (a benchmark registered with several): args->n of
 * them, named as the run is ("bm_x/size:64/stride:8"); NULL or n = 0: none. */
TKS_API int tks_run_benchmark_args(const tks_options *o, const tks_platform *p,
                                   const tks_benchmark_spec *spec, const tks_args *args,
                                   tks_result *r);
#define TKS_SPEC(fn) {#fn, fn, TKS__NO_ARGS, 0, TKS__OPTIMIZED}

/* ---------------------------------------------------------------- inside the runner
 * What TKS_MEASURE uses; not for direct use. One batch is n pairs of windows: an empty one, then
 * (after the setup hook) the real one with the block once (latency) or k times (throughput). A
 * latency-mode run without hooks also takes batches of the block once and then twice back to back
 * (TKS__TWICE): the difference is the block's cost with the fences' overlap of its first and last
 * instructions cancelled, whatever those instructions are. */
#define TKS__SAMPLE_MIGRATED (~(tks_u64)0)
#define TKS__KERNELS 4 /* per method: latency, throughput, once and twice, perturbed */
#define TKS__TWICE 2
#define TKS__PERTURBED 3 /* throughput, each repetition followed by work (bench_perturb.h) */
typedef struct tks__batch {
    int kernel;               /* method * TKS__KERNELS + variant, or -1 when done */
    tks_u32 n;
    tks_u32 k;
    int check_aux;            /* compare TSC_AUX before and after: discard migrations */
    tks_u64 *empty, *real;    /* n each (TKS__TWICE: the block once, and twice) */
    int hooks;                /* set by TKS_MEASURE_EACH: a setup or teardown hook was given */
    int perturb;              /* TKS__PERTURBED: the kind of work added, and its units */
    tks_u32 perturb_n;
} tks__batch;
TKS_API int tks__state_next(tks_state *st, tks__batch *b);

#include "bench_window.h" /* TKS__WINDOW, TKS__PAIRS, TKS__ONCE_TWICE (issue 41) */

/* One set of cases per method this build has (the kernels above), from the method list. */
#define TKS__CASE(m, M, flags, ...)                                                        \
    case TKS_METHOD_##M * TKS__KERNELS:                                                    \
        TKS__PAIRS(m, TKS_MF_END_AUX(flags), 0, __VA_ARGS__) break;                        \
    case TKS_METHOD_##M * TKS__KERNELS + 1:                                                \
        TKS__PAIRS(m, TKS_MF_END_AUX(flags), 1, __VA_ARGS__) break;                        \
    case TKS_METHOD_##M * TKS__KERNELS + TKS__TWICE:                                       \
        TKS__ONCE_TWICE(m, TKS_MF_END_AUX(flags), __VA_ARGS__) break;                      \
        TKS__PERTURB_CASE(m, M, flags, __VA_ARGS__)
#define TKS__CASES(...) TKS_METHOD_EACH_HERE_WITH(TKS__CASE, __VA_ARGS__)

/* TKS_MEASURE_EACH(st, setup, teardown, ctx, { block }): as TKS_MEASURE, with setup(ctx) called
 * before each real window and teardown(ctx) after it, both outside the windows (either may be
 * NULL). Use them to restore what the block consumes: refill a buffer, flush a cache line. */
#define TKS_MEASURE_EACH(st, setup, teardown, ctx, ...)                                    \
    do {                                                                                   \
        tks_state *tks__st = (st);                                                         \
        tks_hook_fn tks__setup = (setup), tks__teardown = (teardown);                      \
        void *tks__ctx = (ctx);                                                            \
        tks__batch tks__b;                                                                  \
        tks_u32 tks__i;                                                                    \
        tks__b.hooks = tks__setup || tks__teardown;                                        \
        while (tks__state_next(tks__st, &tks__b)) {                                         \
            switch (tks__b.kernel) {                                                       \
                TKS__CASES(__VA_ARGS__)                                                    \
            default:                                                                       \
                break;                                                                     \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* TKS_MEASURE(st, { block }): measure the block. Everything before it in the body runs once per
 * run (setup), everything after it once (teardown). Call it once per body. The block must not
 * break, continue, return or goto out of itself; its variables live outside it. */
#define TKS_MEASURE(st, ...) TKS_MEASURE_EACH(st, 0, 0, 0, __VA_ARGS__)

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_BENCH_H */
