/* SPDX-License-Identifier: MIT */
/* paired_formats.c: the writer table of a paired comparison (tks_main --compare A,B), and its
 * CSV writer: one row, the members of the JSON's "paired" object, the diagnostics' codes last. */
#include "report/bench/paired_report.h"

static void ratio_csv(FILE *f, const tks_interval *q)
{
    tks__csv_next_double(f, q->value);
    tks__csv_next_double(f, q->lo);
    tks__csv_next_double(f, q->hi);
}

static int paired_csv(FILE *f, const void *doc)
{
    const tks_paired_result *r = ((const tks__paired_doc *)doc)->r;
    fputs("a,b,blocks,cpu,seconds,a_ticks,b_ticks,a_core_cycles,b_core_cycles,a_ns,b_ns,"
          "ratio_ticks,ratio_ticks_lo,ratio_ticks_hi,ratio_core_cycles,ratio_core_cycles_lo,"
          "ratio_core_cycles_hi,ratio_ns,ratio_ns_lo,ratio_ns_hi,threshold,verdict,verdict_unit,"
          "diagnostics\n", f);
    tks__csv_field(f, r->a);
    fputc(',', f);
    tks__csv_field(f, r->b);
    fprintf(f, ",%zu,%d", r->blocks, r->cpu);
    tks__csv_next_double(f, r->seconds);
    tks__csv_next_double(f, r->a_ticks);
    tks__csv_next_double(f, r->b_ticks);
    tks__csv_next_double(f, r->a_core);
    tks__csv_next_double(f, r->b_core);
    tks__csv_next_double(f, r->a_ns);
    tks__csv_next_double(f, r->b_ns);
    ratio_csv(f, &r->ratio_ticks);
    ratio_csv(f, &r->ratio_core);
    ratio_csv(f, &r->ratio_ns);
    tks__csv_next_double(f, r->threshold);
    fprintf(f, ",%s,%s,", tks_verdict_name(r->verdict), r->verdict_core ? "core_cycles" : "ticks");
    tks__csv_diag_codes(f, &r->diags);
    fputc('\n', f);
    return ferror(f) ? TKS_EIO : 0;
}

static int paired_console(FILE *f, const void *doc)
{
    const tks__paired_doc *d = doc;
    return tks__paired_console(f, d->r, d->o);
}

static int paired_markdown(FILE *f, const void *doc)
{
    const tks__paired_doc *d = doc;
    return tks__paired_markdown(f, d->r, d->o);
}

static int paired_json(FILE *f, const void *doc)
{
    const tks__paired_doc *d = doc;
    return tks__paired_json(f, d->r, d->o, d->p, d->prog);
}

TKS__WRITERS(tks__paired_writers, "--compare", {TKS_FORMAT_CONSOLE, paired_console},
             {TKS_FORMAT_JSON, paired_json}, {TKS_FORMAT_CSV, paired_csv},
             {TKS_FORMAT_MARKDOWN, paired_markdown});
