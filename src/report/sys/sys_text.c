/* SPDX-License-Identifier: MIT */
/* sys_text.c: `tickscope sys` as console tables and Markdown: one table per suite (operation,
 * ticks with the interval, core cycles, ns, GB/s), then what each row holds, its warnings, and
 * for the mem suite the curve beside the levels /sys declares. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/bytes_text.h"
#include "report/sys/sys_report.h"

/* Decimals that suit a value: 3 below 10, 1 below 1000, none above; an interval's bounds take
 * their value's, so they line up with it. */
static int decimals(double v) { return fabs(v) < 10 ? 3 : fabs(v) < 1000 ? 1 : 0; }

static char *num_d(char *buf, size_t size, double v, int d)
{
    if (isnan(v))
        return snprintf(buf, size, "-"), buf;
    return tks__fmt_double(buf, size, v, d);
}

static char *num(char *buf, size_t size, double v) { return num_d(buf, size, v, decimals(v)); }

static void row_cells(const tks_sys_op *op, char cells[7][80])
{
    char a[32], b[32];
    snprintf(cells[0], 80, "%s%s", op->id, op->derived ? "*" : "");
    if (!op->ok) {
        for (int i = 1; i < 7; i++)
            snprintf(cells[i], 80, "-");
        snprintf(cells[6], 80, "%s", op->unavailable ? "not on this machine" : "not measured");
        return;
    }
    num(cells[1], 80, op->ticks.value);
    snprintf(cells[2], 80, "[%s, %s]", num_d(a, sizeof a, op->ticks.lo, decimals(op->ticks.value)),
             num_d(b, sizeof b, op->ticks.hi, decimals(op->ticks.value)));
    num(cells[3], 80, op->cycles.value);
    num(cells[4], 80, op->ns.value);
    if (op->gb_per_s > 0)
        num(cells[5], 80, op->gb_per_s);
    else
        snprintf(cells[5], 80, "-");
    snprintf(cells[6], 80, "%.63s", op->what);
}

static void curve_text(const tks_sys_result *r, FILE *f, int md)
{
    char a[32], b[32], c[32], d[32];
    if (r->n_caches) {
        fprintf(f, "%sLevels from /sys:", md ? "\n" : "\n");
        for (size_t i = 0; i < r->n_caches; i++)
            fprintf(f, " L%d %s %s%s", r->caches[i].level, r->caches[i].type,
                    tks__fmt_bytes(a, sizeof a, r->caches[i].bytes), i + 1 < r->n_caches ? ";" : "");
        fputc('\n', f);
    }
    fprintf(f, "%sKnees of the curve (last working set before the cost doubles):", md ? "\n" : "");
    if (!r->n_knees)
        fputs(" none found", f);
    for (size_t i = 0; i < r->n_knees; i++)
        fprintf(f, " %s%s", tks__fmt_bytes(a, sizeof a, r->knees[i]), i + 1 < r->n_knees ? "," : "");
    fputc('\n', f);
    if (!r->n_curve)
        return;
    fprintf(f, "\n%s", md ? "| working set | core cycles | ticks | interval | huge pages, cycles |\n"
                            "| ---: | ---: | ---: | --- | ---: |\n"
                          : "  working set  core cycles     ticks  interval              huge pages\n");
    for (size_t i = 0; i < r->n_curve; i++) {
        const tks_sys_curve_point *pt = &r->curve[i];
        char iv[80];
        snprintf(iv, sizeof iv, "[%s, %s]", num_d(c, sizeof c, pt->lo, decimals(pt->ticks)),
                 num_d(d, sizeof d, pt->hi, decimals(pt->ticks)));
        if (md)
            fprintf(f, "| %s | %s | %s | %s | %s |\n", tks__fmt_bytes(a, sizeof a, pt->bytes),
                    num(b, sizeof b, pt->cycles), num(c, sizeof c, pt->ticks), iv,
                    num(d, sizeof d, pt->cycles_huge));
        else
            fprintf(f, "  %11s  %11s  %8s  %-20s  %10s\n", tks__fmt_bytes(a, sizeof a, pt->bytes),
                    num(b, sizeof b, pt->cycles), num(c, sizeof c, pt->ticks), iv,
                    num(d, sizeof d, pt->cycles_huge));
    }
}

