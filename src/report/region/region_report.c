/* SPDX-License-Identifier: MIT */
/* region_report.c: the regions' report as a table for people (with histograms of the reservoirs),
 * as JSON and as CSV for programs. Every figure is per pass and net of the measured overhead,
 * in ticks, core cycles and ns; the overhead itself is part of the report. */
#include <math.h>
#include <string.h>

#include "report/region/region_report.h"
#include "report/common/report.h"

double tks__region_ns(const tks__region_report_data *d, double ticks)
{
    return d->tsc_hz > 0 ? ticks * 1e9 / d->tsc_hz : NAN;
}

double tks__region_cycles(const tks__region_report_data *d, double ticks)
{
    return d->cycles_per_tick > 0 ? ticks * d->cycles_per_tick : NAN;
}

static const char *fmt(char *buf, size_t size, double v, int decimals)
{
    if (!isfinite(v))
        return NULL; /* the table prints "-" */
    return tks__fmt_double(buf, size, v, decimals);
}

/* A net figure, or "<R (raw X)" when it is below the resolution R (X: as read). */
static const char *fmt_net(char *buf, size_t size, const tks_region_stats *s, double net,
                           double raw, unsigned bit)
{
    if (!isfinite(net))
        return NULL;
    if (s->below_resolution & bit) {
        snprintf(buf, size, "<%.0f (raw %.0f)", s->resolution, raw);
        return buf;
    }
    return tks__fmt_double(buf, size, net, 1);
}

static void text_header(FILE *f, const tks__region_report_data *d)
{
    unsigned threads = 0;
    for (size_t i = 0; i < d->n_rows; i++)
        if (d->rows[i].st.threads > threads)
            threads = d->rows[i].st.threads;
    fprintf(f, "tickscope regions: %zu region(s), up to %u thread(s) each; every figure per pass, "
               "net of the overhead.\n", d->n_rows, threads);
    for (size_t i = 0; i < d->n_costs; i++) {
        const tks__region_cost *c = &d->costs[i];
        fprintf(f, "Clock read with %s (%s). Overhead of an empty pass (%llu at start-up): %.1f "
                   "ticks, the median of 19 block means (spread %.1f), subtracted from means; "
                   "their median %.0f (minimum %llu), subtracted from the minimum, quantiles and "
                   "maximum. Quantum %llu tick(s): a net figure below %.1f ticks is not "
                   "resolved.\n",
                c->method, c->compiled_in ? "compiled in" : "chosen at start-up",
                (unsigned long long)c->pairs, c->ticks, c->spread, c->median,
                (unsigned long long)c->min, (unsigned long long)c->quantum, c->resolution);
    }
    if (d->platform && !d->tsc_hz_override) {
        tks__report_units(d->platform, f);
    } else if (d->tsc_hz > 0) {
        fprintf(f, "One TSC tick = %.4f ns (%.6f MHz, %s)", 1e9 / d->tsc_hz, d->tsc_hz / 1e6,
                d->tsc_hz_override ? "given by the program" : "measured");
        if (d->cycles_per_tick > 0)
            fprintf(f, " = %.3f core cycles", d->cycles_per_tick);
        fprintf(f, ".\n");
    } else {
        fprintf(f, "The TSC rate is unknown: no nanoseconds.\n");
    }
}

static void text_problems(FILE *f, const tks__region_report_data *d)
{
    for (size_t i = 0; i < d->n_rows; i++) {
        const tks_region_stats *s = &d->rows[i].st;
        if (s->ends_without_begin)
            fprintf(f, "%s: %llu end(s) without a begin (not counted).\n", s->name,
                    s->ends_without_begin);
        if (s->unterminated)
            fprintf(f, "%s: %llu pass(es) begun and never ended (not counted).\n", s->name,
                    s->unterminated);
        if (s->moved)
            fprintf(f, "%s: %llu pass(es) ended on another CPU than the pass before (TSC_AUX): "
                       "preempted and migrated; they are in the maximum, rarely in p99.\n",
                    s->name, s->moved);
        if (s->negative)
            fprintf(f, "%s: %llu pass(es) whose end was read before its begin (two CPUs' TSCs "
                       "disagree; not counted).\n", s->name, s->negative);
    }
    if (d->dropped_sites)
        fprintf(f, "%llu region call site(s) not measured: the table holds %d regions (first left "
                   "out: \"%s\").\n", (unsigned long long)d->dropped_sites, TKS_REGION_MAX,
                d->first_dropped ? d->first_dropped : "");
    if (d->report_failures)
        fprintf(f, "%llu report(s) could not be written where asked and came here instead.\n",
                (unsigned long long)d->report_failures);
    if (d->alloc_failures)
        fprintf(f, "%llu allocation(s) failed: a thread's regions or a reservoir are missing.\n",
                (unsigned long long)d->alloc_failures);
    for (size_t i = 0; i < d->n_notes; i++)
        fprintf(f, "Note: %s.\n", d->notes[i]);
}

