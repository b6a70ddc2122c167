/* tickscope.h: the public API of libtickscope.
 * Clock reads live in <tickscope/clock.h>; this header adds errors, the sampler and the statistics. */
#ifndef TICKSCOPE_H
#define TICKSCOPE_H

#include <stddef.h>
#include <stdint.h>
#include "tickscope/clock.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TKS_VERSION_STRING "0.1.0"

/* Errors: functions that can fail return 0 or one of these (negative). */
#define TKS_OK        0
#define TKS_EINVAL   (-1)  /* bad argument */
#define TKS_ENOMEM   (-2)  /* allocation failed */
#define TKS_EUNAVAIL (-3)  /* method or feature not available on this CPU */
#define TKS_EIO      (-4)  /* file could not be written or read */
#define TKS_EPERM    (-5)  /* not permitted (pinning, real-time priority) */
#define TKS_EDISCARD (-6)  /* too many samples had to be discarded */
#define TKS_ERANGE   (-7)  /* a count or size is out of the supported range */
#define TKS_ENODEV   (-8)  /* the kernel module is not loaded (no /dev/tickscope) */
#define TKS_EBUSY    (-9)  /* the kernel module is in use by another process */
#define TKS_EPROTO   (-10) /* the kernel module speaks another protocol version */

const char *tks_strerror(int err);

/* ---------------------------------------------------------------- statistics
 * Pure functions over sample arrays (ticks). Moments are exact: sums are kept in
 * 128-bit (and wider) integers and only the final division is done in floating point.
 * Variances are population variances (divide by n), as in the white paper's var_calc. */

/* One ensemble: the paper's per-row figures plus robust ones. */
typedef struct tks_summary {
    uint64_t n;
    uint64_t min, max;
    uint64_t max_deviation;   /* max - min (the paper's "max deviation") */
    double mean;              /* exact sum / n */
    double variance;          /* population variance from an exact numerator */
    double median, q1, q3;    /* quantiles, linear interpolation between order statistics */
    double median_lo, median_hi; /* ~95% distribution-free confidence interval of the median */
    double mad;               /* median absolute deviation (unscaled) */
    uint64_t outliers_low, outliers_high; /* outside Tukey's fences (1.5 IQR, at least 1 quantum) */
    /* Phase-averaged mean: mean of the inliers (within Tukey's far fences, 3 IQR, the IQR taken
     * as at least one quantum). Readings start at random phases of the timer quantum, so this
     * mean resolves durations below one quantum where the minimum and median cannot. */
    double pa_mean, pa_ci;    /* estimate and ~95% half-width (1.96 standard errors) */
    double inlier_variance;   /* population variance of those inliers */
    uint64_t pa_n;            /* how many samples the inlier figures use */
} tks_summary;

/* Summarise x[0..n). scratch must hold n values (it receives a sorted copy of x).
 * quantum: the timer step in ticks (1 if unknown). */
int tks_summarize(const uint64_t *x, size_t n, uint64_t quantum, uint64_t *scratch,
                  tks_summary *out);

/* Quantile p in [0,1] of sorted[0..n), linear interpolation (Hyndman-Fan type 7). */
double tks_quantile_sorted(const uint64_t *sorted, size_t n, double p);

/* Exact population variance of x[0..n) (0 for n < 2). Works for any uint64_t values. */
double tks_variance_u64(const uint64_t *x, size_t n);
/* Population variance of doubles (two-pass, long double accumulators). */
double tks_variance_double(const double *x, size_t n);

/* Across ensembles: the paper's closing figures. */
typedef struct tks_across {
    size_t ensembles;
    uint32_t spurious_minimums;  /* ensembles whose minimum is below the previous one's */
    double total_variance;       /* mean of the ensemble variances */
    uint64_t abs_max_deviation;  /* largest ensemble max deviation */
    double variance_of_variances;
    double variance_of_minimums; /* exact */
    uint64_t min_of_minimums, max_of_minimums;
    double mean_inlier_variance;
    double variance_of_inlier_variances;
} tks_across;

int tks_across_ensembles(const tks_summary *ens, size_t count, tks_across *out);

/* Ergodicity, the paper's "variance of variances and of minimums tend to zero", made
 * quantum-aware and robust to the interrupts user space cannot switch off. See README. */
