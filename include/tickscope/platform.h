/* SPDX-License-Identifier: MIT */
/* tickscope/platform.h: what the machine is: the CPU, the TSC rate from every source, the timer
 * quantum, the core clock, the hypervisor and the environment. */
#ifndef TICKSCOPE_PLATFORM_H
#define TICKSCOPE_PLATFORM_H

#include "clock.h"
#include "common.h"
#include "diag.h"
#include "method.h"
#include "platform_types.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The timer quantum seen through consecutive begin readings of a fenced method (the default
 * one, tks_method_default, unless there is a reason to read it through another), and (if
 * unfenced_min is not NULL) the smallest nonzero step between back-to-back unfenced reads
 * (0 when no unfenced method exists). */
TKS_API int tks_timer_quantum_step(enum tks_method fenced, uint64_t *quantum,
                                   uint64_t *unfenced_min);

/* * What ticked: the CPU, the TSC rate from every source, the timer quantum, the core clock, the
 * hypervisor, and the environment. Files under /proc and /sys are read relative to a root
 * directory (NULL or "" for "/") so tests can use fixture trees. */


TKS_API int tks_cpu_identity_probe(tks_cpu_identity *id);

TKS_API const char *tks_hz_source_name(enum tks_hz_source s);

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
TKS_API int tks_tsc_fit(const uint64_t *tsc_before, const uint64_t *tsc_after, const uint64_t *ns,
                size_t n, tks_tsc_calibration *out);
/* Measure: pairs against CLOCK_MONOTONIC_RAW for about `seconds` (0: 0.05). */
TKS_API int tks_tsc_calibrate(double seconds, tks_tsc_calibration *out);

/* The TSC's step: the most common deltas between fenced and between unfenced back-to-back reads. */
#define TKS_TOP_DELTAS 5
typedef struct tks_timer_quantum {
    uint64_t quantum;                   /* step of fenced reads (1: none seen) */
    uint64_t unfenced_step;             /* smallest nonzero step between unfenced reads (0: none) */
    uint64_t fenced_delta[TKS_TOP_DELTAS], fenced_count[TKS_TOP_DELTAS];
    uint64_t unfenced_delta[TKS_TOP_DELTAS], unfenced_count[TKS_TOP_DELTAS];
    size_t reads;                       /* deltas taken of each kind */
} tks_timer_quantum;

TKS_API int tks_timer_quantum_measure(tks_timer_quantum *out);
/* The k most frequent values of sorted[0..n), most frequent first (ties: smaller value first).
 * Returns how many were written (<= k). */
TKS_API size_t tks_top_values(const uint64_t *sorted, size_t n, uint64_t *values, uint64_t *counts,
                      size_t k);

/* The core clock without counters: a chain of dependent register adds retires one add per core
 * cycle, so two chain lengths differenced give core cycles per TSC tick, harness cancelled. */
typedef struct tks_core_clock {
    double cycles_per_tick;    /* median over rounds */
    double lo, hi;             /* ~95% interval of that median (its 4th and 12th of 15 rounds) */
    double spread;             /* (largest - smallest) / median over rounds */
    unsigned rounds;
    unsigned attempts;         /* measurements taken: more than 1 when a spread over 2% (a
                                * disturbed machine) sent it round again; the calmest is kept */
    uint64_t adds_short, adds_long; /* the two chain lengths */
    /* A hardware cycle counter (perf_event_open), read around the same chain. */
    int counter;               /* 1 when core cycles were read from a counter */
    int counter_rdpmc;         /* ... with user-space RDPMC rather than read() */
    double counter_cycles_per_tick;
    tks_diags counter_diags;   /* why there is no counter, or how it was read: platform.counter.* */
    /* Whether the chain's adds ran one a core cycle (stats.h), checked against dependent
     * multiplies and floating-point adds timed beside them: when SLOW (another thread on the
     * core), cycles_per_tick, lo and hi are the adds' figures times add_cycles; under SLOW and
     * HOLDS the interval holds the check's error too. */
    tks_add_check add_check;
} tks_core_clock;

/* Fills out; release its counter_diags with tks_diags_free (tks_platform_free does, for the
 * platform's). */
