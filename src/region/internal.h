/* SPDX-License-Identifier: MIT */
/* internal.h: the region runtime's one context (registry, configuration and their locks) and the
 * functions its files offer each other, each taking the context as its first argument. */
#ifndef TKS_REGION_INTERNAL_H
#define TKS_REGION_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "tickscope.h"
#include "tickscope/region.h"

/* The per-pass overhead of one way of reading the clock (a method, or the start-up dispatch),
 * measured once on empty begin/end pairs through the regions' own inline path. */
typedef struct tks__region_overhead_est {
    int measured;
    double ticks;        /* median of the blocks' phase-averaged means: subtracted from means */
    double median;       /* of every pair: subtracted from the minimum, quantiles and maximum */
    uint64_t min;        /* of every pair (reported, not subtracted) */
    uint64_t pairs;
    uint64_t quantum;    /* the step of the empty pairs' values (gcd of their common spacings) */
    double spread;       /* 1.4826 x the MAD of the blocks' means: how far ticks may be off */
    double resolution;   /* max(quantum, 2 x spread): a net figure below it is not resolved */
} tks__region_overhead_est;

#define TKS__REGION_NOTES 4
#define TKS__REGION_OUT_MAX 512

/* Everything the registry knows; guarded by the context's lock. */
typedef struct tks__region_registry {
    size_t n;
    char name[TKS_REGION_MAX][TKS_REGION_NAME_MAX];
    int method[TKS_REGION_MAX];        /* the method of its first call site (-1: start-up choice) */
    int has_method[TKS_REGION_MAX];
    size_t reservoir[TKS_REGION_MAX];  /* per-thread capacity for threads setting the slot up */
    int reservoir_set[TKS_REGION_MAX]; /* by name, so the default does not override it */
    size_t default_reservoir;
    struct tks__region_thread *threads; /* every block ever made, newest first */
    uint64_t dropped_sites;            /* call sites that found the table full */
    char first_dropped[TKS_REGION_NAME_MAX];
    uint64_t alloc_failures;           /* a thread's block or a reservoir could not be allocated */
    tks__region_overhead_est overhead[TKS_METHOD_COUNT + 1]; /* [0]: the start-up dispatch */
    char notes[TKS__REGION_NOTES][200]; /* bad settings, said in every report */
    size_t n_notes;
} tks__region_registry;

/* Where and how reports go; guarded by the context's lock. The environment, read once at set-up,
 * wins over the API, so both are kept. */
typedef struct tks__region_config {
    char out_env[TKS__REGION_OUT_MAX], out_api[TKS__REGION_OUT_MAX];
    int format_env, format_api;        /* -1: not set */
    double tsc_hz_api;                 /* 0: measured */
    int signal_env;                    /* set by TICKSCOPE_REGION_SIGNAL (-1: not set) */
    int per_thread_env, per_thread_api; /* rows per thread in the report (-1: not set) */
    char counters[256];                /* TICKSCOPE_REGION_COUNTERS ("": none) */
} tks__region_config;

/* The report-on-signal machinery; guarded by the context's lock. */
typedef struct tks__region_signal {
    int pipe[2];
    int current;                       /* the signal handled now (0: none) */
    pthread_t thread;
    int thread_started;
} tks__region_signal;

/* The runtime's state. Before set-up it is all zero but for the two mutexes (static
 * initialisers), so the one instance costs no initialised data; set-up
 * (tks__region_config_init) fills in what does not start at zero. */
typedef struct tks__region_ctx {
    pthread_mutex_t lock;              /* guards reg, cfg and sig */
    tks__region_registry reg;
    tks__region_config cfg;
    tks__region_signal sig;
    int method;                        /* the start-up choice, published as tks__region_method */
    pthread_key_t thread_key;          /* its destructor marks a thread's block free for adoption */
    /* Only the reporting path touches these: reports are serialised by report_lock, taken before
     * lock, so a slow report (a file, the platform probe) never holds up the registry long. */
    pthread_mutex_t report_lock;
    uint64_t report_failures;
    tks_platform *platform;            /* probed at the first report: it takes up to a few 100 ms */
    int platform_tried;
    /* Event counters, as the first thread to open them found them (lock): their names, which
     * count, and the refusals' diagnostics. */
    int events_found;
    size_t n_event_names;
    char event_names[TKS_REGION_EVENTS_MAX][48];
    int event_counted[TKS_REGION_EVENTS_MAX];
    tks_diags events_diags;
} tks__region_ctx;