typedef struct tks_ergodicity {
    int ergodic;                 /* both criteria hold */
    int minimum_stable;          /* max_of_minimums - min_of_minimums <= quantum */
    int variance_stable;         /* sd of inlier variances <= max(quantum^2, 0.5 * mean) */
    double minimum_spread;       /* in ticks */
    double variance_sd;          /* sqrt(variance_of_inlier_variances) */
    double variance_limit;       /* the bound variance_sd was compared with */
} tks_ergodicity;

int tks_ergodicity_test(const tks_across *a, uint64_t quantum, tks_ergodicity *out);

/* Least squares y = intercept + slope * x. */
typedef struct tks_fit {
    size_t n;
    double slope, intercept;
    double r2;                   /* coefficient of determination (1 when all y are equal and fit) */
    double residual_sd;          /* sqrt(SSR / (n - 2)), 0 for n <= 2 */
    double slope_se, intercept_se;
} tks_fit;

int tks_linear_fit(const double *x, const double *y, size_t n, tks_fit *out);

/* The timer quantum from deltas between consecutive fenced reads: the largest q, from 1 up to
 * the smallest nonzero delta, that divides at least 99% of the nonzero deltas. 1 if none. */
uint64_t tks_quantum_from_deltas(const uint64_t *deltas, size_t n);

/* Resolution of a growing-work series: est[i] is the estimate with i units of work and unc[i]
 * its uncertainty (same units). A step of k units from i-k to i is resolved when
 * est[i] - est[i-k] > sqrt(unc[i]^2 + unc[i-k]^2) and > 0. The resolution is the smallest k
 * for which at least `coverage` (e.g. 0.95) of the steps i = k..n-1 are resolved; 0 when no
 * k up to (n-1)/2 qualifies. *fraction (may be NULL) receives that k's resolved fraction. */
size_t tks_resolution(const double *est, const double *unc, size_t n, double coverage,
                      double *fraction);

/* ---------------------------------------------------------------- sampling
 * E ensembles of S samples of one method's empty (or working) window, into a buffer allocated
 * before the first sample. The window of ensemble e holds work_start + e * work_step dependent
 * register adds (add %reg,%reg: add-immediate chains are folded at rename on recent Intel cores). */

#define TKS_WORK_MAX 200u          /* most dependent adds one window can carry */
#define TKS_SAMPLES_MAX 100000000u /* per ensemble */
#define TKS_ENSEMBLES_MAX 100000u

