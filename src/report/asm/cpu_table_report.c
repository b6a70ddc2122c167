/* SPDX-License-Identifier: MIT */
/* cpu_table_report.c: the instruction table of the CPU at hand (`tickscope asm --table`) as a
 * console table, CSV (what the cache holds and --diff reads), JSON and an XML laid out like
 * uops.info's instructions.xml; and two tables compared (--diff). */
#include "report/asm/asm_report.h"
#include "report/machine/analysis_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void interval(char *buf, size_t size, const tks__asm_entry *e)
{
    if (e->res.rc)
        snprintf(buf, size, "error: %.120s", e->res.error);
    else if (isfinite(e->res.cycles.value))
        snprintf(buf, size, "%.3f [%.3f, %.3f]", e->res.cycles.value, e->res.cycles.lo,
                 e->res.cycles.hi);
    else
        snprintf(buf, size, "-");
}

/* "throughput", "latency op2 -> op1", "address op2 -> op1", "memory -> memory" */
static void what(char *buf, size_t size, const tks__asm_entry *e)
{
    switch (e->kind) {
    case TKS__KIND_THROUGHPUT: snprintf(buf, size, "throughput"); break;
    case TKS__KIND_LATENCY: snprintf(buf, size, "latency op%d -> op%d", e->src + 1, e->dst + 1); break;
    case TKS__KIND_LATENCY_ADDR:
        snprintf(buf, size, "latency address op%d -> op%d", e->src + 1, e->dst + 1);
        break;
    default: snprintf(buf, size, "latency memory -> memory"); break;
    }
}

static const char *const table_headers[] = {"form", "extension", "measurement",
                                            "core cycles [95% interval]", "snippet (first copy)"};
#define TABLE_ALIGN "lllrl"

/* Entry e's cells (into c2 and c3) as the table has them. */
static void cells_of(const tks__asm_entry *e, char *c2, size_t s2, char *c3, size_t s3,
                     const char *row[5])
{
    what(c2, s2, e);
    interval(c3, s3, e);
    row[0] = e->form, row[1] = e->feature, row[2] = c2, row[3] = c3, row[4] = e->snippet;
}

/* Above the table: what is measured where, and what the figures are. */
static void table_head(FILE *f, const tks__asm_table *t)
{
    fprintf(f, "CPU         %s\nForms       %zu, %zu measurements\nCache       %s\n", t->cpu,
            t->forms, t->n, t->cache_path[0] ? t->cache_path : "none");
    if (t->ring0)
        fputs("Ring        0: each snippet run by the kernel module (tickscope.ko)\n", f);
    fputs("Per copy, in core cycles (an estimate against an interleaved dependent-add chain); "
          "throughput = start to start with independent copies, latency = from the operand to "
          "the result.\n", f);
}

/* Below it: what this run measured and how long it took. */
static void table_tail(FILE *f, const tks__asm_table *t, int streamed)
{
    size_t failed = 0;
    for (size_t i = 0; i < t->n; i++)
        failed += t->e[i].res.rc != 0;
    fprintf(f, "\nDone        %zu measurements (%zu measured now, %zu of them twice for a narrower "
            "interval, %zu from the cache; %zu failed) in %.1f s\n", t->n, t->measured,
            t->second_pass, t->n - t->measured, failed, t->seconds);
    if (t->rerun && (isfinite(t->run_term_thr) || isfinite(t->run_term_lat)))
        fprintf(f, "Between runs %zu entries measured again at the end: 98%% of throughputs within "
                "%.1f%%, of latencies within %.3f cycles (nan: fewer than 8 of the kind); every "
                "interval measured now is at least half that either side%s\n", t->rerun,
                100 * t->run_term_thr, t->run_term_lat,
                streamed ? " (in the files and the cache; the rows above were printed as "
                           "measured, before it was known)" : "");
}

static int table_console(FILE *f, const void *doc)
{
    const tks__asm_table_doc *d = doc;
    const tks__asm_table *t = d->t;
    tks__table *tt;
    char c2[48], c3[160];
    if (d->streamed) { /* the head and the rows are out already (tks__asm_table_stream_row) */
        table_tail(f, t, 1);
        return ferror(f) ? TKS_EIO : 0;
    }
    if (!(tt = tks__table_new(5, table_headers, TABLE_ALIGN)))
        return TKS_ENOMEM;
    for (size_t i = 0; i < t->n; i++) {
        const char *row[5];
        cells_of(&t->e[i], c2, sizeof c2, c3, sizeof c3, row);
        if (tks__table_add_row(tt, row) != 0) {
            tks__table_free(tt);
            return TKS_ENOMEM;
        }
    }
    table_head(f, t);
    tks__table_print(tt, f, "");
    table_tail(f, t, 0);
    tks__table_free(tt);
    return ferror(f) ? TKS_EIO : 0;
}