/* One line of the table: a region merged over its threads, or one thread's ("name [thread k]"). */
static int text_row(tks__table *t, const tks__region_report_data *d, const tks__region_row *r)
{
    const tks_region_stats *s = &r->st;
    char b[13][40], name[TKS_REGION_NAME_MAX + 24];
    const char *cells[13];
    if (r->thread)
        snprintf(name, sizeof name, "%s [thread %u]", s->name, r->thread);
    cells[0] = r->thread ? name : s->name;
    cells[1] = tks__fmt_u64(b[1], sizeof b[1], s->passes);
    cells[2] = tks__fmt_u64(b[2], sizeof b[2], s->threads);
    cells[3] = fmt_net(b[3], sizeof b[3], s, s->mean, s->raw_mean, TKS_REGION_BELOW_MEAN);
    cells[4] = fmt(b[4], sizeof b[4], sqrt(s->variance), 1);
    cells[5] = fmt_net(b[5], sizeof b[5], s, s->min, s->raw_min, TKS_REGION_BELOW_MIN);
    cells[6] = fmt_net(b[6], sizeof b[6], s, s->median, s->raw_median, TKS_REGION_BELOW_MEDIAN);
    cells[7] = fmt_net(b[7], sizeof b[7], s, s->p90, s->raw_p90, TKS_REGION_BELOW_P90);
    cells[8] = fmt_net(b[8], sizeof b[8], s, s->p99, s->raw_p99, TKS_REGION_BELOW_P99);
    cells[9] = fmt_net(b[9], sizeof b[9], s, s->max, s->raw_max, TKS_REGION_BELOW_MAX);
    cells[10] = fmt(b[10], sizeof b[10], tks__region_cycles(d, s->mean), 1);
    cells[11] = fmt(b[11], sizeof b[11], tks__region_ns(d, s->mean), 1);
    cells[12] = fmt(b[12], sizeof b[12], tks__region_ns(d, s->total) / 1e6, 3);
    return tks__table_add_row(t, cells);
}

int tks__region_write_text(FILE *f, const tks__region_report_data *d)
{
    static const char *const headers[] = {"region", "passes", "threads", "mean", "sd", "min",
                                           "median", "p90", "p99", "max", "cycles", "ns",
                                           "total ms"};
    tks__table *t = tks__table_new(13, headers, "lrrrrrrrrrrrr");
    int rc = 0;

    if (!t)
        return TKS_ENOMEM;
    text_header(f, d);
    fprintf(f, "Ticks unless marked; cycles and ns are the mean's; median, p90 and p99 need a "
               "reservoir (TICKSCOPE_REGION_RESERVOIR); the maximum is mostly preemption: read "
               "p99 beside it. \"<R (raw X)\": below the resolution R, X as read.\n\n");
    for (size_t i = 0, k = 0; i < d->n_rows && rc == 0; i++) {
        rc = text_row(t, d, &d->rows[i]);
        for (; k < d->n_thread_rows && d->thread_rows[k].region == i && rc == 0; k++)
            rc = text_row(t, d, &d->thread_rows[k]);
    }
    if (rc == 0)
        tks__table_print(t, f, "");
    tks__table_free(t);
    text_problems(f, d);
    tks__region_events_text(f, d); /* event counters */

    for (size_t i = 0; i < d->n_rows && rc == 0 && d->histograms; i++) {
        const tks__region_row *r = &d->rows[i];
        tks__histogram_style style = {0, 0, 0, "  "};
        uint64_t q = d->platform && d->platform->quantum.quantum ? d->platform->quantum.quantum : 1;
        if (!r->kept || !r->n_kept)
            continue;
        fprintf(f, "\n%s: %zu of %llu passes kept, ticks (overhead included)\n", r->st.name,
                r->n_kept, r->st.passes);
        rc = tks__histogram_print(f, r->kept, r->n_kept, q, r->st.raw_median, r->st.raw_mean,
                                 &style);
    }
    if (ferror(f))
        rc = TKS_EIO;
    return rc;
}

