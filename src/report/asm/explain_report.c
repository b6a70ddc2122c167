/* SPDX-License-Identifier: MIT */
/* explain_report.c: what limits a snippet: the class, each experiment's figure with its
 * interval, and what the user could change (written once here, for text and JSON). */
#include "base/bytes_text.h"
#include "report/asm/ports_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const class_names[] = {"undetermined", "chain", "ports", "memory",
                                          "front end", "latency"};
static const char *const kind_names[] = {"base", "chain", "work", "nops", "working set",
                                         "touched"};

const char *tks__explain_class_name(enum tks_explain_class c)
{
    return (size_t)c < sizeof class_names / sizeof class_names[0] ? class_names[c] : "?";
}
#define class_name tks__explain_class_name

const char *tks__explain_advice(enum tks_explain_class cls)
{
    switch (cls) {
    case TKS_EXPLAIN_PORTS:
        return "do less work of that kind (fewer, wider or cheaper instructions) or trade some "
               "of it for instructions running on other ports";
    case TKS_EXPLAIN_FRONTEND:
        return "make the loop's code smaller: fewer and shorter instructions, no padding or long "
               "encodings in the hot loop, a body that fits the op cache";
    case TKS_EXPLAIN_MEMORY:
        return "shrink the working set or block the work so that it fits a cache level; make the "
               "accesses independent or sequential so that they overlap and prefetch, instead of "
               "each waiting for the last";
    default:
        return NULL;
    }
}

/* The finding in one sentence, then what to change. */
static void finding(const tks_explain_result *r, char *what, size_t ws, char *advice, size_t as)
{
    switch (r->cls) {
    case TKS_EXPLAIN_CHAIN:
        snprintf(what, ws, "a dependency chain: 3 more cycles of latency on the carried "
                 "registers cost about 3 cycles a copy, while added independent work and NOPs "
                 "were absorbed");
        snprintf(advice, as, "shorten the chain: split it into independent chains (several "
                 "accumulators, a tree instead of a sequence), or put lower-latency instructions "
                 "on it and move the rest off it");
        break;
    case TKS_EXPLAIN_PORTS:
        snprintf(what, ws, "execution ports: added work of the kind %s cost what it costs alone, "
                 "other kinds were absorbed", r->port_kinds);
        snprintf(advice, as, "%s", tks__explain_advice(r->cls));
        break;
    case TKS_EXPLAIN_MEMORY: {
        char knee[96] = "", size[3][32];
        if (r->knee_hi)
            snprintf(knee, sizeof knee, " (it steps up between %s and %s)",
                     tks__fmt_bytes(size[0], sizeof size[0], r->knee_lo),
                     tks__fmt_bytes(size[1], sizeof size[1], r->knee_hi));
        if (r->level > 0)
            snprintf(what, ws, "memory: the cost follows the working set%s; the working set "
                     "exceeds L%d (%s), and inside the caches the same code costs less than "
                     "half", knee, r->level, tks__fmt_bytes(size[2], sizeof size[2],
                                                            r->level_bytes));
        else
            snprintf(what, ws, "memory: the cost follows the working set%s (the machine "
                     "declares no cache sizes to name the level)", knee);
        snprintf(advice, as, "%s", tks__explain_advice(r->cls));
        break;
    }
    case TKS_EXPLAIN_FRONTEND:
        snprintf(what, ws, "the front end: 64 bytes of NOPs, which no execution port runs, cost "
                 "what they cost alone");
        snprintf(advice, as, "%s", tks__explain_advice(r->cls));
        break;
    default:
        snprintf(what, ws, "undetermined: no experiment moved the cost as a single bottleneck "
                 "would");
        snprintf(advice, as, "the limit may be several at once, or one the experiments do not "
                 "reach (a divider, microcode, flags, implicit registers): look at the figures "
                 "below");
        break;
    }
}

static void fmt(char *buf, size_t n, double v, const char *f)
{
    if (isfinite(v))
        snprintf(buf, n, f, v);
    else
        snprintf(buf, n, "-");
}

#define COLS 7

/* The experiments as a table, each figure in cycles a `per` ("copy", "repetition"). */
int tks__explain_evidence(FILE *f, const tks_explain_result *r, const char *per)
{
    char cell[COLS][170], cycles[40], added[40];
    const char *row[COLS];
    const char *headers[COLS] = {"experiment", cycles, "95% interval", "delta", "alone",
                                 "ratio", added};
    tks__table *t;
    snprintf(cycles, sizeof cycles, "cycles/%s", per);
    snprintf(added, sizeof added, "added to each %s", per);
    if (!(t = tks__table_new(COLS, headers, "lrlrrrl")))
        return TKS_ENOMEM;
    for (int c = 0; c < COLS; c++)
        row[c] = cell[c];
    for (size_t i = 0; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        snprintf(cell[0], 170, "%s%s", e->name, e->core_shared ? " [core shared]" : "");
        if (e->rc) {
            snprintf(cell[1], 170, "error");
            snprintf(cell[2], 170, "%.160s", e->error);
            for (int c = 3; c < COLS - 1; c++)
                snprintf(cell[c], 170, "-");
        } else {
            fmt(cell[1], 170, e->cycles.value, "%.3f");
            if (isfinite(e->cycles.lo) && isfinite(e->cycles.hi))
                snprintf(cell[2], 170, "[%.3f, %.3f]", e->cycles.lo, e->cycles.hi);
            else
                snprintf(cell[2], 170, "-");
            fmt(cell[3], 170, e->delta.value, "%+.3f");
            fmt(cell[4], 170, e->alone, "%.3f");
            fmt(cell[5], 170, e->ratio, "%.2f");
        }
        snprintf(cell[6], 170, "%.160s", e->added[0] ? e->added : "-");
        if (tks__table_add_row(t, row) != 0) {
            tks__table_free(t);
            return TKS_ENOMEM;
        }
    }
    tks__table_print(t, f, "");
    tks__table_free(t);
    return 0;
}