void tks__asm_table_stream_begin(tks__asm_table_stream *s, FILE *f)
{
    memset(s, 0, sizeof *s);
    s->f = f;
}

/* The first row prints the head and the table's header, in widths planned from every entry's
 * known cells (all but the figures: those get their header's width). */
static int stream_start(tks__asm_table_stream *s, const tks__asm_table *t)
{
    size_t planned[5] = {0};
    char c2[48];
    if (!(s->tt = tks__table_new(5, table_headers, TABLE_ALIGN)))
        return TKS_ENOMEM;
    for (size_t i = 0; i < t->n; i++) {
        const tks__asm_entry *e = &t->e[i];
        size_t w[5] = {strlen(e->form), strlen(e->feature), 0, 0, strlen(e->snippet)};
        what(c2, sizeof c2, e);
        w[2] = strlen(c2);
        for (int c = 0; c < 5; c++)
            planned[c] = w[c] > planned[c] ? w[c] : planned[c];
    }
    table_head(s->f, t);
    return tks__table_stream(s->tt, s->f, "", tks__term_columns_of(s->f), planned);
}

void tks__asm_table_stream_row(void *ctx, const tks__asm_table *t, size_t i)
{
    tks__asm_table_stream *s = ctx;
    const char *row[5];
    char c2[48], c3[160];
    if (s->rc)
        return;
    tks__progress_erase();
    if (!s->tt && (s->rc = stream_start(s, t)) != 0)
        return;
    cells_of(&t->e[i], c2, sizeof c2, c3, sizeof c3, row);
    s->rc = tks__table_stream_row(s->tt, row);
}

void tks__asm_table_stream_end(tks__asm_table_stream *s)
{
    tks__table_free(s->tt);
    s->tt = NULL;
}

int tks__asm_table_streams(enum tks_format f)
{
    return tks__writers_find(&tks__asm_cpu_table_writers, f) == table_console;
}

static int table_csv(FILE *f, const void *doc)
{
    const tks__asm_table_doc *d = doc;
    tks__asm_csv_header(f);
    for (size_t i = 0; i < d->t->n; i++)
        tks__asm_csv_entry(f, &d->t->e[i]);
    return ferror(f) ? TKS_EIO : 0;
}

static int table_json(FILE *f, const void *doc)
{
    const tks__asm_table_doc *d = doc;
    const tks__asm_table *t = d->t;
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "asm --table");
    if (d->p)
        tks__report_context_json(&j, d->p, d->p->quantum.quantum);
    tks__json_string(&j, "cpu", t->cpu);
    tks__json_u64(&j, "ring", t->ring0 ? 0 : 3);
    tks__json_u64(&j, "forms", t->forms);
    tks__json_u64(&j, "measurements", t->n);
    tks__json_u64(&j, "measured_now", t->measured);
    tks__json_u64(&j, "measured_twice", t->second_pass);
    tks__json_double(&j, "seconds", t->seconds);
    tks__json_u64(&j, "measured_again", t->rerun);
    tks__json_double(&j, "run_term_throughput", t->rerun ? t->run_term_thr : NAN);
    tks__json_double(&j, "run_term_latency", t->rerun ? t->run_term_lat : NAN);
    tks__json_string(&j, "cache", t->cache_path[0] ? t->cache_path : NULL);
    tks__json_begin_array(&j, "rows");
    for (size_t i = 0; i < t->n; i++) {
        const tks__asm_entry *e = &t->e[i];
        int ok = e->res.rc == 0;
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "form", e->form);
        tks__json_string(&j, "key", e->key);
        tks__json_string(&j, "kind", tks__asm_kind_name(e->kind));
        tks__json_string(&j, "feature", e->feature);
        tks__json_i64(&j, "src", e->src);
        tks__json_i64(&j, "dst", e->dst);
        tks__json_double(&j, "core_cycles", ok ? e->res.cycles.value : NAN);
        tks__json_range(&j, "core_cycles_ci", ok ? e->res.cycles.lo : NAN,
                        ok ? e->res.cycles.hi : NAN);
        tks__json_double(&j, "ticks", ok ? e->res.ticks.value : NAN);
        tks__json_range(&j, "ticks_ci", ok ? e->res.ticks.lo : NAN, ok ? e->res.ticks.hi : NAN);
        tks__json_double(&j, "r2", ok ? e->res.r2 : NAN);
        tks__json_u64(&j, "windows", e->res.windows);
        if (e->kind == TKS__KIND_LATENCY_ADDR)
            tks__json_double(&j, "chain_cycles", e->chain_cycles);
        tks__json_bool(&j, "from_cache", e->from_cache);
        tks__json_string(&j, "snippet", e->snippet);
        tks__json_string(&j, "error", ok ? NULL : e->res.error);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* The operands of a form's name ("add r64, m64": "r64", "m64") as uops.info's operand
 * elements: idx from 1, type reg/mem/imm/flags, width. */