/* The figures of TKS_REGION_BELOW_* bit k, as the JSON and CSV name them. */
static const char *const below_names[6] = {"min", "mean", "median", "p90", "p99", "max"};

/* One region object: merged (no "thread") or one thread's ("thread": k). */
static void json_row(tks__json *jp, const tks__region_report_data *d, const tks__region_row *r)
{
    const tks_region_stats *s = &r->st;
    tks__json_begin_object(jp, NULL);
    tks__json_string(jp, "name", s->name);
    if (r->thread)
        tks__json_u64(jp, "thread", r->thread);
    tks__json_string(jp, "method", r->method);
    tks__json_u64(jp, "passes", s->passes);
    tks__json_u64(jp, "threads", s->threads);
    tks__json_double(jp, "overhead_ticks", s->overhead);
    tks__json_double(jp, "mean_ticks", s->mean);
    tks__json_double(jp, "variance_ticks2", s->variance);
    tks__json_double(jp, "sd_ticks", sqrt(s->variance));
    tks__json_double(jp, "min_ticks", s->min);
    tks__json_double(jp, "max_ticks", s->max);
    tks__json_double(jp, "total_ticks", s->total);
    tks__json_double(jp, "raw_total_ticks", s->raw_total);
    tks__json_double(jp, "mean_core_cycles", tks__region_cycles(d, s->mean));
    tks__json_double(jp, "mean_ns", tks__region_ns(d, s->mean));
    tks__json_double(jp, "total_ns", tks__region_ns(d, s->total));
    tks__json_u64(jp, "kept", s->kept);
    tks__json_double(jp, "median_ticks", s->median);
    tks__json_double(jp, "p90_ticks", s->p90);
    tks__json_double(jp, "p99_ticks", s->p99);
    tks__json_double(jp, "raw_mean_ticks", s->raw_mean);
    tks__json_double(jp, "raw_min_ticks", s->raw_min);
    tks__json_double(jp, "raw_median_ticks", s->raw_median);
    tks__json_double(jp, "raw_p90_ticks", s->raw_p90);
    tks__json_double(jp, "raw_p99_ticks", s->raw_p99);
    tks__json_double(jp, "raw_max_ticks", s->raw_max);
    tks__json_double(jp, "resolution_ticks", s->resolution);
    tks__json_begin_array(jp, "below_resolution");
    for (unsigned k = 0; k < 6; k++)
        if (s->below_resolution & (1u << k))
        tks__json_string(jp, NULL, below_names[k]);
    tks__json_end_array(jp);
    tks__json_u64(jp, "ends_without_begin", s->ends_without_begin);
    tks__json_u64(jp, "unterminated", s->unterminated);
    tks__json_u64(jp, "negative", s->negative);
    tks__json_u64(jp, "moved", s->moved);
    tks__region_events_json(jp, d, s); /* event counters */
    tks__json_end_object(jp);
}

