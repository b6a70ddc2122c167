/* SPDX-License-Identifier: MIT */
/* region_events_report.c: the regions' event counters (TICKSCOPE_REGION_COUNTERS) in each
 * format: events per pass with their 95% intervals, a line per region under the text table, an
 * "events" array in each region's JSON object, columns after the CSV's, and the refusals as
 * coded diagnostics (the text's lines, the JSON's "diagnostics"). */
#include <math.h>
#include <stdio.h>

#include "report/region/region_report.h"

void tks__region_events_text(FILE *f, const tks__region_report_data *d)
{
    if (!d->n_event_names)
        return;
    for (size_t i = 0; i < d->n_rows; i++) {
        const tks_region_stats *s = &d->rows[i].st;
        fprintf(f, "%s: events per pass [95%%]:", s->name);
        for (size_t e = 0; e < s->n_events && e < d->n_event_names; e++)
            if (isfinite(s->events[e]))
                fprintf(f, "%s %s %.4g [%.4g, %.4g]", e ? "," : "", d->event_names[e],
                        s->events[e], s->events_lo[e], s->events_hi[e]);
            else
                fprintf(f, "%s %s not counted", e ? "," : "", d->event_names[e]);
        fputc('\n', f);
    }
    if (d->events_diags)
        tks__diags_print(f, d->events_diags, "", NULL);
}

void tks__region_events_json(tks__json *j, const tks__region_report_data *d,
                             const tks_region_stats *st)
{
    if (!d->n_event_names)
        return;
    tks__json_begin_array(j, "events");
    for (size_t e = 0; e < st->n_events && e < d->n_event_names; e++) {
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", d->event_names[e]);
        tks__json_bool(j, "counted", isfinite(st->events[e]));
        tks__json_double(j, "per_pass", st->events[e]);
        tks__json_range(j, "per_pass_ci", st->events_lo[e], st->events_hi[e]);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
}

void tks__region_events_json_refused(tks__json *j, const tks__region_report_data *d)
{
    if (d->n_event_names && d->events_diags)
        tks__json_diags(j, d->events_diags);
}

void tks__region_events_csv_header(FILE *f, const tks__region_report_data *d)
{
    for (size_t e = 0; e < d->n_event_names; e++) {
        static const char *const suffix[] = {"", "_lo", "_hi"};
        for (size_t k = 0; k < 3; k++) {
            char col[80];
            snprintf(col, sizeof col, "%s%s", d->event_names[e], suffix[k]);
            fputc(',', f);
            tks__csv_field(f, col);
        }
    }
}

void tks__region_events_csv_row(FILE *f, const tks__region_report_data *d,
                                const tks_region_stats *st)
{
    for (size_t e = 0; e < d->n_event_names; e++) {
        int have = e < st->n_events;
        tks__csv_next_double(f, have ? st->events[e] : NAN);
        tks__csv_next_double(f, have ? st->events_lo[e] : NAN);
        tks__csv_next_double(f, have ? st->events_hi[e] : NAN);
    }
}