static void xml_operands(FILE *f, const char *name)
{
    const char *p = strchr(name, ' ');
    int idx = 0;
    while (p && *p) {
        char op[24];
        size_t n;
        unsigned width = 0;
        p += strspn(p, " ,");
        n = strcspn(p, ",");
        snprintf(op, sizeof op, "%.*s", (int)(n < sizeof op ? n : sizeof op - 1), p);
        p += n;
        if (!op[0])
            break;
        const char *type = op[0] == 'm' ? "mem" : strncmp(op, "imm", 3) == 0 ? "imm" : "reg";
        const char *digits = strpbrk(op, "0123456789");
        if (op[0] == 'x' || op[0] == 'y' || op[0] == 'z')
            width = op[0] == 'x' ? 128 : op[0] == 'y' ? 256 : 512;
        else if (op[0] == 'k')
            width = 64;
        else if (strcmp(op, "cl") == 0)
            width = 8;
        else if (digits)
            sscanf(digits, "%u", &width);
        fprintf(f, "      <operand idx=\"%d\" type=\"%s\" width=\"%u\"%s>", ++idx, type, width,
                strstr(op, "{k}") ? " mask=\"k1\"" : "");
        xml_text(f, op);
        fputs("</operand>\n", f);
    }
}

static void xml_attr(FILE *f, const char *name, double v)
{
    if (isfinite(v))
        fprintf(f, " %s=\"%.3f\"", name, v);
}

static int table_xml(FILE *f, const void *doc)
{
    const tks__asm_table_doc *d = doc;
    const tks__asm_table *t = d->t;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- the instruction table of tickscope asm: the forms of "
          "the catalogue on the CPU at hand, laid out like uops.info's instructions.xml; figures "
          "are core cycles per copy, each with its 95% interval (_lo, _hi) -->\n<root>\n", f);
    for (size_t i = 0; i < t->n;) {
        size_t end = i;
        char mnemonic[32];
        while (end < t->n && strcmp(t->e[end].form, t->e[i].form) == 0)
            end++;
        snprintf(mnemonic, sizeof mnemonic, "%.*s", (int)strcspn(t->e[i].form, " "),
                 t->e[i].form);
        fputs("  <instruction asm=\"", f);
        xml_text(f, mnemonic);
        fputs("\" string=\"", f);
        xml_text(f, t->e[i].form);
        fputs("\" extension=\"", f);
        xml_text(f, t->e[i].feature);
        fputs("\">\n", f);
        xml_operands(f, t->e[i].form);
        fputs("    <architecture name=\"", f);
        xml_text(f, t->cpu);
        fprintf(f, "\">\n      <measurement ring=\"%d\"", t->ring0 ? 0 : 3);
        for (size_t k = i; k < end; k++)
            if (t->e[k].kind == TKS__KIND_THROUGHPUT && t->e[k].res.rc == 0) {
                xml_attr(f, "TP_unrolled", t->e[k].res.cycles.value);
                xml_attr(f, "TP_unrolled_lo", t->e[k].res.cycles.lo);
                xml_attr(f, "TP_unrolled_hi", t->e[k].res.cycles.hi);
            }
        fputs(">\n", f);
        for (size_t k = i; k < end; k++) {
            const tks__asm_entry *e = &t->e[k];
            const char *attr = e->kind == TKS__KIND_LATENCY_ADDR ? "cycles_addr"
                               : e->kind == TKS__KIND_LATENCY_MEM ? "cycles_mem" : "cycles";
            char lo[32], hi[32];
            if (e->kind == TKS__KIND_THROUGHPUT || e->res.rc)
                continue;
            snprintf(lo, sizeof lo, "%s_lo", attr);
            snprintf(hi, sizeof hi, "%s_hi", attr);
            fprintf(f, "        <latency start_op=\"%d\" target_op=\"%d\"", e->src + 1,
                    e->dst + 1);
            xml_attr(f, attr, e->res.cycles.value);
            xml_attr(f, lo, e->res.cycles.lo);
            xml_attr(f, hi, e->res.cycles.hi);
            fputs("/>\n", f);
        }
        fputs("      </measurement>\n    </architecture>\n  </instruction>\n", f);
        i = end;
    }
    fputs("</root>\n", f);
    return ferror(f) ? TKS_EIO : 0;
}

