/* SPDX-License-Identifier: MIT */
/* cpu_table.c: the instruction table of the CPU at hand: the catalogue's forms and their
 * measurements, what the per-model cache already holds taken from it, the rest measured in
 * batches and appended to the cache as each batch ends (so that an interrupted run continues
 * where it stopped), with progress and the time left, each measurement handed out as soon as it
 * is final (the console streams its row). */
#include "asm/cpu_table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/now.h"
#include "platform/cache.h"
#include "tickscope/platform.h"

void tks__asm_table_free(tks__asm_table *t)
{
    free(t->e);
    memset(t, 0, sizeof *t);
}

/* How the harness measures a snippet, in every row's hash: a row measured another way is
 * measured again. 2: throughput loops of 256 bytes or more (asm/run.c); 3: the table's too.
 * (A changed init changes the hash by itself: the snippet's text includes it.) */
#define METHOD_VERSION 3

/* FNV-1a over a snippet's variants and init: a snippet whose text changed is measured again. */
static uint64_t snippet_hash(const tks__asm_snippet *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = (h ^ METHOD_VERSION) * 0x100000001b3ull;
    for (size_t v = 0; v <= s->nvar; v++) {
        const char *p = v < s->nvar ? s->variant[v] : s->init ? s->init : "";
        for (; *p; p++)
            h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
        h = (h ^ 0xff) * 0x100000001b3ull;
    }
    return h;
}

/* The cache file of this CPU model: beside the per-boot calibration, named after the model
 * (and the ring, for ring 0's). */
int tks__asm_table_cache_file(const char *cache_dir, int ring0, char *cpu, size_t cpusz,
                              char *path, size_t size)
{
    tks_cpu_identity id;
    char base[512], *slash, model[96];
    int rc;
    memset(&id, 0, sizeof id);
    tks_cpu_identity_probe(&id);
    snprintf(cpu, cpusz, "%s", id.brand[0] ? id.brand : id.vendor);
    snprintf(model, sizeof model, "%s-%u-%u-%u", id.vendor[0] ? id.vendor : "unknown", id.family,
             id.model, id.stepping);
    for (char *p = model; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-')
            *p = '_';
    if ((rc = tks__cache_path(cache_dir, base, sizeof base)) != 0)
        return rc;
    if ((slash = strrchr(base, '/')) != NULL)
        *slash = 0;
    if ((size_t)snprintf(path, size, "%s/asm-table-%s%s.csv", base, model,
                         ring0 ? "-ring0" : "") >= size)
        return TKS_ERANGE;
    return 0;
}

static void make_dirs(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0700);
            *p = '/';
        }
}

/* The entries of the catalogue (forms whose name holds o->only), and their snippets. */
static int entries_of(const tks__asm_table_options *o, tks__asm_table *t,
                      tks__asm_snippet **snips)
{
    uint64_t feats = tks__asm_cpu_feats();
    tks__asm_form *forms = NULL;
    size_t nforms = 0, cap = 0;
    int rc = tks__asm_catalog_forms(feats, &forms, &nforms);
    if (rc)
        return rc;
    *snips = NULL;
    for (size_t i = 0; i < nforms && !rc; i++) {
        tks__asm_measure_spec spec[8];
        size_t ns;
        if (o->only && !strstr(forms[i].name, o->only))
            continue;
        ns = tks__asm_form_specs(&forms[i], spec, 8);
        t->forms++;
        for (size_t k = 0; k < ns && !rc; k++) {
            tks__asm_entry *e;
            tks__asm_snippet *s;
            if (t->n == cap) {
                tks__asm_entry *g = realloc(t->e, (cap = cap ? 2 * cap : 1024) * sizeof *g);
                tks__asm_snippet *h = g ? realloc(*snips, cap * sizeof *h) : NULL;
                if (g)
                    t->e = g;
                if (!h) {
                    rc = TKS_ENOMEM;
                    break;
                }
                *snips = h;
            }
            e = &t->e[t->n];
            s = &(*snips)[t->n];
            memset(e, 0, sizeof *e);
            if ((rc = tks__asm_form_snippet(&forms[i], &spec[k], s)) != 0)
                break;
            snprintf(e->form, sizeof e->form, "%s", forms[i].name);
            snprintf(e->key, sizeof e->key, "%s", spec[k].key);
            snprintf(e->feature, sizeof e->feature, "%s%s%s", tks__asm_feat_name(forms[i].feat),
                     forms[i].feat2 ? "+" : "",
                     forms[i].feat2 ? tks__asm_feat_name(forms[i].feat2) : "");
            snprintf(e->snippet, sizeof e->snippet, "%s", s->variant[0]);
            for (char *p = e->snippet; *p; p++)
                if (*p == '\n')
                    *p = ';';
            e->kind = spec[k].kind;
            e->src = spec[k].src;
            e->dst = spec[k].dst;
            e->hash = snippet_hash(s);
            e->res.cycles.value = NAN;
            t->n++;
        }
    }
    free(forms);
    return rc;
}

