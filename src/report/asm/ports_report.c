/* SPDX-License-Identifier: MIT */
/* ports_report.c: the port sets inferred from timing: per form its throughput, port count, set
 * and class; the domains; the mixes that gave them; and where the data cannot separate two sets.
 * Console, JSON and CSV. */
#include "report/asm/ports_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const status_names[] = {"assigned", "ambiguous", "inconsistent", "unblocked",
                                           "not single-uop", "failed"};

const char *tks__ports_status_name(enum tks_ports_status s)
{
    return (size_t)s < sizeof status_names / sizeof status_names[0] ? status_names[s] : "?";
}

const char *tks__ports_set_name(int domain, uint32_t set, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    if (domain < 0)
        return snprintf(buf, size, "-"), buf;
    for (int i = 0; i < TKS_PORTS_MAX_PORTS && o + 5 < size; i++)
        if (set & ((uint32_t)1 << i))
            o += (size_t)snprintf(buf + o, size - o, "%s%c%d", o ? " " : "", 'A' + domain, i);
    return buf;
}

static const char *const why_names[] = {NULL, "latency", "between", "width", "excess", "failed"};

#define COLS 8
static const char *const headers[COLS] = {"form", "cycles", "95% interval", "per cycle",
                                          "ports", "port set", "class", "status"};

static void cells_of(const tks_ports_form *f, char cell[COLS][160])
{
    snprintf(cell[0], 160, "%s%s", f->blocker ? "* " : "", f->name);
    if (f->status == TKS_PORTS_FAILED) {
        for (int c = 1; c < COLS - 1; c++)
            snprintf(cell[c], 160, "-");
        snprintf(cell[COLS - 1], 160, "failed: %.140s", f->error);
        return;
    }
    snprintf(cell[1], 160, "%.3f", f->cycles.value);
    snprintf(cell[2], 160, "[%.3f, %.3f]", f->cycles.lo, f->cycles.hi);
    snprintf(cell[3], 160, "%.2f", f->per_cycle);
    snprintf(cell[4], 160, "%d", f->ports);
    tks__ports_set_name(f->domain, f->set, cell[5], 160);
    if (f->port_class >= 0)
        snprintf(cell[6], 160, "%d", f->port_class);
    else
        snprintf(cell[6], 160, "-");
    snprintf(cell[7], 160, "%s", tks__ports_status_name(f->status));
}

/* The names of the blockers in mask, comma separated. */
static void blocker_names(FILE *f, const tks_ports_result *r, uint64_t mask)
{
    const char *sep = "";
    for (size_t b = 0; b < r->n_blockers && b < 64; b++)
        if (mask >> b & 1) {
            fprintf(f, "%s%s", sep, r->forms[b].name);
            sep = ", ";
        }
}

/* The mixes not measured, and why: each form's domains its representatives read disjoint. */
static void skipped_console(FILE *f, const tks_ports_result *r)
{
    int any = 0;
    for (size_t i = r->n_blockers; i < r->n_forms; i++) {
        const tks_ports_form *x = &r->forms[i];
        if (!x->skipped)
            continue;
        if (!any++)
            fprintf(f, "\nMixes skipped (%zu): a form disjoint from every representative of a "
                    "domain shares nothing with its blockers:\n", r->mixes_skipped);
        fprintf(f, "  %s: shares nothing with domain", x->name);
        for (int d = 0; d < r->n_domains; d++)
            for (size_t b = 0; b < r->n_blockers && b < 64; b++)
                if ((x->disjoint_from >> b & 1) && r->forms[b].domain == d) {
                    fprintf(f, " %c", 'A' + d);
                    break;
                }
        fprintf(f, " (");
        blocker_names(f, r, x->disjoint_from);
        fprintf(f, " read disjoint): not measured with ");
        blocker_names(f, r, x->skipped);
        fputc('\n', f);
    }
}