int tks__region_write_json(FILE *f, const tks__region_report_data *d)
{
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "report", "tickscope regions");
    tks__json_begin_array(&j, "clock");
    for (size_t i = 0; i < d->n_costs; i++) {
        const tks__region_cost *c = &d->costs[i];
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "method", c->method);
        tks__json_bool(&j, "compiled_in", c->compiled_in);
        tks__json_double(&j, "overhead_ticks", c->ticks);
        tks__json_double(&j, "overhead_median_ticks", c->median);
        tks__json_u64(&j, "overhead_min_ticks", c->min);
        tks__json_u64(&j, "overhead_pairs", c->pairs);
        tks__json_u64(&j, "quantum_ticks", c->quantum);
        tks__json_double(&j, "overhead_spread_ticks", c->spread);
        tks__json_double(&j, "resolution_ticks", c->resolution);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_double(&j, "tsc_hz", d->tsc_hz > 0 ? d->tsc_hz : NAN);
    tks__json_bool(&j, "tsc_hz_given", d->tsc_hz_override);
    tks__json_double(&j, "core_cycles_per_tick", d->cycles_per_tick > 0 ? d->cycles_per_tick : NAN);
    tks__json_bool(&j, "core_cycles_estimate", !(d->platform && d->platform->core.counter));
    tks__json_begin_array(&j, "regions");
    for (size_t i = 0; i < d->n_rows; i++)
        json_row(&j, d, &d->rows[i]);
    tks__json_end_array(&j);
    /* Rows per thread (tks_region_set_per_thread), apart, so that "regions" keeps one object
     * per name. */
    tks__json_begin_array(&j, "per_thread");
    for (size_t i = 0; i < d->n_thread_rows; i++)
        json_row(&j, d, &d->thread_rows[i]);
    tks__json_end_array(&j);
    tks__json_u64(&j, "dropped_call_sites", d->dropped_sites);
    if (d->dropped_sites)
        tks__json_string(&j, "first_dropped", d->first_dropped);
    tks__json_u64(&j, "report_failures", d->report_failures);
    tks__json_u64(&j, "allocation_failures", d->alloc_failures);
    tks__json_begin_array(&j, "notes");
    for (size_t i = 0; i < d->n_notes; i++)
        tks__json_string(&j, NULL, d->notes[i]);
    tks__json_end_array(&j);
    tks__region_events_json_refused(&j, d); /* event counters */
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

/* One CSV line: a region merged ("all" in the thread column) or one thread's (its number). */
static void csv_row(FILE *f, const tks__region_report_data *d, const tks__region_row *r)
{
    const tks_region_stats *s = &r->st;
    tks__csv_field(f, s->name);
    fprintf(f, ",%s,%llu,%u", r->method, s->passes, s->threads);
    tks__csv_next_double(f, s->overhead);
    tks__csv_next_double(f, s->mean);
    tks__csv_next_double(f, sqrt(s->variance));
    tks__csv_next_double(f, s->min);
    tks__csv_next_double(f, s->max);
    tks__csv_next_double(f, s->median);
    tks__csv_next_double(f, s->p90);
    tks__csv_next_double(f, s->p99);
    tks__csv_next_double(f, tks__region_cycles(d, s->mean));
    tks__csv_next_double(f, tks__region_ns(d, s->mean));
    tks__csv_next_double(f, tks__region_ns(d, s->total));
    fprintf(f, ",%zu,%llu,%llu,%llu", s->kept, s->ends_without_begin, s->unterminated,
            s->negative);
    tks__csv_next_double(f, s->resolution);
    fputc(',', f);
    for (unsigned k = 0, first = 1; k < 6; k++)
        if (s->below_resolution & (1u << k)) {
            fprintf(f, "%s%s", first ? "" : " ", below_names[k]);
            first = 0;
        }
    tks__csv_next_double(f, s->raw_min);
    tks__csv_next_double(f, s->raw_mean);
    tks__csv_next_double(f, s->raw_max);
    fprintf(f, ",%llu,", s->moved);
    if (r->thread)
        fprintf(f, "%u", r->thread);
    else
        fputs("all", f);
    tks__region_events_csv_row(f, d, s); /* event counters */
    fputc('\n', f);
}

int tks__region_write_csv(FILE *f, const tks__region_report_data *d)
{
    fputs("region,method,passes,threads,overhead_ticks,mean_ticks,sd_ticks,min_ticks,max_ticks,"
          "median_ticks,p90_ticks,p99_ticks,mean_core_cycles,mean_ns,total_ns,kept,"
          "ends_without_begin,unterminated,negative,resolution_ticks,below_resolution,"
          "raw_min_ticks,raw_mean_ticks,raw_max_ticks,moved,thread", f);
    tks__region_events_csv_header(f, d); /* event counters */
    fputc('\n', f);
    for (size_t i = 0, k = 0; i < d->n_rows; i++) {
        csv_row(f, d, &d->rows[i]);
        for (; k < d->n_thread_rows && d->thread_rows[k].region == i; k++)
            csv_row(f, d, &d->thread_rows[k]);
    }
    return ferror(f) ? TKS_EIO : 0;
}
