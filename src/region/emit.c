/* SPDX-License-Identifier: MIT */
/* emit.c: the region report gathered under the lock and written where the settings say. The
 * report is what the user asked for, so this file prints it (and, once, that a file failed). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region/internal.h"
#include "report/region/region_report.h"
#include "report/common/report.h"

static const char *method_name(int m)
{
    const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
    return mi ? mi->name : "?";
}

/* report_lock held. */
static void probe_platform(tks__region_ctx *ctx)
{
    tks_platform_options o;
    if (ctx->platform_tried)
        return;
    ctx->platform_tried = 1;
    ctx->platform = malloc(sizeof *ctx->platform);
    if (!ctx->platform)
        return;
    tks_platform_options_init(&o);
    if (tks_platform_probe(&o, ctx->platform) != 0) {
        free(ctx->platform);
        ctx->platform = NULL;
    }
}

double tks__region_measured_hz(tks__region_ctx *ctx)
{
    double hz;
    pthread_mutex_lock(&ctx->report_lock);
    probe_platform(ctx);
    hz = ctx->platform ? ctx->platform->tsc_hz : 0;
    pthread_mutex_unlock(&ctx->report_lock);
    return hz;
}

static int write_to(FILE *f, int format, const tks__region_report_data *d)
{
    return tks__writers_write(&tks__region_writers, format, f, d);
}

/* Write to dest; a file that cannot be written sends the report to stderr, said once (report_lock
 * held). */
static int deliver(tks__region_ctx *ctx, const char *dest, int format, tks__region_report_data *d)
{
    tks__atomic_file af;
    char msg[PATH_MAX + 200];
    int rc;
    if (strcmp(dest, "stderr") == 0)
        return write_to(stderr, format, d) == 0 && fflush(stderr) == 0 ? 0 : TKS_EIO;
    if (strcmp(dest, "stdout") == 0)
        dest = "-";
    rc = tks__atomic_open(&af, dest);
    if (rc == 0) {
        rc = write_to(af.f, format, d);
        if (rc == 0)
            rc = tks__atomic_commit(&af);
    }
    if (rc == 0)
        return 0;
    tks__atomic_failure(&af, rc, dest, msg, sizeof msg); /* aborts af if still open */
    if (ctx->report_failures++ == 0)
        fprintf(stderr, "tickscope: the region report: %s; it goes to stderr instead (said once)\n",
                msg);
    d->report_failures = ctx->report_failures;
    write_to(stderr, format, d);
    fflush(stderr);
    return TKS_EIO;
}

/* One row per thread block that used a region, under each region, blocks numbered in the order
 * they were made (lock held). *out: allocated (free it and each row's kept); 0 or TKS_ENOMEM. */
static int thread_rows(tks__region_ctx *ctx, const tks__region_row *merged, tks__region_row **out,
                       size_t *n_out)
{
    const tks__region_registry *reg = &ctx->reg;
    const struct tks__region_thread *blocks[1024];
    size_t nb = 0, w = 0;
    tks__region_row *rows;
    for (const struct tks__region_thread *t = reg->threads; t && nb < 1024; t = t->next)
        blocks[nb++] = t;
    *out = NULL;
    *n_out = 0;
    if (!reg->n || !nb)
        return 0;
    rows = calloc(reg->n * nb, sizeof *rows);
    if (!rows)
        return TKS_ENOMEM;
    for (size_t i = 0; i < reg->n; i++)
        for (size_t b = nb; b-- > 0;) { /* the list is newest first */
            const struct tks__region_slot *sl = &blocks[b]->slot[i + 1];
            uint64_t *kept;
            if (!__atomic_load_n(&sl->threads, __ATOMIC_RELAXED))
                continue; /* never set up on a thread of this block */
            tks__region_collect(ctx, i, blocks[b], &rows[w].st, &kept, &rows[w].n_kept);
            rows[w].kept = kept;
            rows[w].method = merged[i].method;
            rows[w].method_compiled_in = merged[i].method_compiled_in;
            rows[w].thread = (unsigned)(nb - b);
            rows[w].region = i;
            w++;
        }
    *out = rows;
    *n_out = w;
    return 0;
}