static int ports_console(FILE *f, const void *doc)
{
    const tks_ports_result *r = ((const tks__ports_doc *)doc)->r;
    char cell[COLS][160], a[96], b[96];
    const char *row[COLS];
    tks__table *t = tks__table_new(COLS, headers, "lrlrrllll");
    int unsure = 0;
    if (!t)
        return TKS_ENOMEM;
    for (int c = 0; c < COLS; c++)
        row[c] = cell[c];
    for (size_t i = 0; i < r->n_forms; i++) {
        cells_of(&r->forms[i], cell);
        if (tks__table_add_row(t, row) != 0) {
            tks__table_free(t);
            return TKS_ENOMEM;
        }
    }
    fprintf(f, "Execution ports from timing alone: %zu blockers (*) and %zu forms, %zu snippets "
            "measured in %.1f s. A form of n ports runs n a cycle; two forms sharing ports slow "
            "each other down in a mix.\n", r->n_blockers, r->n_forms - r->n_blockers, r->runs,
            r->seconds);
    fprintf(f, "Time: %.1f s assembling and checking snippets, %.1f s running them (%zu runs; "
            "%zu snippets from memory; %zu mixes reversed, %zu taken again; %zu read disjoint "
            "with no NOP body beside them); %zu mixes of a form with a blocker skipped.\n",
            r->seconds_assembling, r->seconds_running, r->harness_runs, r->memo_hits,
            r->mixes_reversed, r->mixes_again, r->nops_saved, r->mixes_skipped);
    for (int d = 0; d < r->n_domains; d++)
        fprintf(f, "Domain %c: %d ports (%c0..%c%d)%s%.0d%s\n", 'A' + d, r->domain_ports[d],
                'A' + d, 'A' + d, r->domain_ports[d] - 1,
                r->domain_misfits[d] ? "; the labelling contradicts " : "", r->domain_misfits[d],
                r->domain_misfits[d] ? " mix(es) of its blockers, marked (!) below" : "");
    fprintf(f, "Width: %.2f [%.2f, %.2f] instructions a cycle (the fastest body of ALU, vector "
            "and NOP forms), %.2f [%.2f, %.2f] of bodies half loads; the widest mix: %.2f. A mix "
            "reaching %.0f%% of its width is width-bound (w): it says at most how many ports are "
            "shared, not that they are.\n\n", r->width.value, r->width.lo, r->width.hi,
            r->width_memory.value, r->width_memory.lo, r->width_memory.hi, r->widest_mix,
            100 * TKS_PORTS_WIDTH_BOUND);
    tks__table_print(t, f, "");
    tks__table_free(t);
    fprintf(f, "\nMixes (core cycles a body: ka copies of a and kb of b, each part alone, and "
            "the ports the mix says they share):\n");
    for (size_t p = 0; p < r->n_pairs; p++) {
        const tks_ports_pair *q = &r->pairs[p];
        fprintf(f, "  %-28.28s x%-2d + %-28.28s x%-2d mix %6.2f [%.2f, %.2f]  alone %5.2f, %5.2f"
                "  shared %5.2f", r->forms[q->a].name, q->ka, r->forms[q->b].name, q->kb,
                q->mix.value, q->mix.lo, q->mix.hi, q->alone_a.value, q->alone_b.value, q->shared);
        if (q->width_bound && q->width_there.value < TKS_PORTS_WIDTH_BOUND * r->width.lo)
            fprintf(f, "  (w: another thread left %.1f a cycle)", q->width_there.value);
        else if (q->width_bound)
            fprintf(f, "  (w)");
        if (q->why == TKS_PORTS_WHY_LATENCY)
            fprintf(f, "  (a part is bound by its own latency: no overlap read)\n");
        else if (q->why == TKS_PORTS_WHY_BETWEEN)
            fprintf(f, " -> %d..%d (the interval allows each)%s\n", q->ov_lo, q->ov_hi,
                    q->misfit ? " (!)" : "");
        else if (q->why == TKS_PORTS_WHY_WIDTH)
            fprintf(f, " -> %d..%d (at the machine's width: shares at most %d)%s\n", q->ov_lo,
                    q->ov_hi, q->ov_hi, q->misfit ? " (!)" : "");
        else if (q->why == TKS_PORTS_WHY_EXCESS)
            fprintf(f, "  (more than the sum: another limit)\n");
        else if (q->why == TKS_PORTS_WHY_FAILED)
            fprintf(f, "  (could not be measured)\n");
        else
            fprintf(f, " -> %d%s\n", q->overlap, q->misfit ? " (!)" : "");
    }
    skipped_console(f, r);
    for (size_t i = 0; i < r->n_forms; i++) {
        const tks_ports_form *x = &r->forms[i];
        if (x->status == TKS_PORTS_AMBIGUOUS || x->status == TKS_PORTS_INCONSISTENT ||
            x->status == TKS_PORTS_UNBLOCKED) {
            if (!unsure++)
                fprintf(f, "\nWhere the data cannot separate sets:\n");
            if (x->status == TKS_PORTS_AMBIGUOUS || (x->status == TKS_PORTS_INCONSISTENT &&
                                                     x->n_candidates > 0)) {
                if (x->status == TKS_PORTS_AMBIGUOUS)
                    fprintf(f, "  %s: %d sets of %d ports fit every mix within its interval:",
                            x->name, x->n_candidates, x->ports);
                else
                    fprintf(f, "  %s: no set of %d ports fits every mix; %d contradict %d "
                            "mix(es) only (marked (!)):", x->name, x->ports, x->n_candidates,
                            x->misfits);
                for (int k = 0; k < x->n_candidates && k < TKS_PORTS_MAX_CANDIDATES; k++)
                    fprintf(f, " {%s}", tks__ports_set_name(x->domain, x->candidates[k], b,
                                                           sizeof b));
                fprintf(f, "%s\n", x->n_candidates > TKS_PORTS_MAX_CANDIDATES ? " ..." : "");
            }
            else if (x->status == TKS_PORTS_UNBLOCKED)
                fprintf(f, "  %s: shares no port with any blocker: add a blocker of its kind\n",
                        x->name);
            else if (x->status == TKS_PORTS_INCONSISTENT)
                fprintf(f, "  %s: no set of %d ports fits every overlap; {%s} fits best\n",
                        x->name, x->ports, tks__ports_set_name(x->domain, x->set, a, sizeof a));
        }
    }
    return ferror(f) ? TKS_EIO : 0;
}

