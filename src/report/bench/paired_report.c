/* SPDX-License-Identifier: MIT */
/* paired_report.c: a paired comparison as a console table (one row per unit: A, B, B/A and its
 * interval) with the verdict in words, as Markdown, and as JSON. */
#include "report/bench/paired_report.h"

#include <math.h>
#include <string.h>

#include "report/common/report.h"

static const char *mode_name(const tks_options *o)
{
    return o->mode == TKS_MODE_THROUGHPUT ? "throughput" : "latency";
}

/* "B is slower than A by 1.04% (95% interval 0.89% to 1.19%)" and the like. */
static void sentence(char *buf, size_t size, const tks_paired_result *r)
{
    const tks_interval *q = r->verdict_core ? &r->ratio_core : &r->ratio_ticks;
    const char *unit = r->verdict_core ? "core cycles" : "ticks";
    double c = 100 * (q->value - 1), lo = 100 * (q->lo - 1), hi = 100 * (q->hi - 1);
    switch (r->verdict) {
    case TKS_VERDICT_SLOWER:
    case TKS_VERDICT_FASTER:
        snprintf(buf, size, "%s is %s than %s by %.2f%% in %s (95%% interval %+.2f%% to %+.2f%%).",
                 r->b, r->verdict == TKS_VERDICT_SLOWER ? "slower" : "faster", r->a, fabs(c), unit,
                 lo, hi);
        break;
    case TKS_VERDICT_INDISTINGUISHABLE:
        snprintf(buf, size, "%s and %s are indistinguishable: B/A - 1 = %+.2f%% in %s, 95%% "
                 "interval %+.2f%% to %+.2f%%, within +-%.2f%%.", r->a, r->b, c, unit, lo, hi,
                 100 * r->threshold);
        break;
    default:
        snprintf(buf, size, "inconclusive: B/A - 1 = %+.2f%% in %s, 95%% interval %+.2f%% to "
                 "%+.2f%%, holds no change and reaches past +-%.2f%%: give it more time "
                 "(--min-time) or quiet the machine.", c, unit, lo, hi, 100 * r->threshold);
    }
}

static void ratio_cell(char *buf, size_t size, const tks_interval *q)
{
    if (isfinite(q->value))
        snprintf(buf, size, "%.4f  [%.4f, %.4f]", q->value, q->lo, q->hi);
    else
        snprintf(buf, size, "-");
}

/* issue 26: the work counters both set, A, B and B/A, after the times' table; Markdown's
 * cells when md. */
static void counters(FILE *f, const tks_paired_result *r, int md)
{
    if (!r->n_counters)
        return;
    fputs(md ? "\n| work counter | A | B | B/A | A per cycle | B per cycle |\n|---|--:|--:|--:|--:|--:|\n"
             : "\nWork counters (each side's mean over its runs; a rate per second, and per core cycle):\n",
          f);
    for (size_t k = 0; k < r->n_counters; k++) {
        const tks_paired_counter *c = &r->counters[k];
        double q = c->a != 0 ? c->b / c->a : NAN;
        if (md)
            fprintf(f, "| %s | %.5g | %.5g | %.4f | %.4g | %.4g |\n", c->name, c->a, c->b, q,
                    c->a_per_cycle, c->b_per_cycle);
        else
            fprintf(f, "  %s: A %.5g, B %.5g, B/A %.4f%s", c->name, c->a, c->b, q,
                    isfinite(c->a_per_cycle) ? "" : "\n");
        if (!md && isfinite(c->a_per_cycle))
            fprintf(f, " (per core cycle: A %.4g, B %.4g)\n", c->a_per_cycle, c->b_per_cycle);
    }
}

/* The event counters both counted: each side's mean count per iteration, and B/A. */
static void events(FILE *f, const tks_paired_result *r, int md)
{
    if (!r->n_events)
        return;
    fputs(md ? "\n| event counter | A | B | B/A |\n|---|--:|--:|--:|\n"
             : "\nEvent counters (each side's mean count per iteration over its runs):\n", f);
    for (size_t k = 0; k < r->n_events; k++) {
        const tks_paired_counter *c = &r->events[k];
        double q = c->a != 0 ? c->b / c->a : NAN;
        fprintf(f, md ? "| %s | %.5g | %.5g | %.4f |\n" : "  %s: A %.5g, B %.5g, B/A %.4f\n",
                c->name, c->a, c->b, q);
    }
}