size_t tks__explain_shared(const tks_explain_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += r->exp[i].core_shared != 0;
    return n;
}

void tks__explain_shared_note(FILE *f, const tks_explain_result *r)
{
    size_t n = tks__explain_shared(r);
    if (n)
        fprintf(f, "[core shared]: in %zu of %zu experiments the add check found the reference "
                "chain's adds slow (core.add_chain_slow): another thread shared the core and "
                "took part of its dispatch, so added work can compete that would run in the "
                "slack on a core of one's own, and a block bound by ports can read as front "
                "end. Run again when the core is quiet.\n", n, r->n);
}

static int explain_console(FILE *f, const void *doc)
{
    const tks__explain_doc *d = doc;
    const tks_explain_result *r = d->r;
    char what[400], advice[400];
    int rc;
    finding(r, what, sizeof what, advice, sizeof advice);
    fprintf(f, "Snippet     %s\n", d->code);
    fprintf(f, "Limit       %s\n", what);
    fprintf(f, "Class       %s\n", class_name(r->cls));
    fprintf(f, "Change      %s\n\n", advice);
    if ((rc = tks__explain_evidence(f, r, "copy")) != 0)
        return rc;
    fprintf(f, "\nratio = delta / alone: near 1, the addition competes with the snippet's "
            "bottleneck; near 0, it runs in the bottleneck's slack. %d register(s) carried from "
            "copy to copy%s; %zu bytes a copy; %.1f s.\n", r->chains < 0 ? 0 : r->chains,
            r->chains < 0 ? " (not analysed: placeholders in throughput mode make copies "
                            "independent)" : "", r->code_bytes, r->seconds);
    tks__explain_shared_note(f, r);
    if (r->skipped_work)
        fprintf(f, "%d kind(s) of added work left out: no register free for them, or a store "
                "into the chase's lines.\n", r->skipped_work);
    return ferror(f) ? TKS_EIO : 0;
}

static int explain_json(FILE *f, const void *doc)
{
    const tks__explain_doc *d = doc;
    const tks_explain_result *r = d->r;
    char what[400], advice[400];
    tks__json j;
    finding(r, what, sizeof what, advice, sizeof advice);
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "asm --explain");
    if (d->p)
        tks__report_context_json(&j, d->p, d->p->quantum.quantum);
    tks__json_string(&j, "snippet", d->code);
    tks__json_string(&j, "class", class_name(r->cls));
    tks__json_string(&j, "finding", what);
    tks__json_string(&j, "advice", advice);
    tks__json_string(&j, "port_kinds", r->cls == TKS_EXPLAIN_PORTS ? r->port_kinds : NULL);
    tks__explain_memory_json(&j, r);
    tks__json_double(&j, "core_shared_experiments", (double)tks__explain_shared(r));
    tks__json_double(&j, "carried_registers", r->chains);
    tks__json_double(&j, "code_bytes", (double)r->code_bytes);
    tks__json_double(&j, "seconds", r->seconds);
    tks__explain_evidence_json(&j, r);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

/* The level the working set exceeds and the knee, where known, into the current JSON object. */
void tks__explain_memory_json(tks__json *j, const tks_explain_result *r)
{
    if (r->level > 0) {
        tks__json_double(j, "level_exceeded", r->level);
        tks__json_double(j, "level_bytes", (double)r->level_bytes);
    }
    if (r->knee_hi)
        tks__json_range(j, "knee_bytes", (double)r->knee_lo, (double)r->knee_hi);
}

/* "evidence": [...], each experiment with its figures, into the current JSON object. */
void tks__explain_evidence_json(tks__json *j, const tks_explain_result *r)
{
    tks__json_begin_array(j, "evidence");
    for (size_t i = 0; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "kind", kind_names[e->kind]);
        tks__json_string(j, "name", e->name);
        tks__json_string(j, "added", e->added[0] ? e->added : NULL);
        if (e->working_set || e->kind == TKS_EXPLAIN_TOUCHED)
            tks__json_double(j, "working_set", (double)e->working_set);
        if (e->core_shared)
            tks__json_bool(j, "core_shared", 1);
        if (e->rc) {
            tks__json_string(j, "error", e->error);
        } else {
            tks__ports_json_interval(j, "cycles", e->cycles);
            tks__ports_json_interval(j, "delta", e->delta);
            tks__json_double(j, "alone", e->alone);
            tks__json_double(j, "ratio", e->ratio);
        }
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
}

TKS__WRITERS(tks__explain_writers, "asm --explain", {TKS_FORMAT_CONSOLE, explain_console},
             {TKS_FORMAT_JSON, explain_json});
