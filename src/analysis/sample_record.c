/* SPDX-License-Identifier: MIT */
/* sample_record.c: runs of samples in a recording (sample_record.h). */
#include "analysis/sample_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tks__rec_put_sample_run(tks__rec_buf *b, const tks_sample_run *run)
{
    tks__rec_put_u64(b, "ensembles", run->ensembles);
    tks__rec_put_u64(b, "samples", run->samples);
    tks__rec_put_u64(b, "budget_limited", (uint64_t)(run->budget_limited != 0));
    tks__rec_put_u64(b, "discarded_migrated", run->discarded_migrated);
    tks__rec_put_u64(b, "discarded_negative", run->discarded_negative);
    tks__rec_put_f64(b, "seconds", run->seconds);
    tks__rec_put_u64s(b, "ticks", run->ticks, (size_t)run->ensembles * run->samples);
}

/* A u32 count of at least lo. */
static int count(const tks__rec_field *f, uint32_t lo, uint32_t *out)
{
    if (f->type != TKS__REC_U64 || f->u < lo || f->u > UINT32_MAX)
        return -1;
    *out = (uint32_t)f->u;
    return 1;
}

int tks__rec_get_sample_run(const tks__rec_field *f, tks_sample_run *run)
{
    run->kernel_cpu = -1;
    if (tks__rec_is(f, "ensembles"))
        return count(f, 1, &run->ensembles);
    if (tks__rec_is(f, "samples"))
        return count(f, 2, &run->samples);
    if (tks__rec_is(f, "budget_limited")) {
        run->budget_limited = f->u != 0;
        return f->type == TKS__REC_U64 ? 1 : -1;
    }
    if (tks__rec_is(f, "discarded_migrated") || tks__rec_is(f, "discarded_negative")) {
        *(tks__rec_is(f, "discarded_migrated") ? &run->discarded_migrated
                                               : &run->discarded_negative) = f->u;
        return f->type == TKS__REC_U64 ? 1 : -1;
    }
    if (tks__rec_is(f, "seconds")) {
        run->seconds = f->d;
        return f->type == TKS__REC_F64 && isfinite(f->d) ? 1 : -1;
    }
    if (!tks__rec_is(f, "ticks"))
        return 0;
    if (!run->ensembles || !run->samples || run->ticks ||
        f->count != (size_t)run->ensembles * run->samples)
        return -1;
    if (!(run->ticks = malloc(f->count * sizeof *run->ticks)))
        return -1;
    return tks__rec_u64s(f, run->ticks) == 0 ? 1 : -1;
}

int tks__rec_sample_run_done(const tks_sample_run *run)
{
    return run->ticks ? 0 : -1;
}

void tks__rec_put_pairs(tks__rec_buf *b, const char *name, const tks_sample_run *runs, size_t n)
{
    char field[64];
    size_t total = 0, at[2] = {0, 0};
    uint64_t *samples = malloc((n ? n : 1) * sizeof *samples), *t[2];
    for (size_t k = 0; k < n; k++)
        total += runs[k].samples;
    t[0] = malloc((total ? total : 1) * sizeof *t[0]);
    t[1] = malloc((total ? total : 1) * sizeof *t[1]);
    if (!samples || !t[0] || !t[1]) {
        b->oom = 1;
    } else {
        for (size_t k = 0; k < n; k++) {
            samples[k] = runs[k].samples;
            for (int e = 0; e < 2; e++) {
                memcpy(t[e] + at[e], runs[k].ticks + (size_t)e * runs[k].samples,
                       runs[k].samples * sizeof *t[e]);
                at[e] += runs[k].samples;
            }
        }
        snprintf(field, sizeof field, "%s_samples", name);
        tks__rec_put_u64s(b, field, samples, n);
        snprintf(field, sizeof field, "%s_first", name);
        tks__rec_put_u64s(b, field, t[0], total);
        snprintf(field, sizeof field, "%s_second", name);
        tks__rec_put_u64s(b, field, t[1], total);
    }
    free(samples);
    free(t[0]);
    free(t[1]);
}

void tks__rec_pairs_begin(tks__rec_pairs *p, const char *name)
{
    memset(p, 0, sizeof *p);
    p->name = name;
}

/* An array field NAME_suffix into *v (replacing an earlier one). */
static int array(const tks__rec_field *f, const char *name, const char *suffix, uint64_t **v,
                 size_t *n)
{
    char field[64];
    snprintf(field, sizeof field, "%s_%s", name, suffix);
    if (!tks__rec_is(f, field))
        return 0;
    free(*v);
    *n = 0;
    if (!(*v = malloc((f->count ? f->count : 1) * sizeof **v)) || tks__rec_u64s(f, *v) != 0)
        return -1;
    *n = f->count;
    return 1;
}

int tks__rec_pairs_field(tks__rec_pairs *p, const tks__rec_field *f)
{
    int rc;
    if ((rc = array(f, p->name, "samples", &p->samples, &p->n_samples)) != 0 ||
        (rc = array(f, p->name, "first", &p->first, &p->n_first)) != 0)
        return rc;
    return array(f, p->name, "second", &p->second, &p->n_second);
}

int tks__rec_pairs_end(tks__rec_pairs *p, tks_sample_run *runs, size_t max, uint32_t *n)
{
    size_t total = 0, at = 0, k;
    int rc = 0;
    *n = 0;
    for (k = 0; k < p->n_samples; k++) {
        if (p->samples[k] < 2 || p->samples[k] > UINT32_MAX)
            rc = -1;
        total += rc ? 0 : (size_t)p->samples[k];
    }
    if (rc || p->n_samples > max || total != p->n_first || total != p->n_second)
        rc = -1;
    for (k = 0; !rc && k < p->n_samples; k++) {
        tks_sample_run *r = &runs[k];
        size_t s = (size_t)p->samples[k];
        memset(r, 0, sizeof *r);
        r->kernel_cpu = -1;
        r->ensembles = 2;
        r->samples = (uint32_t)s;
        if (!(r->ticks = malloc(2 * s * sizeof *r->ticks))) {
            rc = -1;
            break;
        }
        memcpy(r->ticks, p->first + at, s * sizeof *r->ticks);
        memcpy(r->ticks + s, p->second + at, s * sizeof *r->ticks);
        at += s;
        (*n)++;
    }
    free(p->samples);
    free(p->first);
    free(p->second);
    memset(p, 0, sizeof *p);
    return rc;
}