/* Take what the cache holds for entries whose snippet is unchanged; 1 where taken. */
static void from_cache(const tks__asm_table *c, tks__asm_table *t)
{
    /* the last row of a measurement wins: a second pass appends its narrower result */
    for (size_t i = 0; i < t->n; i++)
        for (size_t j = c->n; j-- > 0;)
            if (c->e[j].hash == t->e[i].hash && strcmp(c->e[j].key, t->e[i].key) == 0 &&
                strcmp(c->e[j].form, t->e[i].form) == 0 && c->e[j].res.rc == 0) {
                t->e[i].res = c->e[j].res;
                t->e[i].chain_cycles = c->e[j].chain_cycles;
                t->e[i].from_cache = 1;
                break;
            }
}

/* The cache rewritten with the entries already known (a temporary renamed over it), then
 * opened for appending. NULL when it cannot be written (the table is still measured). */
static FILE *cache_open(const char *path, const tks__asm_table *t, const tks__asm_table *old)
{
    char tmp[600];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    make_dirs(path);
    if (!(f = fopen(tmp, "w")))
        return NULL;
    tks__asm_csv_header(f);
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].from_cache)
            tks__asm_csv_entry(f, &t->e[i]);
    /* rows of forms this run does not cover (another --only, a catalogue of another build):
     * kept, so that the cache only grows */
    for (size_t j = 0; old && j < old->n; j++) {
        int covered = 0;
        for (size_t i = 0; i < t->n && !covered; i++)
            covered = strcmp(old->e[j].form, t->e[i].form) == 0 &&
                      strcmp(old->e[j].key, t->e[i].key) == 0;
        if (!covered && old->e[j].res.rc == 0)
            tks__asm_csv_entry(f, &old->e[j]);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return NULL;
    }
    return fopen(path, "a");
}

/* Whether a measurement came out wider than a comparison needs (a throughput's half-width over
 * 2.5% of it, a latency's over 0.025 cycles: a busy machine's doing): measured once more. */
static int too_wide(const tks__asm_entry *e)
{
    const tks__asm_batch_result *r = &e->res;
    double half = (r->cycles.hi - r->cycles.lo) / 2;
    return r->rc == 0 && (!isfinite(half) || (e->kind == TKS__KIND_THROUGHPUT
                                                  ? half > 0.025 * fabs(r->cycles.value)
                                                  : half > 0.025));
}

/* The run's pace (for the time left), and the batch under way: its entries idx[0..n), their
 * results res (after the AND chain's, res[0], when chain: measured first, so that each
 * address latency is final when it ends), and in the second pass the first
 * pass's entries (keep) that stay when the new one is not narrower. */
struct pace {
    const tks__asm_table_options *o;
    tks__asm_table *t;
    size_t done_before, total;
    double start;
    const size_t *idx;
    int chain;
    const tks__asm_batch_result *res;
    const tks__asm_entry *keep;
    FILE *cache;
    int rerun; /* the run-to-run pass: its readings are compared, never streamed or cached */
};

/* The k-th entry of the batch has its result: the AND chain subtracted from an address latency
 * (the difference of two measurements: the interval's ends subtract crosswise), the narrower of
 * two passes kept, appended to the cache; and, when it is final (no second pass to come), handed
 * to o->row. */