static void events_json(tks__json *j, const tks_paired_result *r)
{
    tks__json_begin_array(j, "event_counters");
    for (size_t k = 0; k < r->n_events; k++) {
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", r->events[k].name);
        tks__json_double(j, "a", r->events[k].a);
        tks__json_double(j, "b", r->events[k].b);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
}

static void counters_json(tks__json *j, const tks_paired_result *r)
{
    tks__json_begin_array(j, "counters");
    for (size_t k = 0; k < r->n_counters; k++) {
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "name", r->counters[k].name);
        tks__json_double(j, "a", r->counters[k].a);
        tks__json_double(j, "b", r->counters[k].b);
        tks__json_double(j, "a_per_cycle", r->counters[k].a_per_cycle);
        tks__json_double(j, "b_per_cycle", r->counters[k].b_per_cycle);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
}

int tks__paired_console(FILE *f, const tks_paired_result *r, const tks_options *o)
{
    static const char *const hdr[] = {"unit", "A", "B", "B/A  [95% interval]"};
    const char *units[3] = {"core cycles", "ticks", "ns"};
    const double av[3] = {r->a_core, r->a_ticks, r->a_ns}, bv[3] = {r->b_core, r->b_ticks, r->b_ns};
    const tks_interval *q[3] = {&r->ratio_core, &r->ratio_ticks, &r->ratio_ns};
    tks__table *t = tks__table_new(4, hdr, "lrrl");
    char words[600];
    if (!t)
        return TKS_ENOMEM;
    fprintf(f, "Paired comparison: A = %s, B = %s; %zu blocks of A B B A or B A A B at random, "
               "on CPU %d, %s mode, %.2f s.\n",
            r->a, r->b, r->blocks, r->cpu, mode_name(o), r->seconds);
    fprintf(f, "Each run's figure is its headline estimate per execution (%s); B/A is the "
               "geometric mean of the blocks' ratios, its interval from their paired differences.\n\n",
            o->mode == TKS_MODE_THROUGHPUT ? "the slope" : "the phase-averaged mean");
    for (int u = 0; u < 3; u++) {
        char a[40], b[40], c[80];
        const char *cells[4];
        if (!isfinite(av[u]))
            continue;
        snprintf(a, sizeof a, "%.4f", av[u]);
        snprintf(b, sizeof b, "%.4f", bv[u]);
        ratio_cell(c, sizeof c, q[u]);
        cells[0] = units[u], cells[1] = a, cells[2] = b, cells[3] = c;
        tks__table_add_row(t, cells);
    }
    tks__table_print(t, f, "");
    tks__table_free(t);
    counters(f, r, 0);
    events(f, r, 0);
    sentence(words, sizeof words, r);
    fprintf(f, "\nVerdict: %s\n", words);
    tks__diags_print(f, &r->diags, "", NULL);
    return ferror(f) ? TKS_EIO : 0;
}

int tks__paired_markdown(FILE *f, const tks_paired_result *r, const tks_options *o)
{
    const char *units[3] = {"core cycles", "ticks", "ns"};
    const double av[3] = {r->a_core, r->a_ticks, r->a_ns}, bv[3] = {r->b_core, r->b_ticks, r->b_ns};
    const tks_interval *q[3] = {&r->ratio_core, &r->ratio_ticks, &r->ratio_ns};
    char words[600];
    fprintf(f, "**Paired comparison**: A = `%s`, B = `%s` (%zu ABBA blocks, CPU %d, %s mode)\n\n",
            r->a, r->b, r->blocks, r->cpu, mode_name(o));
    fputs("| unit | A | B | B/A | 95% interval |\n|---|--:|--:|--:|---|\n", f);
    for (int u = 0; u < 3; u++)
        if (isfinite(av[u]))
            fprintf(f, "| %s | %.4f | %.4f | %.4f | [%.4f, %.4f] |\n", units[u], av[u], bv[u],
                    q[u]->value, q[u]->lo, q[u]->hi);
    counters(f, r, 1);
    events(f, r, 1);
    sentence(words, sizeof words, r);
    fprintf(f, "\n**%s**: %s\n", tks_verdict_name(r->verdict), words);
    tks__diags_markdown(f, &r->diags);
    return ferror(f) ? TKS_EIO : 0;
}

static void ratio_json(tks__json *j, const char *key, const tks_interval *q)
{
    tks__json_begin_object(j, key);
    tks__json_double(j, "value", q->value);
    tks__json_begin_array(j, "ci");
    tks__json_double(j, NULL, q->lo);
    tks__json_double(j, NULL, q->hi);
    tks__json_end_array(j);
    tks__json_end_object(j);
}

int tks__paired_json(FILE *f, const tks_paired_result *r, const tks_options *o,
                     const tks_platform *p, const char *prog)
{
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_begin_object(&j, "context");
    tks__json_string(&j, "executable", prog);
    tks__json_string(&j, "mode", mode_name(o));
    tks__report_platform_json(&j, p);
    tks__json_end_object(&j);
    tks__json_begin_object(&j, "paired");
    tks__json_string(&j, "a", r->a);
    tks__json_string(&j, "b", r->b);
    tks__json_u64(&j, "blocks", r->blocks);
    tks__json_i64(&j, "cpu", r->cpu);
    tks__json_double(&j, "seconds", r->seconds);
    tks__json_double(&j, "a_ticks", r->a_ticks);
    tks__json_double(&j, "b_ticks", r->b_ticks);
    tks__json_double(&j, "a_core_cycles", r->a_core);
    tks__json_double(&j, "b_core_cycles", r->b_core);
    tks__json_double(&j, "a_ns", r->a_ns);
    tks__json_double(&j, "b_ns", r->b_ns);
    ratio_json(&j, "ratio_ticks", &r->ratio_ticks);
    ratio_json(&j, "ratio_core_cycles", &r->ratio_core);
    ratio_json(&j, "ratio_ns", &r->ratio_ns);
    tks__json_double(&j, "threshold", r->threshold);
    tks__json_string(&j, "verdict", tks_verdict_name(r->verdict));
    tks__json_string(&j, "verdict_unit", r->verdict_core ? "core_cycles" : "ticks");
    counters_json(&j, r);
    events_json(&j, r);
    tks__json_diags(&j, &r->diags);
    tks__json_end_object(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}