void tks__ports_json_interval(tks__json *j, const char *key, tks_asm_interval v)
{
    char k[64];
    tks__json_double(j, key, v.value);
    snprintf(k, sizeof k, "%s_ci", key);
    tks__json_range(j, k, v.lo, v.hi);
}

/* "key": the names of the blockers in mask. */
static void blocker_array(tks__json *j, const tks_ports_result *r, const char *key, uint64_t mask)
{
    tks__json_begin_array(j, key);
    for (size_t b = 0; b < r->n_blockers && b < 64; b++)
        if (mask >> b & 1)
            tks__json_string(j, NULL, r->forms[b].name);
    tks__json_end_array(j);
}

/* The blockers form i was measured beside (a pair of them in r->pairs). */
static uint64_t measured_with(const tks_ports_result *r, size_t i)
{
    uint64_t m = 0;
    for (size_t p = 0; p < r->n_pairs; p++) {
        size_t o = r->pairs[p].a == i ? r->pairs[p].b : r->pairs[p].b == i ? r->pairs[p].a : i;
        if (o != i && o < r->n_blockers && o < 64)
            m |= (uint64_t)1 << o;
    }
    return m;
}

static int ports_json(FILE *f, const void *doc)
{
    const tks__ports_doc *d = doc;
    const tks_ports_result *r = d->r;
    char set[96];
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "asm --ports");
    if (d->p)
        tks__report_context_json(&j, d->p, d->p->quantum.quantum);
    tks__json_double(&j, "seconds", r->seconds);
    tks__json_double(&j, "runs", (double)r->runs);
    tks__ports_json_interval(&j, "width", r->width);
    tks__ports_json_interval(&j, "width_memory", r->width_memory);
    tks__json_double(&j, "widest_mix", r->widest_mix);
    tks__json_begin_object(&j, "time");
    tks__json_double(&j, "assembling", r->seconds_assembling);
    tks__json_double(&j, "running", r->seconds_running);
    tks__json_double(&j, "harness_runs", (double)r->harness_runs);
    tks__json_double(&j, "memo_hits", (double)r->memo_hits);
    tks__json_double(&j, "mixes_reversed", (double)r->mixes_reversed);
    tks__json_double(&j, "mixes_again", (double)r->mixes_again);
    tks__json_double(&j, "nops_saved", (double)r->nops_saved);
    tks__json_end_object(&j);
    tks__json_double(&j, "mixes_skipped", (double)r->mixes_skipped);
    tks__json_begin_array(&j, "domains");
    for (int k = 0; k < r->n_domains; k++) {
        char name[2] = {(char)('A' + k), 0};
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "name", name);
        tks__json_double(&j, "ports", r->domain_ports[k]);
        tks__json_double(&j, "misfits", r->domain_misfits[k]);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_begin_array(&j, "forms");
    for (size_t i = 0; i < r->n_forms; i++) {
        const tks_ports_form *x = &r->forms[i];
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "name", x->name);
        tks__json_string(&j, "code", x->code);
        tks__json_bool(&j, "blocker", x->blocker);
        tks__json_string(&j, "status", tks__ports_status_name(x->status));
        if (x->status == TKS_PORTS_FAILED) {
            tks__json_string(&j, "error", x->error);
        } else {
            tks__ports_json_interval(&j, "cycles", x->cycles);
            tks__json_double(&j, "per_cycle", x->per_cycle);
            tks__json_double(&j, "ports", x->ports);
            tks__json_string(&j, "port_set",
                             x->domain >= 0 ? tks__ports_set_name(x->domain, x->set, set,
                                                                  sizeof set) : NULL);
            tks__json_string(&j, "alternative_set",
                             x->status == TKS_PORTS_AMBIGUOUS
                                 ? tks__ports_set_name(x->domain, x->alt, set, sizeof set) : NULL);
            tks__json_begin_array(&j, "candidates");
            for (int k = 0; k < x->n_candidates && k < TKS_PORTS_MAX_CANDIDATES; k++)
                tks__json_string(&j, NULL, tks__ports_set_name(x->domain, x->candidates[k], set,
                                                               sizeof set));
            tks__json_end_array(&j);
            tks__json_double(&j, "candidates_fitting", x->n_candidates);
            tks__json_double(&j, "misfits", x->misfits);
            if (x->port_class >= 0)
                tks__json_double(&j, "class", x->port_class);
            else
                tks__json_null(&j, "class");
            if (!x->blocker) {
                blocker_array(&j, r, "measured_with", measured_with(r, i));
                blocker_array(&j, r, "skipped", x->skipped);
                blocker_array(&j, r, "disjoint_from", x->disjoint_from);
            }
        }
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_begin_array(&j, "pairs");
    for (size_t p = 0; p < r->n_pairs; p++) {
        const tks_ports_pair *q = &r->pairs[p];
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "a", r->forms[q->a].name);
        tks__json_string(&j, "b", r->forms[q->b].name);
        tks__json_double(&j, "ka", q->ka);
        tks__json_double(&j, "kb", q->kb);
        tks__ports_json_interval(&j, "mix", q->mix);
        tks__ports_json_interval(&j, "alone_a", q->alone_a);
        tks__ports_json_interval(&j, "alone_b", q->alone_b);
        tks__json_double(&j, "shared", q->shared);
        tks__json_range(&j, "shared_ci", q->shared_lo, q->shared_hi);
        tks__json_string(&j, "no_overlap_because", why_names[q->why]);
        if (q->overlap >= 0)
            tks__json_double(&j, "overlap", q->overlap);
        else
            tks__json_null(&j, "overlap");
        if (q->ranged)
            tks__json_range(&j, "overlap_range", q->ov_lo, q->ov_hi);
        else
            tks__json_null(&j, "overlap_range");
        tks__json_bool(&j, "misfit", q->misfit);
        tks__json_bool(&j, "width_bound", q->width_bound);
        tks__ports_json_interval(&j, "width_there", q->width_there);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