/* registry.c: names and their per-region settings (lock held, but for set_reservoir). */
/* A note for the report. */
void tks__region_note(tks__region_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A region's index, or -1 when no region has that name (names are compared as stored, cut). */
int tks__region_find(tks__region_ctx *ctx, const char *name);
/* Find or add a region: its index, or -1 when the table is full. */
int tks__region_find_or_add(tks__region_ctx *ctx, const char *name);
/* The public tks_region_set_reservoir (takes the lock itself). */
int tks__region_set_reservoir(tks__region_ctx *ctx, const char *name, size_t size);

/* threads.c: per-thread blocks of slots and the slow paths of the inline macros. */
struct tks__region_slot *tks__region_slow_begin(tks__region_ctx *ctx, tks__region_site *s,
                                                const char *name, int m);
tks_u64 tks__region_slow_end(tks__region_ctx *ctx, tks__region_site *s, const char *name, int m,
                             tks_u64 t1);
/* One whole pass of d ticks for the region of site s, however passes nest (IAPerf's PERFSTOP:
 * every frame of a recursion is a pass). */
void tks__region_slow_record(tks__region_ctx *ctx, tks__region_site *s, const char *name, int m,
                             tks_u64 d);
/* Thread t is ending (the thread key's destructor). */
void tks__region_thread_gone(tks__region_ctx *ctx, struct tks__region_thread *t);
/* The public tks_region_reset. */
void tks__region_reset(tks__region_ctx *ctx);

/* calibrate.c: the method and its overhead. */
/* Measure the overhead of method m (-1: the start-up dispatch) if not yet done (lock held). */
void tks__region_calibrate(tks__region_ctx *ctx, int m);
/* The estimate from n empty pairs d (19 blocks' phase-averaged means: their median, its scaled
 * MAD, the resolution); scratch holds n values. Pure: tested on synthetic pairs. */
void tks__region_overhead_estimate(tks__region_overhead_est *e, const uint64_t *d, size_t n,
                                   uint64_t *scratch);
/* The estimate for a method (-1: dispatch), or NULL if not measured (lock held). */
const tks__region_overhead_est *tks__region_overhead_of(tks__region_ctx *ctx, int m);
/* The method a region's reads use (its site's, else the start-up choice). */
int tks__region_effective_method(tks__region_ctx *ctx, int m);
/* The public tks_region_overhead (takes the lock itself). */
double tks__region_overhead_ticks(tks__region_ctx *ctx);

/* collect.c: the figures of region i merged over every thread, or of thread block `only` alone
 * (lock held); kept/len: the merged reservoir sample, sorted, allocated (NULL when none; free
 * it). */
void tks__region_collect(tks__region_ctx *ctx, size_t i, const struct tks__region_thread *only,
                         tks_region_stats *st, uint64_t **kept, size_t *len);
/* The public tks_region_stats_get, its arguments checked (takes the lock itself). */
int tks__region_stats_get(tks__region_ctx *ctx, const char *name, tks_region_stats *out);

/* config.c: the environment and the API's settings. */
/* Set up: defaults, the environment, the start-up method into ctx->method, the signal. */
void tks__region_config_init(tks__region_ctx *ctx);
/* The public setters, their arguments checked (each takes the lock itself). */
void tks__region_set_output(tks__region_ctx *ctx, const char *out, int format);
void tks__region_set_tsc_hz(tks__region_ctx *ctx, double hz);
void tks__region_set_per_thread(tks__region_ctx *ctx, int on);
int tks__region_report_on_signal(tks__region_ctx *ctx, int sig);
/* Whether the exit report is due: regions exist and its destination is not "none". */
int tks__region_exit_report_due(tks__region_ctx *ctx);

/* signal.c: report on every delivery of sig (0: stop); lock held. 0 or TKS_EIO. */
int tks__region_install_signal(tks__region_ctx *ctx, int sig);

/* output.c: the public tks_region_report, its format checked. */
int tks__region_report(tks__region_ctx *ctx, const char *out, int format);
/* The measured TSC rate (Hz, 0 unknown): the platform is probed once, at the first report. */
double tks__region_measured_hz(tks__region_ctx *ctx);

/* iaperf.c: the functions behind tickscope/iaperf.h. */
unsigned long long tks__region_iaperf_stop(tks__region_ctx *ctx, tks__region_site *site,
                                           const char *func, int line, int m, tks_u64 raw);
void tks__region_iaperf_report(tks__region_ctx *ctx, unsigned long long clocks,
                               double clockspeed);

/* region_events.c: event counters (TICKSCOPE_REGION_COUNTERS). The reads around a pass of
 * slot (end 0: before its begin reading, 1: after its end reading), on the calling thread. */
void tks__region_events_read(tks__region_ctx *ctx, struct tks__region_slot *slot, int end);
/* Region i's events per pass over every thread (or thread block only) into st (lock held). */
void tks__region_events_collect(tks__region_ctx *ctx, size_t i,
                                const struct tks__region_thread *only, tks_region_stats *st);
/* Zero a thread block's sums (tks_region_reset). */
void tks__region_events_reset(struct tks__region_thread *t);

#endif
