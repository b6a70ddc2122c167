/* SPDX-License-Identifier: MIT */
/* compare_counters.c: the work counters of two result files, set side by side (issue 26). Google
 * Benchmark writes a counter as a top-level number of its benchmark's entry (bytes_per_second,
 * items_per_second, user counters by name); tickscope writes the same and names its counters
 * under "work_counters". A counter both files have for a benchmark is shown with its mean over
 * each file's rows and the change; it is not judged: the verdict is on time. The event counters
 * (--counters) of a tickscope file are read from its event_counters[] (per iteration) and
 * event_counters_refused[]; a counter one file has and the other refused or lacks is named in a
 * diagnostic (compare.counter_one_side), never dropped in silence. */
#include "analysis/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "tickscope/common.h"

/* Google Benchmark 1.7's own fields of an entry (json_reporter.cc): everything else numeric at the
 * top level of an entry is a counter. */
static const char *const gb_fields[] = {
    "family_index", "per_family_instance_index", "repetitions", "repetition_index", "threads",
    "iterations", "real_time", "cpu_time", "rms", "allocs_per_iter", "max_bytes_used",
    "total_allocated_bytes", "net_heap_growth", "cpu_coefficient", "real_coefficient"};

static int gb_field(const char *key)
{
    for (size_t i = 0; i < sizeof gb_fields / sizeof gb_fields[0]; i++)
        if (!strcmp(key, gb_fields[i]))
            return 1;
    return 0;
}

/* v into the counter named name (refused: only its name, marked refused, no value). */
static int add_to(tks__cmp_bench *b, const char *name, double v, int refused)
{
    size_t i;
    double *nv;
    for (i = 0; i < b->n_counters && strcmp(b->counters[i].name, name); i++)
        ;
    if (i == b->n_counters) {
        tks__cmp_counter *c;
        if (i == TKS__CMP_COUNTERS_MAX)
            return 0;
        if (!(c = realloc(b->counters, (i + 1) * sizeof *c)))
            return TKS_ENOMEM;
        b->counters = c;
        memset(&c[i], 0, sizeof c[i]);
        snprintf(c[i].name, sizeof c[i].name, "%s", name);
        b->n_counters++;
    }
    if (refused) {
        b->counters[i].refused = 1;
        return 0;
    }
    if (!(nv = realloc(b->counters[i].v, (b->counters[i].n + 1) * sizeof *nv)))
        return TKS_ENOMEM;
    b->counters[i].v = nv;
    nv[b->counters[i].n++] = v;
    return 0;
}

static int add(tks__cmp_bench *b, const char *name, double v)
{
    return add_to(b, name, v, 0);
}

/* Ours: the event counters counted (event_counters[]: name, per_iteration) and refused
 * (event_counters_refused[]: name). */
static int events_read(const tks__jr_doc *d, size_t row, tks__cmp_bench *b)
{
    static const char *const lists[2] = {"event_counters", "event_counters_refused"};
    int rc = 0;
    for (int refused = 0; refused < 2; refused++) {
        size_t a = tks__jr_get(d, row, lists[refused]);
        if (!tks__jr_is(d, a, TKS__JR_ARRAY))
            continue;
        for (size_t e = tks__jr_first(d, a); e != TKS__JR_NONE && rc == 0; e = tks__jr_next(d, a, e)) {
            char name[TKS__CMP_COUNTER_NAME];
            size_t v = tks__jr_get(d, e, "per_iteration");
            if (tks__jr_string(d, tks__jr_get(d, e, "name"), name, sizeof name) != 0)
                continue;
            if (refused)
                rc = add_to(b, name, 0, 1);
            else if (tks__jr_is(d, v, TKS__JR_NUMBER) && isfinite(tks__jr_number(d, v)))
                rc = add(b, name, tks__jr_number(d, v));
        }
    }
    return rc;
}

int tks__cmp_counters_read(const tks__jr_doc *d, size_t row, int ours, tks__cmp_bench *b)
{
    size_t names = tks__jr_get(d, row, "work_counters"), obj = ours ? names : row;
    int rc = ours ? events_read(d, row, b) : 0;
    if (rc || (ours && !tks__jr_is(d, names, TKS__JR_OBJECT)))
        return rc;
    /* an object's children alternate key and value: next() steps from key to key */
    for (size_t k = tks__jr_first(d, obj); k != TKS__JR_NONE && rc == 0; k = tks__jr_next(d, obj, k)) {
        size_t field;
        char key[TKS__CMP_COUNTER_NAME];
        if (tks__jr_string(d, k, key, sizeof key) != 0 || (!ours && gb_field(key)))
            continue;
        field = ours ? tks__jr_get(d, row, key) : k + 1;
        if (tks__jr_is(d, field, TKS__JR_NUMBER) && isfinite(tks__jr_number(d, field)))
            rc = add(b, key, tks__jr_number(d, field));
    }
    return rc;
}

void tks__cmp_counters_free(tks__cmp_bench *b)
{
    for (size_t i = 0; i < b->n_counters; i++)
        free(b->counters[i].v);
    free(b->counters);
    b->counters = NULL;
    b->n_counters = 0;
}

static double mean(const tks__cmp_counter *c)
{
    double s = 0;
    for (size_t i = 0; i < c->n; i++)
        s += c->v[i];
    return c->n ? s / (double)c->n : NAN;
}

static const tks__cmp_counter *named(const tks__cmp_bench *b, const char *name)
{
    for (size_t i = 0; i < b->n_counters; i++)
        if (!strcmp(b->counters[i].name, name))
            return &b->counters[i];
    return NULL;
}

/* The counters of `has` that `other` lacks or refused: one diagnostic each. */
static void one_side(const tks__cmp_bench *has, const tks__cmp_bench *other, const char *side,
                     tks_diags *diags)
{
    for (size_t i = 0; diags && i < has->n_counters; i++) {
        const tks__cmp_counter *c = &has->counters[i], *o = named(other, c->name);
        if (!c->n || (o && o->n))
            continue;
        tks__diag(diags, TKS_DIAG_CMP_COUNTER_ONE_SIDE, TKS__DS(has->name), TKS__DS(c->name),
                  TKS__DS(side), TKS__DS(o && o->refused ? "refused it" : "has no such counter"));
    }
}

void tks__cmp_counters_pair(const tks__cmp_bench *a, const tks__cmp_bench *b, tks__cmp_row *row,
                            tks_diags *diags)
{
    row->n_counters = 0;
    for (size_t i = 0; i < a->n_counters; i++) {
        const tks__cmp_counter *k = named(b, a->counters[i].name);
        tks__cmp_counter_row *w = &row->counters[row->n_counters];
        if (!k || !a->counters[i].n || !k->n || row->n_counters == TKS__CMP_COUNTERS_MAX)
            continue;
        snprintf(w->name, sizeof w->name, "%s", a->counters[i].name);
        w->old_value = mean(&a->counters[i]);
        w->new_value = mean(k);
        w->change = w->old_value != 0 ? w->new_value / w->old_value - 1 : NAN;
        row->n_counters++;
    }
    one_side(a, b, "old", diags);
    one_side(b, a, "new", diags);
}
