/* SPDX-License-Identifier: MIT */
/* bench_explain_report.c: a benchmark program's --explain for people and programs: per
 * benchmark, the class, the finding, what to change and the experiments (the table and the JSON
 * evidence are the snippet explain's, report/asm/explain_report.c, and so is the advice for
 * ports and the front end). The findings are written here: the experiments differ from a
 * snippet's (work added after each repetition, no chain lengthened), and so do their words. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/bytes_text.h"
#include "report/asm/ports_report.h"
#include "report/bench/bench_report.h"
#include "runner/explain_run.h"

static const char memory_note[] =
    "the block at other working sets (the runner cannot reach inside it): memory is told from "
    "the pages the block touched as it ran and what a dependent load costs over as many bytes "
    "and over smaller rings";

/* The base's runs spread wider than most additions cost alone: the deltas are noise. */
static int drifted(const tks_explain_result *r)
{
    double spread = r->exp[0].cycles.hi - r->exp[0].cycles.lo;
    size_t wider = 0, n = 0;
    for (size_t i = 1; i < r->n; i++)
        if (!r->exp[i].rc && isfinite(r->exp[i].alone)) {
            n++;
            wider += spread > r->exp[i].alone;
        }
    return n && 2 * wider > n;
}

/* The finding in one sentence, then what to change. */
static void finding(const tks_explain_result *r, char *what, size_t ws, char *advice, size_t as)
{
    switch (r->cls) {
    case TKS_EXPLAIN_PORTS:
        snprintf(what, ws, "execution ports: work of the kind %s added after each repetition "
                 "cost what it costs alone, other kinds were absorbed", r->port_kinds);
        snprintf(advice, as, "%s", tks__explain_advice(r->cls));
        break;
    case TKS_EXPLAIN_FRONTEND:
        snprintf(what, ws, "the front end: NOPs added after each repetition, which no execution "
                 "port runs, cost what they cost alone");
        snprintf(advice, as, "%s", tks__explain_advice(r->cls));
        break;
    case TKS_EXPLAIN_MEMORY: {
        const tks_explain_experiment *big, *small;
        char ring[4][32], knee[128] = "", level[96];
        uint64_t set = tks__explain_touched_rows(r, &big, &small);
        double base = r->exp[0].cycles.value;
        snprintf(advice, as, "%s", tks__explain_advice(r->cls));
        if (!big || !small) { /* not from explain_memory.c: its rows are always there */
            snprintf(what, ws, "memory");
            break;
        }
        tks__fmt_bytes(ring[0], sizeof ring[0], r->knee_lo);
        tks__fmt_bytes(ring[1], sizeof ring[1], r->knee_hi);
        tks__fmt_bytes(ring[2], sizeof ring[2], r->level_bytes);
        tks__fmt_bytes(ring[3], sizeof ring[3], set);
        if (r->level > 0)
            snprintf(level, sizeof level, "; the working set exceeds L%d (%s)", r->level,
                     ring[2]);
        else
            snprintf(level, sizeof level, " (the machine declares no cache sizes to name the "
                     "level)");
        if (r->knee_hi)
            snprintf(knee, sizeof knee, "; a load's cost rises most between %s and %s", ring[0],
                     ring[1]);
        snprintf(what, ws, "memory: the block touched %s of pages as it ran; a dependent "
                 "load over as many bytes costs %.0f cycles here, %.0f times one inside the first "
                 "cache level (%.1f), so the data comes from beyond the core's own caches%s%s; a "
                 "repetition of the block costs %.0f, %.2f such loads, and no added work "
                 "competed", ring[3], big->cycles.value,
                 big->cycles.value / small->cycles.value, small->cycles.value, knee, level, base,
                 base / big->cycles.value);
        break;
    }
    case TKS_EXPLAIN_LATENCY:
        snprintf(what, ws, "latency, by elimination: every addition (integer, multiply, "
                 "floating-point, load and NOP work) was absorbed, so the block waits on "
                 "results: a dependency chain, memory latency, or a unit no addition uses (a "
                 "divider); no chain was lengthened (the runner cannot reach inside the block), "
                 "so which of these is not known");
        snprintf(advice, as, "if the block carries a value from one repetition to the next, split "
                 "the chain (several accumulators, a tree); if it chases pointers or misses the "
                 "caches, shrink the working set or make the accesses independent; tickscope asm "
                 "--explain on the loop's instructions tells a chain from the rest");
        break;
    default:
        if (drifted(r)) {
            snprintf(what, ws, "undetermined: the block as given drifted between its runs by "
                     "more than the added work costs alone, so no addition could be told "
                     "competing or absorbed");
            snprintf(advice, as, "run again on a quieter machine or with a longer --min-time; "
                     "a block this slow and this variable is often memory-bound: vary its "
                     "working set");
            break;
        }
        snprintf(what, ws, "undetermined: no addition competed as a single bottleneck's would, "
                 "and not every one was absorbed (or a run failed)");
        snprintf(advice, as, "the limit may be several at once, or one the additions do not "
                 "reach (a divider, microcode, a store, a branch): look at the figures below");
        break;
    }
}