TKS_API int tks_core_clock_measure(tks_core_clock *out);

/* The cost of one CPUID (leaf 0) in ticks, minus an empty fenced window: thousands when it traps
 * to a hypervisor, a few hundred or less on bare metal. */
typedef struct tks_cpuid_cost {
    double min_ticks, median_ticks;
    int traps;                 /* median above TKS_CPUID_TRAP_TICKS */
    int available;             /* 0 on CPUs without CPUID (arm64) */
} tks_cpuid_cost;
#define TKS_CPUID_TRAP_TICKS 1000.0
TKS_API int tks_cpuid_cost_measure(tks_cpuid_cost *out);

/* Environment checks: each a one-line finding and a concrete remedy, as coded diagnostics
 * (tickscope/diag_machine.h): the report renders them ("finding" and "advice"). */
enum tks_env_status { TKS_ENV_OK, TKS_ENV_INFO, TKS_ENV_WARN, TKS_ENV_UNKNOWN };
TKS_API const char *tks_env_status_name(int status);   /* "ok", "info", "warn", "unknown" */

typedef struct tks_env_finding {
    char id[24];          /* stable: "hypervisor", "clocksource", "governor", ... */
    int status;           /* enum tks_env_status */
    tks_diags found;      /* what was found: an env.* code first, then any detail (env.rate_*, ...) */
    tks_diags advice;     /* what to do about it: env.*.fix codes (none when nothing) */
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
 * or unreadable makes its finding TKS_ENV_UNKNOWN, never an error. The findings own their
 * diagnostics: release them with tks_env_findings_free. */
TKS_API size_t tks_env_check(const tks_env_input *in, tks_env_finding *out, size_t max);
TKS_API void tks_env_findings_free(tks_env_finding *f, size_t n);
/* 1 if the library was compiled with optimisation. */
TKS_API int tks_build_optimized(void);

/* Everything together, with the calibrations cached per boot. */

typedef struct tks_platform {
    tks_cpu_identity cpu;
    int invariant_tsc;
    double tsc_hz;                     /* the one rate every conversion uses (0: unknown) */
    enum tks_hz_source tsc_hz_source;
    tks_diags hz_reason;               /* why that source: a platform.rate.* code */
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
    tks_diags cache_diags;             /* how the calibrations were had: platform.* codes (cache) */
    double seconds;                    /* wall time of tks_platform_probe */
    /* The CPU's features as the library went by them (tks_cpu_features_get() when probed; in a
     * replay, the recorded CPU's): what the reports say of the CPU. */
    struct tks_cpu_features features;
} tks_platform;

typedef struct tks_platform_options {
    const char *root;          /* /proc and /sys (tests) */
    const char *cache_dir;     /* NULL: $TICKSCOPE_CACHE_DIR, $XDG_CACHE_HOME/tickscope or ~/.cache/tickscope; "" no cache */
    int recalibrate;           /* measure even when the cache is valid */
    double tsc_hz_override;    /* > 0: use this rate */
    int cpu;                   /* the CPU measurements will run on (-1: unpinned) */
} tks_platform_options;

TKS_API void tks_platform_options_init(tks_platform_options *o);
/* Fills p (its previous content is not read); p owns diagnostics: release them with
 * tks_platform_free (and before probing into the same struct again). */
TKS_API int tks_platform_probe(const tks_platform_options *o, tks_platform *p);
/* Frees what p owns (its diagnostics and findings' diagnostics); p may be probed again. NULL is
 * fine. */
TKS_API void tks_platform_free(tks_platform *p);
/* Core cycles per TSC tick: the counter's when one was read, else the add chain's (0: unknown). */
TKS_API double tks_core_cycles_per_tick(const tks_platform *p);
/* Ticks to nanoseconds through p->tsc_hz (NaN when the rate is unknown). */
TKS_API double tks_ticks_to_ns(const tks_platform *p, double ticks);

/* Names before 0.2 (see the README's changelog). */
#define tks_measure_quantum tks_timer_quantum_step
#define tks_quantum_method tks_method_default
#define tks_cpu_identify tks_cpu_identity_probe

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_PLATFORM_H */
