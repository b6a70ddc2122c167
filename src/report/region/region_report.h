/* SPDX-License-Identifier: MIT */
/* region_report.h: the report of the regions (tickscope/region_types.h) as a text table, JSON or CSV.
 * The runtime gathers the figures; these functions only write them. */
#ifndef TKS_REPORT_REGION_REPORT_H
#define TKS_REPORT_REGION_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "report/common/report.h"
#include "report/common/writers.h"
#include "tickscope.h"
#include "tickscope/region_types.h"

typedef struct tks__region_row {
    tks_region_stats st;
    const char *method;          /* how its passes were read */
    int method_compiled_in;      /* chosen with -DTKS_REGION_METHOD rather than at start-up */
    const uint64_t *kept;        /* merged reservoir, sorted, raw ticks (NULL: none) */
    size_t n_kept;
    unsigned thread;             /* 0: every thread merged; k: the k-th thread block alone */
    size_t region;               /* a thread row's region: the index of its merged row */
} tks__region_row;

/* One way of reading the clock and its overhead, as measured at start-up. */
typedef struct tks__region_cost {
    const char *method;
    int compiled_in;
    double ticks;                /* subtracted from means: the median of the blocks' means */
    double median;               /* subtracted from the minimum, quantiles and maximum */
    uint64_t min, pairs;
    uint64_t quantum;            /* the step of the empty passes' values */
    double spread, resolution;   /* the blocks' scaled MAD; max(quantum, 2 spread) */
} tks__region_cost;

typedef struct tks__region_report_data {
    const tks__region_row *rows;
    size_t n_rows;
    const tks__region_row *thread_rows; /* per thread, grouped by region in rows' order */
    size_t n_thread_rows;
    const tks__region_cost *costs;
    size_t n_costs;
    const tks_platform *platform; /* units and quantum; NULL when it could not be probed */
    double tsc_hz;               /* the rate for ns (an override, else the platform's; 0: unknown) */
    int tsc_hz_override;
    double cycles_per_tick;      /* 0: unknown */
    uint64_t dropped_sites;      /* call sites that found the table full */
    const char *first_dropped;
    uint64_t report_failures;    /* reports that could not be written where asked */
    uint64_t alloc_failures;
    const char *const *notes;
    size_t n_notes;
    int histograms;              /* text: a histogram per region with a reservoir */
    /* Event counters (TICKSCOPE_REGION_COUNTERS): their names (rows' st.events follow them) and
     * the refusals (NULL: none). */
    const char *const *event_names;
    size_t n_event_names;
    const tks_diags *events_diags;
} tks__region_report_data;
/* The event counters' part of each format (region_events_report.c). */
void tks__region_events_text(FILE *f, const tks__region_report_data *d);
void tks__region_events_json(tks__json *j, const tks__region_report_data *d, const tks_region_stats *st);
void tks__region_events_json_refused(tks__json *j, const tks__region_report_data *d);
void tks__region_events_csv_header(FILE *f, const tks__region_report_data *d);
void tks__region_events_csv_row(FILE *f, const tks__region_report_data *d, const tks_region_stats *st);

/* Each returns 0 or TKS_EIO (a write failed) / TKS_ENOMEM. */
int tks__region_write_text(FILE *f, const tks__region_report_data *d);
int tks__region_write_json(FILE *f, const tks__region_report_data *d);
int tks__region_write_csv(FILE *f, const tks__region_report_data *d);
/* Ticks in ns and core cycles at d's rates (NaN when unknown). */
double tks__region_ns(const tks__region_report_data *d, double ticks);
double tks__region_cycles(const tks__region_report_data *d, double ticks);
/* The regions' writer table (region_formats.c, with the Markdown writer): of a
 * tks__region_report_data. */
extern const tks__writers tks__region_writers;

#endif