TKS__WRITERS(tks__asm_cpu_table_writers, "asm --table", {TKS_FORMAT_CONSOLE, table_console},
             {TKS_FORMAT_CSV, table_csv}, {TKS_FORMAT_JSON, table_json},
             {TKS_FORMAT_XML, table_xml});

/* ---- --diff */

static int diff_console(FILE *f, const void *doc)
{
    const tks__asm_diff *d = doc;
    static const char *const headers[] = {"", "form", "measurement", "A: cycles [95%]",
                                          "B: cycles [95%]", "B / A"};
    tks__table *tt = tks__table_new(6, headers, "lllrrr");
    char c2[48], ca[160], cb[160], ratio[32];
    if (!tt)
        return TKS_ENOMEM;
    for (size_t i = 0; i < d->n; i++) {
        const tks__asm_diff_row *r = &d->rows[i];
        const tks__asm_entry *e = r->a ? r->a : r->b;
        const char *row[6] = {r->differs ? "*" : r->a && r->b ? "" : r->a ? "A" : "B", e->form,
                              c2, ca, cb, ratio};
        if (r->a && r->b && !r->differs)
            continue; /* the same within their intervals: counted, not listed */
        what(c2, sizeof c2, e);
        if (r->a)
            interval(ca, sizeof ca, r->a);
        else
            snprintf(ca, sizeof ca, "-");
        if (r->b)
            interval(cb, sizeof cb, r->b);
        else
            snprintf(cb, sizeof cb, "-");
        if (r->a && r->b && r->a->res.rc == 0 && r->b->res.rc == 0 &&
            r->a->res.cycles.value > 0)
            snprintf(ratio, sizeof ratio, "%.3f", r->b->res.cycles.value / r->a->res.cycles.value);
        else
            snprintf(ratio, sizeof ratio, "-");
        if (tks__table_add_row(tt, row) != 0) {
            tks__table_free(tt);
            return TKS_ENOMEM;
        }
    }
    fprintf(f, "A           %s\nB           %s\n%zu measurements in both: %zu differ beyond their "
            "95%% intervals (*), %zu agree; %zu only in A, %zu only in B\n",
            d->path_a, d->path_b, d->differ + d->same, d->differ, d->same, d->only_a, d->only_b);
    if (d->differ + d->only_a + d->only_b)
        tks__table_print(tt, f, "");
    tks__table_free(tt);
    return ferror(f) ? TKS_EIO : 0;
}

static void json_side(tks__json *j, const char *key, const tks__asm_entry *e)
{
    if (!e) {
        tks__json_null(j, key);
        return;
    }
    tks__json_begin_object(j, key);
    tks__json_double(j, "core_cycles", e->res.rc ? NAN : e->res.cycles.value);
    tks__json_range(j, "core_cycles_ci", e->res.rc ? NAN : e->res.cycles.lo,
                    e->res.rc ? NAN : e->res.cycles.hi);
    tks__json_string(j, "error", e->res.rc ? e->res.error : NULL);
    tks__json_end_object(j);
}

static int diff_json(FILE *f, const void *doc)
{
    const tks__asm_diff *d = doc;
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "asm --diff");
    tks__json_string(&j, "a", d->path_a);
    tks__json_string(&j, "b", d->path_b);
    tks__json_u64(&j, "differ", d->differ);
    tks__json_u64(&j, "agree", d->same);
    tks__json_u64(&j, "only_a", d->only_a);
    tks__json_u64(&j, "only_b", d->only_b);
    tks__json_begin_array(&j, "rows");
    for (size_t i = 0; i < d->n; i++) {
        const tks__asm_diff_row *r = &d->rows[i];
        const tks__asm_entry *e = r->a ? r->a : r->b;
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "form", e->form);
        tks__json_string(&j, "key", e->key);
        tks__json_string(&j, "kind", tks__asm_kind_name(e->kind));
        tks__json_bool(&j, "differs", r->differs);
        json_side(&j, "a", r->a);
        json_side(&j, "b", r->b);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

TKS__WRITERS(tks__asm_diff_writers, "asm --diff", {TKS_FORMAT_CONSOLE, diff_console},
             {TKS_FORMAT_JSON, diff_json});