static void settle(struct pace *p, size_t k)
{
    tks__asm_entry *e = &p->t->e[p->idx[k]];
    const tks__asm_batch_result *c = &p->res[0];
    int final = 1;
    e->res = p->res[k + (size_t)p->chain];
    if (e->kind == TKS__KIND_LATENCY_ADDR && e->res.rc == 0) {
        if (c->rc) {
            e->res.rc = c->rc;
            snprintf(e->res.error, sizeof e->res.error, "the AND chain: %.180s", c->error);
        } else {
            e->chain_cycles = c->cycles.value;
            e->res.cycles.value -= c->cycles.value;
            e->res.cycles.lo -= c->cycles.hi;
            e->res.cycles.hi -= c->cycles.lo;
            e->res.ticks.value -= c->ticks.value;
            e->res.ticks.lo -= c->ticks.hi;
            e->res.ticks.hi -= c->ticks.lo;
        }
    }
    if (p->rerun)
        return;
    if (!p->keep) {
        final = p->o->no_second_pass || !too_wide(e);
        if (p->cache && e->res.rc == 0)
            tks__asm_csv_entry(p->cache, e);
    } else if (e->res.rc || e->res.cycles.hi - e->res.cycles.lo >
                                p->keep[k].res.cycles.hi - p->keep[k].res.cycles.lo) {
        *e = p->keep[k];
    } else if (p->cache) { /* after the first pass's row: the cache's last row wins */
        tks__asm_csv_entry(p->cache, e);
    }
    if (final && p->o->row)
        p->o->row(p->o->ctx, p->t, p->idx[k]);
}

static void on_done(void *ctx, size_t k, size_t n)
{
    struct pace *p = ctx;
    size_t done = p->done_before + k;
    double spent = tks__now_s() - p->start;
    (void)n;
    if (k > (size_t)p->chain) /* the AND chain, first when there is one, is no entry */
        settle(p, k - 1 - (size_t)p->chain);
    if (p->o->progress)
        p->o->progress(p->o->ctx, done, p->total,
                       done ? spent / (double)done * (double)(p->total - done) : NAN);
}

/* Measure the pending entries idx[0..n) (after, when one is an address latency, the AND chain
 * subtracted from it); each settled as it ends. keep: the second pass's (else NULL). */
