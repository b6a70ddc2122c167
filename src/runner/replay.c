/* SPDX-License-Identifier: MIT */
/* replay.c: a recording read back (replay.h): the program's options and instances, the
 * machine's facts, and each run's windows analysed again by tks__run_analyse, the function that
 * analysed them live. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/record_file.h"
#include "base/record_members.h"
#include "platform/record_platform.h"
#include "runner/analyse.h"
#include "runner/child.h"
#include "runner/record.h"
#include "runner/replay.h"

/* The options the report depends on, each a field of the same name (base/record_members.h). */
#define O(kind, name, member) TKS__REC_MEMBER(tks_options, kind, name, member)
static const tks__rec_member option_members[] = {
    O(SIGNED, "mode", mode),
    O(SIGNED, "method", method),
    O(DOUBLE, "min_time", min_time),
    O(UNSIGNED, "windows", windows),
    O(UNSIGNED, "repetitions", repetitions),
    O(UNSIGNED, "processes", processes),
    O(SIGNED, "isolate", isolate),
    O(SIGNED, "time_unit", time_unit),
    O(SIGNED, "report_aggregates_only", report_aggregates_only),
    O(SIGNED, "display_aggregates_only", display_aggregates_only),
    O(SIGNED, "random_interleaving", random_interleaving),
    O(UNSIGNED, "random_seed", random_seed),
    O(SIGNED, "counters_tabular", counters_tabular),
    O(DOUBLE, "min_warmup_time", min_warmup_time),
    O(SIGNED, "dry_run", dry_run),
};
#undef O
#define COUNT(a) (sizeof a / sizeof a[0])

void tks__record_program_encode(tks__rec_buf *b, const char *prog, const tks_options *o,
                                const tks__record_instance *v, size_t n)
{
    tks__rec_put_str(b, "prog", prog);
    tks__rec_put_members(b, o, option_members, COUNT(option_members));
    if (o->context)
        tks__rec_put_str(b, "context", o->context);
    for (size_t i = 0; i < n; i++) {
        tks__rec_put_str(b, "instance", v[i].name);
        tks__rec_put_u64(b, "instance_family", v[i].family);
        tks__rec_put_u64(b, "instance_index", v[i].index);
    }
}

/* A string field kept for the replay's lifetime. */
static char *keep(tks__replay *rp, const tks__rec_field *f)
{
    char **grown, *s;
    if (!(s = malloc(f->len + 1)))
        return NULL;
    tks__rec_str(f, s, f->len + 1);
    if (!(grown = realloc(rp->strings, (rp->n_strings + 1) * sizeof *grown))) {
        free(s);
        return NULL;
    }
    rp->strings = grown;
    return rp->strings[rp->n_strings++] = s;
}

struct program {
    tks__record_instance *v;
    size_t n;
    unsigned *done; /* runs read so far, per instance */
};

/* The options read are ones a program could have had: 0, or -1. */
static int options_hold(const tks_options *o)
{
    return (o->mode == TKS_MODE_LATENCY || o->mode == TKS_MODE_THROUGHPUT) && o->method >= -1 &&
                   o->method < TKS_METHOD_COUNT && isfinite(o->min_time) && o->min_time > 0 &&
                   o->repetitions >= 1 && o->repetitions <= 10000 && o->processes <= 1000 &&
                   o->time_unit >= TKS_TIME_NS && o->time_unit <= TKS_TIME_S &&
                   isfinite(o->min_warmup_time) && o->min_warmup_time >= 0
               ? 0
               : -1;
}

static int program(const unsigned char *b, size_t n, tks__replay *rp, struct program *pg)
{
    tks_options *o = &rp->o;
    tks__rec_field f;
    size_t pos = 0;
    int rc, m;
    while ((rc = tks__rec_field_next(b, n, &pos, &f)) == 1) {
        if ((m = tks__rec_get_member(&f, o, option_members, COUNT(option_members))) != 0) {
            if (m < 0)
                return -1;
        } else if (tks__rec_is(&f, "prog"))
            tks__rec_str(&f, rp->prog, sizeof rp->prog);
        else if (tks__rec_is(&f, "context")) {
            if (!(o->context = keep(rp, &f)))
                return -1;
        } else if (tks__rec_is(&f, "instance")) {
            tks__record_instance *grown = realloc(pg->v, (pg->n + 1) * sizeof *grown);
            if (!grown)
                return -1;
            pg->v = grown;
            memset(&pg->v[pg->n], 0, sizeof pg->v[0]);
            if (!(pg->v[pg->n].name = keep(rp, &f)))
                return -1;
            pg->n++;
        } else if (tks__rec_is(&f, "instance_family") && pg->n)
            pg->v[pg->n - 1].family = (size_t)f.u;
        else if (tks__rec_is(&f, "instance_index") && pg->n)
            pg->v[pg->n - 1].index = (size_t)f.u;
    }
    return rc == 0 ? options_hold(o) : rc;
}

static size_t instance_named(const struct program *pg, const char *name)
{
    for (size_t i = 0; i < pg->n; i++)
        if (!strcmp(pg->v[i].name, name))
            return i;
    return pg->n;
}

/* One run section analysed into its slot (a repetition), or judged against the slot it is the
 * second process of. */
