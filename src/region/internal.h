/* internal.h: what the region runtime's files (registry.c: registry, threads and slow paths;
 * calibrate.c: the method and its overhead; output.c: configuration, reports, exit and
 * signals) share. */
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
    double ticks;        /* phase-averaged mean of the empty pairs: what is subtracted */
    double median;
    uint64_t min;
    uint64_t pairs;
} tks__region_overhead_est;

#define TKS__REGION_NOTES 4

/* Everything the registry knows; guarded by tks__region_lock. */
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

extern pthread_mutex_t tks__region_lock;
extern tks__region_registry tks__region_reg;

/* Set up once: configuration from the environment, the start-up method, the exit report. Safe to
 * call from every entry point; takes the lock itself (call it without holding it). */
void tks__region_init(void);
/* A note for the report (lock held). */
void tks__region_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* calibrate.c */
/* Measure the overhead of method m (-1: the start-up dispatch) if not yet done (lock held). */
void tks__region_calibrate(int m);
/* The estimate for a method (-1: dispatch), or NULL if not measured. */
const tks__region_overhead_est *tks__region_overhead_of(int m);
/* The method a region's reads use (its site's, else the start-up choice). */
int tks__region_effective_method(int m);

/* registry.c: the merged figures of region i (lock held); kept/len: the merged reservoir sample,
 * sorted, allocated (NULL when none; free it). */
void tks__region_collect(size_t i, tks_region_stats *st, uint64_t **kept, size_t *len);

/* output.c: configuration read at init */
void tks__region_out_init(void);
/* The measured TSC rate (Hz, 0 unknown): the platform is probed once, at the first report. */
double tks__region_measured_hz(void);

#endif