static void notes(const tks_sys_result *r, FILE *f, const char *bullet)
{
    for (size_t i = 0; i < r->n_ops; i++) {
        const tks_sys_op *op = &r->ops[i];
        if (!op->ok)
            fprintf(f, "%s%s: %s: %s\n", bullet, op->id,
                    op->unavailable ? "not on this machine" : "not measured", op->error);
        tks__diags_print(f, &op->diags, bullet, op->id);
    }
    tks__diags_print(f, &r->diags, bullet, NULL);
}

static const char *const hdr[] = {"operation", "ticks", "95% interval", "core cycles", "ns",
                                  "GB/s", "what"};
#define SYS_ALIGN "lrlrrrl"

/* The line above a suite's table; its duration when known (seconds < 0: still running). */
static void heading(FILE *f, enum tks_sys_suite s, double seconds)
{
    char took[32] = "";
    if (seconds >= 0)
        snprintf(took, sizeof took, " (%.1f s)", seconds);
    fprintf(f, "== %s%s: per operation, the empty window subtracted; * = derived from other "
               "rows; intervals within this run\n\n", tks_sys_suite_name(s), took);
}

/* Below the table: what the rows hold, their warnings, and (mem) the curve. */
static void tail(const tks_sys_result *r, FILE *f)
{
    fputc('\n', f);
    notes(r, f, "");
    if (r->suite == TKS_SYS_MEM)
        curve_text(r, f, 0);
    fputc('\n', f);
}

static int add_op(tks__table *t, const tks_sys_op *op, int stream)
{
    char cells[7][80];
    const char *ptrs[7];
    row_cells(op, cells);
    for (int c = 0; c < 7; c++)
        ptrs[c] = cells[c];
    return stream ? tks__table_stream_row(t, ptrs) : tks__table_add_row(t, ptrs);
}

void tks__report_sys_text(const tks_sys_result *r, FILE *f)
{
    tks__table *t = tks__table_new(7, hdr, SYS_ALIGN);
    heading(f, r->suite, r->seconds);
    if (t) {
        for (size_t i = 0; i < r->n_ops; i++)
            add_op(t, &r->ops[i], 0);
        tks__table_print(t, f, "");
        tks__table_free(t);
    }
    tail(r, f);
}

int tks__sys_stream_begin(tks__sys_stream *s, FILE *f, const tks_platform *p)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    s->columns = tks__term_columns_of(f);
    tks__report_units(p, f);
    fflush(f);
    return ferror(f) ? TKS_EIO : 0;
}

int tks__sys_stream_suite(tks__sys_stream *s, enum tks_sys_suite suite)
{
    /* the ids are known before they are measured; the figures get what a typical row needs */
    size_t planned[7] = {0, 8, 20, 11, 8, 6, 0};
    const char *const *ids;
    size_t n = tks_sys_operations(suite, &ids);
    for (size_t i = 0; i < n; i++)
        planned[0] = strlen(ids[i]) + 1 > planned[0] ? strlen(ids[i]) + 1 : planned[0];
    tks__table_free(s->t);
    if (!(s->t = tks__table_new(7, hdr, SYS_ALIGN)))
        return TKS_ENOMEM;
    tks__progress_erase();
    heading(s->f, suite, -1);
    return tks__table_stream(s->t, s->f, "", s->columns, planned);
}

void tks__sys_stream_row(void *ctx, const tks_sys_op *op)
{
    tks__sys_stream *s = ctx;
    if (!s->t)
        return;
    tks__progress_erase();
    add_op(s->t, op, 1);
}

int tks__sys_stream_suite_end(tks__sys_stream *s, const tks_sys_result *r)
{
    tks__table_free(s->t);
    s->t = NULL;
    if (r)
        tail(r, s->f);
    fflush(s->f);
    return ferror(s->f) ? TKS_EIO : 0;
}