static int ports_csv(FILE *f, const void *doc)
{
    const tks_ports_result *r = ((const tks__ports_doc *)doc)->r;
    char set[96];
    fputs("name,code,blocker,cycles,cycles_lo,cycles_hi,per_cycle,ports,port_set,class,status\n",
          f);
    for (size_t i = 0; i < r->n_forms; i++) {
        const tks_ports_form *x = &r->forms[i];
        int ok = x->status != TKS_PORTS_FAILED;
        tks__csv_field(f, x->name);
        fputc(',', f);
        tks__csv_field(f, x->code);
        fprintf(f, ",%d", x->blocker);
        tks__csv_next_double(f, ok ? x->cycles.value : NAN);
        tks__csv_next_double(f, ok ? x->cycles.lo : NAN);
        tks__csv_next_double(f, ok ? x->cycles.hi : NAN);
        tks__csv_next_double(f, ok ? x->per_cycle : NAN);
        fprintf(f, ",%d,", x->ports);
        tks__csv_field(f, tks__ports_set_name(x->domain, x->set, set, sizeof set));
        if (x->port_class >= 0)
            fprintf(f, ",%d,", x->port_class);
        else
            fputs(",,", f);
        tks__csv_field(f, tks__ports_status_name(x->status));
        fputc('\n', f);
    }
    return ferror(f) ? TKS_EIO : 0;
}

TKS__WRITERS(tks__ports_writers, "asm --ports", {TKS_FORMAT_CONSOLE, ports_console},
             {TKS_FORMAT_JSON, ports_json}, {TKS_FORMAT_CSV, ports_csv});