typedef void (*tks_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Where the samples are taken: in this process, or by the kernel module (kmod/, device
 * /dev/tickscope) with the CPU owned as the white paper owns it, or with interrupts left on. */
enum tks_where {
    TKS_WHERE_USER = 0,
    TKS_WHERE_KERNEL_IRQ_OFF,     /* preempt_disable() + raw_local_irq_save() (white paper) */
    TKS_WHERE_KERNEL_PREEMPT_OFF  /* preempt_disable() only: interrupts still arrive */
};

typedef struct tks_sample_plan {
    enum tks_method method;
    uint32_t ensembles;      /* E >= 1 */
    uint32_t samples;        /* S >= 2 per ensemble (upper bound when budget_s > 0) */
    uint32_t work_start;     /* dependent adds in ensemble 0 */
    uint32_t work_step;      /* added for each later ensemble */
    double budget_s;         /* > 0: fewer samples per ensemble (never below min_samples) so the run fits */
    uint32_t min_samples;    /* floor for the budget (0: 100) */
    int pin_cpu;             /* >= 0: pin to this CPU for the run; -1: leave the affinity alone */
    int fifo;                /* run ensembles under SCHED_FIFO, paced to stay clear of RT throttling */
    const char *root;        /* where /proc lives (NULL or "" for "/"): tests use fixture trees */
    tks_progress_fn progress;/* called between ensembles, never inside one */
    void *progress_ctx;
    enum tks_where where;    /* TKS_WHERE_USER, or a kernel mode: pin_cpu then names the CPU the
                                module runs on, and fifo does not apply */
    const char *kernel_device; /* NULL: /dev/tickscope */
} tks_sample_plan;

typedef struct tks_sample_run {
    uint64_t *ticks;            /* ensembles x samples, row-major: ticks[e * samples + s] */
    uint32_t ensembles, samples;/* as taken (samples may be fewer than planned under a budget) */
    uint64_t discarded_migrated;/* begin and end TSC_AUX differed: the thread changed CPU */
    uint64_t discarded_negative;/* end reading before begin reading */
    uint64_t warmup_discarded;  /* first sample of each ensemble, taken and dropped */
    int aux_checked;            /* migrations could be detected (RDTSCP present) */
    int budget_limited;         /* samples were reduced to fit budget_s */
    double seconds_per_sample;  /* from the pilot run, wall clock */
    int pin_status;             /* 0 pinned or not asked; else an errno-style code */
    int fifo_status;            /* 0 under SCHED_FIFO or not asked; else an errno-style code */
    uint32_t rt_pauses;         /* pauses taken between ensembles to avoid RT throttling */
    double seconds;             /* wall time of the whole run */
    /* Kernel runs only: how the CPU was owned. */
    uint64_t kernel_sections;   /* stretches with interrupts (or preemption) off */
    uint64_t kernel_section_max_ticks; /* the longest of them */
    int kernel_cpu;             /* the CPU the module ran on (-1 in user space) */
} tks_sample_run;

/* Fill plan with defaults for method: 100 x 10000, no work, no pinning. */
void tks_sample_plan_init(tks_sample_plan *plan, enum tks_method method);
/* The CPU's features, probed once per process (CPUID traps under a hypervisor). */
const struct tks_cpu_features *tks_cpu_features_get(void);
/* Take the samples. On success run->ticks must be released with tks_sample_run_free. */
int tks_sample_take(const tks_sample_plan *plan, tks_sample_run *run);
void tks_sample_run_free(tks_sample_run *run);
/* Deltas between n+1 consecutive begin readings of a method, back to back. */
int tks_sample_read_deltas(enum tks_method method, uint64_t *deltas, size_t n);
/* The same with a varying amount of work before each reading, so that the deltas vary and the
 * timer's step is the only divisor they share (see tks_quantum_from_deltas). */
int tks_sample_read_spread_deltas(enum tks_method method, uint64_t *deltas, size_t n);
/* Look a method up by name; -1 if unknown. */
int tks_method_from_name(const char *name);
/* 1 if samples can be taken with method m where; for the kernel, as its module says. */
int tks_method_available_where(enum tks_method m, enum tks_where where, const char *kernel_device);

/* What the kernel module offers (TKS_ENODEV when it is not loaded, TKS_EPERM without the
 * right to open its device, TKS_EBUSY when another process has it open). */
typedef struct tks_kernel_info {
    uint32_t abi;          /* the module's protocol version */
    uint32_t methods;      /* bit m: method m runs in the kernel (cr0 among them) */
    uint32_t total_max;    /* ensembles x samples per run */
    uint32_t section_us;   /* bound on one stretch with interrupts off */
    uint64_t tsc_khz;      /* the kernel's TSC rate */
} tks_kernel_info;
int tks_kernel_probe(const char *device, tks_kernel_info *info);

/* Summarise each of `ensembles` rows of `samples` values; scratch holds `samples` values. */
int tks_summarize_ensembles(const uint64_t *ticks, uint32_t ensembles, uint32_t samples,
                            uint64_t quantum, uint64_t *scratch, tks_summary *out);

/* The timer quantum seen through consecutive begin readings of a fenced method, and (if
 * unfenced_min is not NULL) the smallest nonzero step between back-to-back unfenced reads
 * (0 when no unfenced method exists). */
int tks_measure_quantum(enum tks_method fenced, uint64_t *quantum, uint64_t *unfenced_min);
/* The method the quantum is read through: the cheapest fenced one this CPU has. */
enum tks_method tks_quantum_method(const struct tks_cpu_features *f);

/* ---------------------------------------------------------------- platform
 * What ticked: the CPU, the TSC rate from every source, the timer quantum, the core clock, the
 * hypervisor, and the environment. Files under /proc and /sys are read relative to a root
 * directory (NULL or "" for "/") so tests can use fixture trees. */

/* CPU identity from CPUID (x86) or the kernel (arm64). */
typedef struct tks_cpu_identity {
    char vendor[16];               /* "GenuineIntel", "AuthenticAMD", "" when unknown */
    char brand[64];                /* brand string, spaces trimmed */
    unsigned family, model, stepping; /* display family and model (extended fields folded in) */
    int hypervisor;                /* CPUID.1:ECX[31] */
    char hypervisor_vendor[16];    /* leaf 0x40000000: "KVMKVMKVM", "Microsoft Hv", ... */
    uint32_t hypervisor_max_leaf;
    int logical_cpus;              /* online CPUs */
} tks_cpu_identity;

int tks_cpu_identify(tks_cpu_identity *id);

/* Where a TSC rate came from. */
enum tks_hz_source {
    TKS_HZ_OVERRIDE,    /* given by the user (--tsc-hz) */
    TKS_HZ_MEASURED,    /* least squares against CLOCK_MONOTONIC_RAW */
    TKS_HZ_LINUX_PERF,  /* the kernel's own cycles-to-ns factors (perf_event mmap page) */
    TKS_HZ_LINUX_LOG,   /* the kernel log's "tsc: Detected / Refined ... MHz" */
    TKS_HZ_CPUID_15,    /* Intel: crystal clock x TSC/crystal ratio (leaf 0x15) */
    TKS_HZ_HYPERVISOR,  /* hypervisor leaf 0x40000010: TSC kHz */
    TKS_HZ_CPUID_16,    /* Intel: processor base frequency (leaf 0x16), nominal */
    TKS_HZ_CNTFRQ,      /* arm64: CNTFRQ_EL0, the generic timer's frequency */
    TKS_HZ_SOURCE_COUNT
};
const char *tks_hz_source_name(enum tks_hz_source s);

/* A least-squares fit of a reference clock (ns) against TSC readings taken on either side of it. */
typedef struct tks_tsc_calibration {
    double hz;                 /* ticks per second of the reference clock */
    double ppm;                /* ~95% uncertainty of hz, parts per million */
    size_t points, used;       /* pairs taken; pairs kept (tight brackets only) */
    double bracket_ticks;      /* widest bracket among those kept */
    double seconds;            /* reference time spanned */
} tks_tsc_calibration;

/* Fit pure data: ns[i] was read between ticks tsc_before[i] and tsc_after[i]. Pairs whose bracket
 * is wider than twice the narrowest (plus one tick) are dropped. TKS_EINVAL with fewer than 3
 * pairs kept or no time spanned. */
int tks_tsc_fit(const uint64_t *tsc_before, const uint64_t *tsc_after, const uint64_t *ns,
                size_t n, tks_tsc_calibration *out);
/* Measure: pairs against CLOCK_MONOTONIC_RAW for about `seconds` (0: 0.05). */
int tks_tsc_calibrate(double seconds, tks_tsc_calibration *out);

/* The TSC's step: the most common deltas between fenced and between unfenced back-to-back reads. */
#define TKS_TOP_DELTAS 5
typedef struct tks_timer_quantum {
    uint64_t quantum;                   /* step of fenced reads (1: none seen) */
    uint64_t unfenced_step;             /* smallest nonzero step between unfenced reads (0: none) */
    uint64_t fenced_delta[TKS_TOP_DELTAS], fenced_count[TKS_TOP_DELTAS];
    uint64_t unfenced_delta[TKS_TOP_DELTAS], unfenced_count[TKS_TOP_DELTAS];
    size_t reads;                       /* deltas taken of each kind */
} tks_timer_quantum;

int tks_timer_quantum_measure(tks_timer_quantum *out);
/* The k most frequent values of sorted[0..n), most frequent first (ties: smaller value first).
 * Returns how many were written (<= k). */
size_t tks_top_values(const uint64_t *sorted, size_t n, uint64_t *values, uint64_t *counts,
                      size_t k);

/* The core clock without counters: a chain of dependent register adds retires one add per core
 * cycle, so two chain lengths differenced give core cycles per TSC tick, harness cancelled. */
typedef struct tks_core_clock {
    double cycles_per_tick;    /* median over rounds */
    double spread;             /* (largest - smallest) / median over rounds */
    unsigned rounds;
    uint64_t adds_short, adds_long; /* the two chain lengths */
    /* A hardware cycle counter (perf_event_open), read around the same chain. */
    int counter;               /* 1 when core cycles were read from a counter */
    int counter_rdpmc;         /* ... with user-space RDPMC rather than read() */
    double counter_cycles_per_tick;
    char counter_note[160];    /* why there is no counter, or how it was read */
} tks_core_clock;

int tks_core_clock_measure(tks_core_clock *out);

/* The cost of one CPUID (leaf 0) in ticks, minus an empty fenced window: thousands when it traps
 * to a hypervisor, a few hundred or less on bare metal. */
typedef struct tks_cpuid_cost {
    double min_ticks, median_ticks;
    int traps;                 /* median above TKS_CPUID_TRAP_TICKS */
    int available;             /* 0 on CPUs without CPUID (arm64) */
} tks_cpuid_cost;
#define TKS_CPUID_TRAP_TICKS 1000.0
int tks_cpuid_cost_measure(tks_cpuid_cost *out);

/* Environment checks: each a one-line finding and a concrete remedy. */
enum tks_env_status { TKS_ENV_OK, TKS_ENV_INFO, TKS_ENV_WARN, TKS_ENV_UNKNOWN };
const char *tks_env_status_name(int status);   /* "ok", "info", "warn", "unknown" */

typedef struct tks_env_finding {
    char id[24];          /* stable: "hypervisor", "clocksource", "governor", ... */
    int status;           /* enum tks_env_status */
    char finding[200];    /* what was found, one line */
    char advice[240];     /* what to do about it, one line ("" when nothing) */
} tks_env_finding;

typedef struct tks_env_input {
    const char *root;       /* where /proc and /sys live */
    int cpu;                /* the CPU that measures; -1: the one this thread runs on */
    int hypervisor;         /* CPUID's hypervisor bit; -1 unknown */
    const char *hypervisor_vendor; /* may be NULL */
    int invariant_tsc;      /* -1 unknown */
    int optimized_build;    /* tks_build_optimized() for tickscope itself */
} tks_env_input;

#define TKS_ENV_MAX 24 /* room for the checks below and the platform's own */
/* Run every check; returns how many findings were written (at most max). A file that is missing
 * or unreadable makes its finding TKS_ENV_UNKNOWN, never an error. */
size_t tks_env_check(const tks_env_input *in, tks_env_finding *out, size_t max);
/* 1 if the library was compiled with optimisation. */
int tks_build_optimized(void);

/* Everything together, with the calibrations cached per boot. */
typedef struct tks_hz_reading {
    enum tks_hz_source source;
    double hz;
    char detail[96];           /* how it was obtained */
} tks_hz_reading;

typedef struct tks_platform {
    tks_cpu_identity cpu;
    int invariant_tsc;
    double tsc_hz;                     /* the one rate every conversion uses (0: unknown) */
    enum tks_hz_source tsc_hz_source;
    char tsc_hz_reason[200];           /* why that source */
    tks_hz_reading hz_sources[TKS_HZ_SOURCE_COUNT];
    size_t n_hz_sources;
    tks_tsc_calibration calibration;   /* hz == 0 when not measured */
    tks_timer_quantum quantum;
    tks_core_clock core;
    double core_hz;                    /* tsc_hz * cycles_per_tick (or the counter's), 0: unknown */
    tks_cpuid_cost cpuid;
    tks_env_finding env[TKS_ENV_MAX];
    size_t n_env;
    int from_cache;                    /* calibrations read from the per-boot cache */
    int pin_status;                    /* 0, or the errno that kept the measurements off o->cpu */
    char cache_path[512];              /* "" when there is no cache */
    char cache_note[160];              /* why the cache was not used or not written */
    double seconds;                    /* wall time of tks_platform_probe */
} tks_platform;

typedef struct tks_platform_options {
    const char *root;          /* /proc and /sys (tests) */
    const char *cache_dir;     /* NULL: $TICKSCOPE_CACHE_DIR, $XDG_CACHE_HOME/tickscope or ~/.cache/tickscope; "" no cache */
    int recalibrate;           /* measure even when the cache is valid */
    double tsc_hz_override;    /* > 0: use this rate */
    int cpu;                   /* the CPU measurements will run on (-1: unpinned) */
} tks_platform_options;

void tks_platform_options_init(tks_platform_options *o);
int tks_platform_probe(const tks_platform_options *o, tks_platform *p);
/* Core cycles per TSC tick: the counter's when one was read, else the add chain's (0: unknown). */
double tks_core_cycles_per_tick(const tks_platform *p);
/* Ticks to nanoseconds through p->tsc_hz (NaN when the rate is unknown). */
double tks_ticks_to_ns(const tks_platform *p, double ticks);

#ifdef __cplusplus
}
#endif
#endif