static int run_batch(const tks__asm_table_options *o, tks__asm_table *t, tks__asm_snippet *snips,
                     const size_t *idx, size_t n, const tks__asm_entry *keep, struct pace *pace)
{
    tks__asm_snippet *s = malloc((n + 1) * sizeof *s), chain;
    tks__asm_batch_result *res = malloc((n + 1) * sizeof *res);
    size_t has_addr = 0;
    int rc;
    if (!s || !res) {
        free(s), free(res);
        return TKS_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        has_addr |= t->e[idx[i]].kind == TKS__KIND_LATENCY_ADDR;
    if (has_addr && (rc = tks__asm_addr_chain_snippet(tks__asm_cpu_feats(), &chain)) != 0) {
        free(s), free(res);
        return rc;
    }
    if (has_addr)
        s[0] = chain;
    for (size_t i = 0; i < n; i++)
        s[i + has_addr] = snips[idx[i]];
    pace->o = o;
    pace->idx = idx;
    pace->chain = has_addr != 0;
    pace->res = res;
    pace->keep = keep;
    rc = tks__asm_measure_batch(s, n + has_addr, &o->batch, res, on_done, pace);
    if (rc && !keep) /* none measured (no `as`): each says why */
        for (size_t i = 0; i < n; i++)
            t->e[idx[i]].res = res[i + has_addr];
    if (pace->cache)
        fflush(pace->cache);
    if (has_addr)
        tks__asm_snippet_free(&chain);
    pace->done_before += n + has_addr;
    free(s), free(res);
    return rc;
}

/* The run-to-run terms (table_spread.c): every stride-th entry measured now is measured again
 * at the run's end, the first reading kept; the 98th percentile of the differences per kind
 * widens every interval of the run, and the widened rows go to the cache (its last row wins). */
static int run_term(const tks__asm_table_options *o, tks__asm_table *t, tks__asm_snippet *snips,
                    size_t *idx, FILE *cache, struct pace *pace)
{
    size_t m = 0, bs = o->batch_size ? o->batch_size : 48, stride, nt = 0, nl = 0;
    tks__asm_entry *keep;
    double *dt, *dl;
    int rc = 0;
    for (size_t i = 0; i < t->n; i++)
        m += !t->e[i].from_cache && t->e[i].res.rc == 0;
    /* about a quarter, and at least 40 where there are */
    stride = m >= 160 ? 4 : m >= 80 ? 2 : 1;
    for (size_t i = 0, k = 0, n = 0; i < t->n; i++)
        if (!t->e[i].from_cache && t->e[i].res.rc == 0 && k++ % stride == 0)
            idx[n++] = i, t->rerun = n;
    if (t->rerun < 8)
        return t->rerun = 0, 0;
    keep = malloc(t->rerun * sizeof *keep);
    dt = malloc(t->rerun * sizeof *dt);
    dl = malloc(t->rerun * sizeof *dl);
    if (!keep || !dt || !dl) {
        free(keep), free(dt), free(dl);
        return TKS_ENOMEM;
    }
    for (size_t k = 0; k < t->rerun; k++)
        keep[k] = t->e[idx[k]];
    pace->total += t->rerun + (t->rerun + bs - 1) / bs;
    pace->rerun = 1;
    for (size_t at = 0; at < t->rerun && !rc; at += bs)
        rc = run_batch(o, t, snips, idx + at, t->rerun - at < bs ? t->rerun - at : bs, NULL, pace);
    pace->rerun = 0;
    for (size_t k = 0; k < t->rerun; k++) {
        tks__asm_entry *e = &t->e[idx[k]];
        double a = keep[k].res.cycles.value, b = e->res.cycles.value;
        if (!rc && e->res.rc == 0 && isfinite(a) && isfinite(b)) {
            if (e->kind == TKS__KIND_THROUGHPUT && a != 0)
                dt[nt++] = fabs(b - a) / fabs(a);
            else if (e->kind != TKS__KIND_THROUGHPUT)
                dl[nl++] = fabs(b - a);
        }
        *e = keep[k];
    }
    if (!rc) {
        /* a kind with fewer than 8 pairs borrows nothing: its intervals stay as measured */
        t->run_term_thr = nt >= 8 ? tks__asm_quantile(dt, nt, 0.98) : NAN;
        t->run_term_lat = nl >= 8 ? tks__asm_quantile(dl, nl, 0.98) : NAN;
        tks__asm_table_widen(t);
        for (size_t i = 0; cache && i < t->n; i++)
            if (!t->e[i].from_cache && t->e[i].res.rc == 0)
                tks__asm_csv_entry(cache, &t->e[i]);
        if (cache)
            fflush(cache);
    }
    free(keep), free(dt), free(dl);
    return rc;
}

/* In ring 0, whether the kernel module runs snippets at all (loaded, permitted, allow_snippets,
 * not locked down), asked with one NOP before the cache is touched or a row handed out: its
 * refusal is every row's. 0, or the run's error in err. */
static int kernel_ready(const tks__asm_batch_options *b, char *err, size_t size)
{
    tks_asm_options ao;
    tks_asm_result r;
    int rc;
    if (b->where == TKS_WHERE_USER)
        return 0;
    tks_asm_options_init(&ao);
    ao.code = "nop";
    ao.budget = 0.01;
    ao.where = b->where;
    ao.kernel_device = b->kernel_device;
    ao.pin_cpu = b->pin_cpu;
    rc = tks_asm_run(&ao, &r);
    if (rc)
        snprintf(err, size, "%s", r.error);
    tks_asm_result_free(&r);
    return rc;
}

int tks__asm_table_build(const tks__asm_table_options *o, tks__asm_table *t, char *err,
                         size_t errsz)
{
    tks__asm_snippet *snips = NULL;
    tks__asm_table old;
    size_t *idx = NULL, pending = 0, bs = o->batch_size ? o->batch_size : 48;
    FILE *cache = NULL;
    struct pace pace;
    double t0 = tks__now_s();
    int rc, have_old = 0;
    memset(t, 0, sizeof *t);
    memset(&old, 0, sizeof old);
    t->ring0 = o->batch.where != TKS_WHERE_USER;
    *err = 0;
    if ((rc = kernel_ready(&o->batch, err, errsz)) != 0)
        goto out;
    if ((rc = entries_of(o, t, &snips)) != 0) {
        snprintf(err, errsz, "%s", tks_strerror(rc));
        goto out;
    }
    if (!(o->cache_dir && !*o->cache_dir) &&
        tks__asm_table_cache_file(o->cache_dir, t->ring0, t->cpu, sizeof t->cpu,
                                  t->cache_path, sizeof t->cache_path) == 0) {
        char ignored[256];
        /* --force measures every form of this run again; the cache's rows of forms outside
         * it (another --only) are still kept */
        if (tks__asm_table_read_csv(t->cache_path, &old, ignored, sizeof ignored) == 0) {
            have_old = 1;
            if (!o->force)
                from_cache(&old, t);
        }
        if (!(cache = cache_open(t->cache_path, t, have_old ? &old : NULL)))
            t->cache_path[0] = 0;
    }
    if (!(idx = malloc((t->n ? t->n : 1) * sizeof *idx))) {
        rc = TKS_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < t->n; i++)
        if (!t->e[i].from_cache)
            idx[pending++] = i;
    memset(&pace, 0, sizeof pace);
    pace.t = t;
    pace.cache = cache;
    pace.total = pending + (pending + bs - 1) / bs; /* an AND chain per batch at most */
    pace.start = tks__now_s();
    for (size_t i = 0; o->row && i < t->n; i++) /* what the cache gave is final already */
        if (t->e[i].from_cache)
            o->row(o->ctx, t, i);
    for (size_t at = 0; at < pending && !rc; at += bs) {
        size_t n = pending - at < bs ? pending - at : bs;
        rc = run_batch(o, t, snips, idx + at, n, NULL, &pace);
        if (rc && rc != TKS_ENOMEM) /* no `as`, or the kernel module refused: every row alike */
            snprintf(err, errsz, "%s", t->e[idx[at]].res.error);
    }
    t->measured = pending;
    /* A second pass over what came out too wide, with three times the budget; the narrower
     * result is kept. */
    if (!rc && !o->no_second_pass) {
        tks__asm_table_options o2 = *o;
        size_t wide = 0;
        for (size_t i = 0; i < t->n; i++)
            if (!t->e[i].from_cache && too_wide(&t->e[i]))
                idx[wide++] = i;
        o2.batch.budget = 3 * (o->batch.budget > 0 ? o->batch.budget : 0.1);
        o2.batch.min_budget = o->batch.budget > 0 ? o->batch.budget : 0.1;
        pace.total += wide + (wide + bs - 1) / bs;
        for (size_t at = 0; at < wide && !rc; at += bs) {
            size_t n = wide - at < bs ? wide - at : bs;
            tks__asm_entry *keep = malloc(n * sizeof *keep);
            if (!keep) {
                rc = TKS_ENOMEM;
                break;
            }
            for (size_t k = 0; k < n; k++)
                keep[k] = t->e[idx[at + k]];
            rc = run_batch(&o2, t, snips, idx + at, n, keep, &pace);
            free(keep);
        }
        t->second_pass = wide;
    }
    t->run_term_thr = t->run_term_lat = NAN;
    if (!rc && !o->no_run_term)
        rc = run_term(o, t, snips, idx, cache, &pace);
out:
    if (cache)
        fclose(cache);
    for (size_t i = 0; snips && i < t->n; i++)
        tks__asm_snippet_free(&snips[i]);
    free(snips);
    free(idx);
    if (have_old)
        tks__asm_table_free(&old);
    t->seconds = tks__now_s() - t0;
    if (rc && !*err)
        snprintf(err, errsz, "%s", tks_strerror(rc));
    return rc;
}