void tks__report_sys_markdown(const tks_sys_result *r, FILE *f)
{
    char cells[7][80]; /* the same cells as the console's */
    fprintf(f, "## %s\n\nPer operation, the empty window subtracted; * = derived from other "
               "rows; intervals within this run. %.1f s.\n\n| operation | ticks | 95%% interval | core cycles | ns | GB/s | what |\n"
               "| --- | ---: | --- | ---: | ---: | ---: | --- |\n",
            tks_sys_suite_name(r->suite), r->seconds);
    for (size_t i = 0; i < r->n_ops; i++) {
        row_cells(&r->ops[i], cells);
        fprintf(f, "| `%s` | %s | %s | %s | %s | %s | %s |\n", cells[0], cells[1], cells[2],
                cells[3], cells[4], cells[5], cells[6]);
    }
    fputc('\n', f);
    notes(r, f, "- ");
    if (r->suite == TKS_SYS_MEM)
        curve_text(r, f, 1);
    fputc('\n', f);
}

void tks__report_sys_perf_text(const tks_sys_perf_row *rows, size_t n, int md, FILE *f)
{
    char a[32], b[32], c[32], d[32], all[96], alt[96], runs[96], between[64];
    fprintf(f, md ? "## versus perf bench\n\n| perf bench | perf | ours | row | gap | compared | why |\n"
                    "| --- | ---: | ---: | --- | ---: | --- | --- |\n"
                  : "== versus perf bench (same machine, same run)\n\n");
    for (size_t i = 0; i < n; i++) {
        const tks_sys_perf_row *x = &rows[i];
        const char *like = strcmp(x->unit, "us/op")             ? "no target"
                           : x->like_for_like ? "like for like"
                                              : "placement differs";
        char gap[32];
        if (!x->ok) {
            fprintf(f, md ? "| %s | - | - | `%s` | - | - | %s |\n" : "  %-28s  not run: %s%s\n",
                    x->what, md ? x->ours_id : x->error, md ? x->error : "");
            continue;
        }
        snprintf(gap, sizeof gap, isnan(x->gap) ? "-" : "%+.1f%%", 100 * x->gap);
        all[0] = alt[0] = runs[0] = 0;
        if (!isnan(x->gap_all))
            snprintf(all, sizeof all, "; every window %s, %+.1f%%",
                     num(c, sizeof c, x->ours_all_value), 100 * x->gap_all);
        if (x->alt_id[0] && !isnan(x->alt_value))
            snprintf(alt, sizeof alt, "; %s %s", x->alt_id, num(d, sizeof d, x->alt_value));
        if (x->perf_runs > 1)
            snprintf(runs, sizeof runs, " (median of %d, %s to %s)", x->perf_runs,
                     num(c, sizeof c, x->perf_lo), num(d, sizeof d, x->perf_hi));
        if (x->ours_runs > 0)
            snprintf(between, sizeof between, ", median of %d between perf's runs", x->ours_runs);
        else
            between[0] = 0;
        if (md)
            fprintf(f, "| %s | %s %s%s | %s%s%s%s | `%s` | %s | %s | ", x->what,
                    num(a, sizeof a, x->perf_value), x->unit, runs, num(b, sizeof b, x->ours_value),
                    between, all, alt, x->ours_id, gap, like);
        else
            fprintf(f, "  %-28s  perf %8s %s%s  ours %8s (%s%s) %s%s%s%s%s%s", x->what,
                    num(a, sizeof a, x->perf_value), x->unit, runs, num(b, sizeof b, x->ours_value),
                    x->ours_id, between, gap, like[0] ? ", " : "", like, all, alt,
                    x->diags.n ? ": " : "");
        tks__diags_join(f, &x->diags, "; "); /* why, from what this run measured */
        fputs(md ? " |\n" : "\n", f);
    }
    fputc('\n', f);
}