int tks__region_report(tks__region_ctx *ctx, const char *out, int format)
{
    const tks__region_config *cfg = &ctx->cfg;
    const tks__region_registry *reg = &ctx->reg;
    char dest[TKS__REGION_OUT_MAX];
    tks__region_row *rows = NULL, *trows = NULL;
    size_t n_trows = 0;
    tks__region_cost costs[TKS_METHOD_COUNT + 1];
    const char *notes[TKS__REGION_NOTES], *event_names[TKS_REGION_EVENTS_MAX];
    char first_dropped[TKS_REGION_NAME_MAX];
    tks__region_report_data d;
    size_t n;
    int rc = 0;

    pthread_mutex_lock(&ctx->report_lock);
    probe_platform(ctx);
    memset(&d, 0, sizeof d);

    pthread_mutex_lock(&ctx->lock);
    snprintf(dest, sizeof dest, "%s",
             out ? out : cfg->out_env[0] ? cfg->out_env : cfg->out_api[0] ? cfg->out_api : "stderr");
    if (format < 0)
        format = cfg->format_env >= 0   ? cfg->format_env
                 : cfg->format_api >= 0 ? cfg->format_api
                                        : TKS_REGION_TEXT;
    n = reg->n;
    rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) {
        pthread_mutex_unlock(&ctx->lock);
        pthread_mutex_unlock(&ctx->report_lock);
        return TKS_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t *kept;
        int m = reg->method[i];
        tks__region_collect(ctx, i, NULL, &rows[i].st, &kept, &rows[i].n_kept);
        rows[i].kept = kept;
        rows[i].method = method_name(tks__region_effective_method(ctx, m));
        rows[i].method_compiled_in = m >= 0;
    }
    if ((cfg->per_thread_env >= 0 ? cfg->per_thread_env : cfg->per_thread_api > 0) &&
        thread_rows(ctx, rows, &trows, &n_trows) != 0)
        tks__region_note(ctx, "the rows per thread could not be made (out of memory)");
    for (int m = -1; m < (int)TKS_METHOD_COUNT; m++) {
        const tks__region_overhead_est *e = tks__region_overhead_of(ctx, m);
        if (!e)
            continue;
        costs[d.n_costs].method = method_name(tks__region_effective_method(ctx, m));
        costs[d.n_costs].compiled_in = m >= 0;
        costs[d.n_costs].ticks = e->ticks;
        costs[d.n_costs].median = e->median;
        costs[d.n_costs].min = e->min;
        costs[d.n_costs].pairs = e->pairs;
        costs[d.n_costs].quantum = e->quantum;
        costs[d.n_costs].spread = e->spread;
        costs[d.n_costs].resolution = e->resolution;
        d.n_costs++;
    }
    for (size_t i = 0; i < reg->n_notes; i++)
        notes[i] = reg->notes[i];
    d.n_notes = reg->n_notes;
    d.dropped_sites = reg->dropped_sites;
    snprintf(first_dropped, sizeof first_dropped, "%s", reg->first_dropped);
    d.first_dropped = first_dropped;
    d.alloc_failures = reg->alloc_failures;
    d.tsc_hz_override = cfg->tsc_hz_api > 0;
    d.tsc_hz = cfg->tsc_hz_api > 0 ? cfg->tsc_hz_api : ctx->platform ? ctx->platform->tsc_hz : 0;
    for (size_t i = 0; i < ctx->n_event_names; i++) /* event counters */
        event_names[i] = ctx->event_names[i];
    d.event_names = event_names;
    d.n_event_names = ctx->n_event_names;
    d.events_diags = &ctx->events_diags;
    pthread_mutex_unlock(&ctx->lock);

    d.rows = rows;
    d.n_rows = n;
    d.thread_rows = trows;
    d.n_thread_rows = n_trows;
    d.costs = costs;
    d.notes = notes;
    d.platform = ctx->platform;
    d.cycles_per_tick = ctx->platform ? tks_core_cycles_per_tick(ctx->platform) : 0;
    d.report_failures = ctx->report_failures;
    d.histograms = 1;
    if (strcmp(dest, "none") != 0)
        rc = deliver(ctx, dest, format, &d);

    for (size_t i = 0; i < n; i++)
        free((void *)rows[i].kept);
    for (size_t i = 0; i < n_trows; i++)
        free((void *)trows[i].kept);
    free(rows);
    free(trows);
    pthread_mutex_unlock(&ctx->report_lock);
    return rc;
}