static int bench_explain_console(FILE *f, const void *doc)
{
    const tks__bench_explain_doc *d = doc;
    char what[600], advice[600];
    int rc;
    for (size_t i = 0; i < d->n; i++) {
        const tks_explain_result *r = &d->r[i];
        fprintf(f, "%sBenchmark   %s\n", i ? "\n" : "", d->names[i]);
        if (!r->n || r->exp[0].rc) {
            fprintf(f, "Error       %s\n", r->error);
            continue;
        }
        finding(r, what, sizeof what, advice, sizeof advice);
        fprintf(f, "Limit       %s\n", what);
        fprintf(f, "Class       %s\n", tks__explain_class_name(r->cls));
        fprintf(f, "Change      %s\n\n", advice);
        if ((rc = tks__explain_evidence(f, r, "repetition")) != 0)
            return rc;
        tks__explain_shared_note(f, r);
        fprintf(f, "(%.1f s)\n", r->seconds);
    }
    fprintf(f, "\nCore cycles a repetition of the block in throughput mode (a dependent load's "
            "rows: cycles a load). ratio = delta / alone: near 1, the added work competes with "
            "the block's bottleneck; near 0, it runs in the bottleneck's slack. Alone: the same "
            "work after an empty block, less that block's loop. Not tested: %s.\n", memory_note);
    return ferror(f) ? TKS_EIO : 0;
}

static int bench_explain_json(FILE *f, const void *doc)
{
    const tks__bench_explain_doc *d = doc;
    char what[600], advice[600];
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "--explain");
    if (d->p)
        tks__report_context_json(&j, d->p, d->p->quantum.quantum);
    tks__json_string(&j, "unit", "core cycles a repetition (throughput mode)");
    tks__json_string(&j, "not_tested", memory_note);
    tks__json_begin_array(&j, "benchmarks");
    for (size_t i = 0; i < d->n; i++) {
        const tks_explain_result *r = &d->r[i];
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "name", d->names[i]);
        if (!r->n || r->exp[0].rc) {
            tks__json_string(&j, "error", r->error);
            tks__json_end_object(&j);
            continue;
        }
        finding(r, what, sizeof what, advice, sizeof advice);
        tks__json_string(&j, "class", tks__explain_class_name(r->cls));
        tks__json_string(&j, "finding", what);
        tks__json_string(&j, "advice", advice);
        tks__json_string(&j, "port_kinds", r->cls == TKS_EXPLAIN_PORTS ? r->port_kinds : NULL);
        if (r->cls == TKS_EXPLAIN_MEMORY)
            tks__explain_memory_json(&j, r);
        tks__json_double(&j, "core_shared_experiments", (double)tks__explain_shared(r));
        tks__json_double(&j, "seconds", r->seconds);
        tks__explain_evidence_json(&j, r);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

TKS__WRITERS(tks__bench_explain_writers, "a benchmark program's --explain",
             {TKS_FORMAT_CONSOLE, bench_explain_console}, {TKS_FORMAT_JSON, bench_explain_json});