static int run(const unsigned char *b, size_t n, tks__replay *rp, struct program *pg)
{
    struct tks_state st;
    tks_result r;
    tks__record_meta m;
    size_t i;
    unsigned reps = rp->o.repetitions;
    memset(&r, 0, sizeof r);
    r.add_check = (tks_add_check){TKS_ADD_CHECK_NONE, NAN, NAN, 1, 0};
    if (!rp->results || tks__record_run_decode(b, n, &st, &r, &m) != 0)
        return -1;
    if (!(r.family = keep(rp, &(tks__rec_field){.type = TKS__REC_STR,
                                               .data = (const unsigned char *)m.family,
                                               .len = strlen(m.family ? m.family : "")}))) {
        free(m.family);
        tks__state_release(&st);
        return -1;
    }
    free(m.family);
    i = instance_named(pg, r.name);
    {
        tks__analyse_in in = {m.calibrated, m.optimized, m.dry_run, NULL};
        tks__run_analyse(&r, &st, &in);
    }
    if (m.forked)
        tks__forked_note(&r, m.forked);
    if (i == pg->n || (strcmp(m.role, "next") && pg->done[i] >= reps)) {
        tks_result_free(&r);
        return -1; /* a run of no instance, or more runs than repetitions */
    }
    if (!strcmp(m.role, "next")) { /* the default run's second process */
        tks_result *first = &rp->results[i * reps];
        if (pg->done[i] && first->ok && r.ok)
            tks__next_process_judge(first, &r);
        tks_result_free(&r);
        return 0;
    }
    r.family_index = pg->v[i].family;
    r.instance_index = pg->v[i].index;
    r.repetition = pg->done[i];
    rp->results[i * reps + pg->done[i]++] = r;
    return 0;
}

/* Slots no run filled (a run that failed before it measured is not recorded). */
static void unfilled(tks__replay *rp, const struct program *pg)
{
    unsigned reps = rp->o.repetitions;
    for (size_t i = 0; i < pg->n; i++)
        for (unsigned k = pg->done[i]; k < reps; k++) {
            tks_result *r = &rp->results[i * reps + k];
            snprintf(r->name, sizeof r->name, "%s", pg->v[i].name);
            r->family = pg->v[i].name;
            r->family_index = pg->v[i].family;
            r->instance_index = pg->v[i].index;
            r->repetition = k;
            snprintf(r->error, sizeof r->error, "no run of it in the recording");
        }
}

int tks__replay_bytes(const unsigned char *b, size_t n, tks__replay *rp, char *err, size_t errlen)
{
    struct program pg = {0};
    size_t pos;
    int kind, rc, seen_p = 0;
    const unsigned char *body;
    size_t len;
    memset(rp, 0, sizeof *rp);
    tks_options_init(&rp->o);
    rp->o.repetitions = 1;
    if ((rc = tks__rec_start(b, n, &pos, &rp->version, err, errlen)) != 0)
        return rc;
    while ((rc = tks__rec_section(b, n, &pos, &kind, &body, &len)) == 1) {
        int bad = 0;
        if (kind == TKS__REC_PLATFORM) {
            tks_platform_free(&rp->p);
            bad = tks__record_platform_decode(body, len, &rp->p) != 0;
            seen_p = !bad;
        } else if (kind == TKS__REC_PROGRAM) {
            if (rp->results || program(body, len, rp, &pg) != 0)
                bad = 1;
            else if (pg.n) {
                rp->n_results = pg.n * rp->o.repetitions;
                rp->results = calloc(rp->n_results, sizeof *rp->results);
                pg.done = calloc(pg.n, sizeof *pg.done);
                bad = !rp->results || !pg.done;
            }
        } else if (kind == TKS__REC_RUN) {
            bad = run(body, len, rp, &pg) != 0;
        } /* a section of a later kind: skipped */
        if (bad) {
            rc = -1;
            break;
        }
    }
    if (rc == 0 && (!seen_p || !rp->results))
        rc = -2;
    if (rc == 0)
        unfilled(rp, &pg);
    free(pg.v);
    free(pg.done);
    if (rc != 0) {
        tks__replay_free(rp);
        if (rc == -2)
            return tks__rec_fail(err, errlen, "the recording holds no %s",
                                 seen_p ? "benchmark program" : "machine");
        return tks__rec_damaged(err, errlen, pos);
    }
    return 0;
}

int tks__replay_file(const char *path, tks__replay *rp, char *err, size_t errlen)
{
    unsigned char *b;
    size_t n;
    int rc;
    memset(rp, 0, sizeof *rp);
    if ((rc = tks__rec_read_file(path, &b, &n, err, errlen)) != 0)
        return rc;
    rc = tks__replay_bytes(b, n, rp, err, errlen);
    free(b);
    return rc;
}

void tks__replay_free(tks__replay *rp)
{
    for (size_t i = 0; rp->results && i < rp->n_results; i++)
        tks_result_free(&rp->results[i]);
    free(rp->results);
    for (size_t i = 0; i < rp->n_strings; i++)
        free(rp->strings[i]);
    free(rp->strings);
    tks_platform_free(&rp->p);
    memset(rp, 0, sizeof *rp);
}
