/* SPDX-License-Identifier: MIT */
/* record_run.c: one run's windows and references written as a recording's section, and read
 * back into the state the analysis reads (record.h). Each array goes whole: the analysis of a
 * replay sees what the live analysis saw. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/record_members.h"
#include "runner/record.h"
#include "sample/add_check.h"
#include "stats/add_check_fit.h"

static tks__recorder *g_rec;

void tks__record_set(tks__recorder *rec)
{
    g_rec = rec;
}

const char *tks__record_role_of(const tks_options *o)
{
    return o->processes > 1 ? "run" : "next";
}

void tks__record_stand_in(const tks_options *o, int why)
{
    if (g_rec) {
        g_rec->role = tks__record_role_of(o);
        g_rec->forked = why;
    }
}

int tks__record_write(int fd, const tks__rec_buf *b)
{
    for (size_t done = 0; done < b->n;) {
        ssize_t w = write(fd, b->p + done, b->n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        done += (size_t)w;
    }
    return 0;
}

int tks__record_active(void)
{
    return g_rec && !g_rec->failed;
}

void tks__record_run(const struct tks_state *st, const tks_result *r, double calibrated)
{
    tks__rec_buf body = {0}, sec = {0};
    if (!g_rec || g_rec->failed)
        return;
    tks__record_run_encode(&body, st, r, calibrated, g_rec);
    tks__rec_put_section(&sec, TKS__REC_RUN, &body);
    /* one section at a time: a run's is never interleaved with another process's */
    g_rec->failed = sec.oom ? ENOMEM : tks__record_write(g_rec->fd, &sec);
    tks__rec_free(&body);
    tks__rec_free(&sec);
}

/* The run's scalars, each a field of the same name (base/record_members.h). */
#define S(kind, name, member) TKS__REC_MEMBER(struct tks_state, kind, name, member)
static const tks__rec_member state_members[] = {
    S(UNSIGNED, "quantum", quantum),
    S(DOUBLE, "tsc_hz", tsc_hz),
    S(SIGNED, "dry_run", dry_run),
    S(SIGNED, "hooks", hooks),
    S(SIGNED, "entered", entered),
    S(SIGNED, "skipped", skipped),
    S(SIGNED, "error", error),
    S(TEXT, "reason", reason),
    S(UNSIGNED, "migrated", migrated),
    S(UNSIGNED, "negative", negative),
    S(UNSIGNED, "warmup", warmup),
    S(UNSIGNED, "executed", executed),
    S(UNSIGNED, "batches", batches),
    S(UNSIGNED, "ref_windows", ref_windows),
    S(SIGNED, "companion", companion),
    S(SIGNED, "twice", twice),
    /* the add check's figures without its windows (a recording converted from a report, which
     * kept only them): the replay judges them */
    S(DOUBLE, "check_mul_adds", check.mul_adds),
    S(DOUBLE, "check_mul_se", check.mul_se),
    S(DOUBLE, "check_fp_adds", check.fp_adds),
    S(DOUBLE, "check_fp_se", check.fp_se),
};
#undef S
#define R(kind, name, member) TKS__REC_MEMBER(tks_result, kind, name, member)
static const tks__rec_member result_members[] = {
    R(TEXT, "name", name),
    R(SIGNED, "optimized", optimized),
    R(DOUBLE, "seconds", seconds),
};
#undef R
#define COUNT(a) (sizeof a / sizeof a[0])

/* The reference's windows regrouped: entry by entry as the state keeps them (each entry its
 * long chain's, then its short chain's, then ...), or kind by kind (every entry's long chain,
 * then every entry's short chain, ...), which packs far smaller: windows of one kind differ by a
 * timer step or two. to_kinds: 1 from the first order to the second, 0 back. */
static void by_kind(const uint64_t *from, uint64_t *to, size_t n, enum tks_mode mode, int to_kinds)
{
    size_t per = tks__reference_windows(mode), ns = mode == TKS_MODE_LATENCY ? TKS_GAP_SAMPLES
                                                                            : TKS_REF_SAMPLES;
    size_t seg[4] = {TKS_REF_SAMPLES, ns, ns, TKS_REF_SAMPLES}, nseg = 0, start = 0, at = 0;
    if (mode == TKS_MODE_LATENCY)
        nseg = 3;
    else
        nseg = 4, seg[2] = TKS_REF_SAMPLES;
    for (size_t k = 0; k < nseg; k++) {
        for (size_t e = 0; e < n; e++)
            for (size_t j = 0; j < seg[k]; j++, at++) {
                size_t entry = e * per + start + j;
                if (to_kinds)
                    to[at] = from[entry];
                else
                    to[entry] = from[at];
            }
        start += seg[k];
    }
}

void tks__record_run_encode(tks__rec_buf *b, const struct tks_state *st, const tks_result *r,
                            double calibrated, const tks__recorder *rec)
{
    const struct tks_method_info *mi = tks_method_info(st->method);
    tks__rec_put_str(b, "role", rec->role);
    if (rec->forked)
        tks__rec_put_u64(b, "forked", (uint64_t)rec->forked);
    tks__rec_put_str(b, "family", r->family);
    for (size_t i = 0; i < r->n_args && i < TKS_ARITY_MAX; i++)
        tks__rec_put_i64(b, "arg", r->args[i]);
    tks__rec_put_u64(b, "mode", (uint64_t)st->mode);
    tks__rec_put_str(b, "method", mi ? mi->name : "");
    tks__rec_put_members(b, r, result_members, COUNT(result_members));
    tks__rec_put_members(b, st, state_members, COUNT(state_members));
    tks__rec_put_f64(b, "calibrated", calibrated);
    tks__rec_put_u32s(b, "ks", st->ks, st->nk);
    tks__rec_put_u64s(b, "real", st->real, st->n);
    tks__rec_put_u64s(b, "empty", st->empty, st->n);
    tks__rec_put_u32s(b, "k", st->k, st->n);
    if (st->ref_w) { /* the reference's own windows: a replay makes each entry from them */
        uint64_t *t = malloc((st->n_ref ? st->n_ref : 1) * tks__reference_windows(st->mode) *
                             sizeof *t);
        if (!t)
            b->oom = 1;
        else {
            by_kind(st->ref_w, t, st->n_ref, st->mode, 1);
            tks__rec_put_u64s(b, "ref_windows_raw", t, st->n_ref * tks__reference_windows(st->mode));
        }
        free(t);
    } else { /* a state that kept only the entries */
        tks__rec_put_f64s(b, "ref", st->ref, st->n_ref);
        tks__rec_put_f64s(b, "ref_gap", st->ref_gap, st->n_ref);
        if (st->ref_floor)
            tks__rec_put_f64s(b, "ref_floor", st->ref_floor, st->n_ref);
    }
    tks__rec_put_sizes(b, "ref_end", st->ref_end, st->n_ref);
    if (st->chk_taken == 2) /* the add check's windows: the verdict is fitted again from them */
        tks__rec_put_u64s(b, "chk", st->chk, (size_t)TKS_CHECK_WINDOWS * 2 * TKS_ADD_CHECK_ROUNDS);
    tks__rec_put_u64s(b, "c_real", st->c_real, st->c_n);
    tks__rec_put_u64s(b, "c_empty", st->c_empty, st->c_n);
    tks__rec_put_u32s(b, "c_k", st->c_k, st->c_n);
    tks__rec_put_u64s(b, "t_once", st->t_once, st->t_n);
    tks__rec_put_u64s(b, "t_twice", st->t_twice, st->t_n);
    tks__rec_put_sizes(b, "t_ref", st->t_ref, st->t_n);
    for (size_t i = 0; i < st->n_work; i++) {
        tks__rec_put_str(b, "work_name", st->work[i].name);
        tks__rec_put_f64(b, "work_value", st->work[i].value);
        tks__rec_put_u64(b, "work_flags", st->work[i].flags);
    }
}

/* ---------------------------------------------------------------- reading */

/* An array field into a fresh allocation of its count (at least one element). */
static void *take(const tks__rec_field *f, size_t size, int (*get)(const tks__rec_field *, void *))
{
    void *p = malloc((f->count ? f->count : 1) * size);
    if (p && get(f, p) != 0) {
        free(p);
        p = NULL;
    }
    return p;
}
static int get_u64s(const tks__rec_field *f, void *out) { return tks__rec_u64s(f, out); }
static int get_u32s(const tks__rec_field *f, void *out) { return tks__rec_u32s(f, out); }
static int get_sizes(const tks__rec_field *f, void *out) { return tks__rec_sizes(f, out); }
static int get_f64s(const tks__rec_field *f, void *out) { return tks__rec_f64s(f, out); }

/* The arrays that must agree in length: n (windows), n_ref, c_n, t_n; -1 for a disagreement. */
struct lengths {
    size_t n[3], ref[4], c[3], t[3], raw;
    int seen_n, seen_ref, seen_c, seen_t;
};

/* A scalar field into st, r or m: 0, or -1 when it is damaged. Fields this tickscope does not
 * know are skipped. */
static int scalar(const tks__rec_field *f, struct tks_state *st, tks_result *r,
                  tks__record_meta *m)
{
    int k = tks__rec_get_member(f, st, state_members, COUNT(state_members));
    if (k == 0)
        k = tks__rec_get_member(f, r, result_members, COUNT(result_members));
    if (k != 0)
        return k < 0 ? -1 : 0;
    if (tks__rec_is(f, "role"))
        tks__rec_str(f, m->role, sizeof m->role);
    else if (tks__rec_is(f, "forked")) {
        if (f->type != TKS__REC_U64 || f->u == 0 || f->u > INT_MAX)
            return -1;
        m->forked = (int)f->u;
    }
    else if (tks__rec_is(f, "calibrated"))
        m->calibrated = isfinite(tks__rec_number(f)) ? tks__rec_number(f) : 0;
    else if (tks__rec_is(f, "family")) {
        free(m->family);
        if (!(m->family = malloc(f->len + 1)))
            return -1;
        tks__rec_str(f, m->family, f->len + 1);
    } else if (tks__rec_is(f, "arg")) {
        if (f->type != TKS__REC_I64 || r->n_args >= TKS_ARITY_MAX)
            return -1;
        r->args[r->n_args++] = f->i;
    } else if (tks__rec_is(f, "method")) {
        char name[32];
        int mth;
        tks__rec_str(f, name, sizeof name);
        if ((mth = tks_method_from_name(name)) < 0)
            return -1;
        st->method = (enum tks_method)mth;
    } else if (tks__rec_is(f, "mode")) {
        if (f->type != TKS__REC_U64 || f->u > TKS_MODE_THROUGHPUT)
            return -1;
        st->mode = (enum tks_mode)f->u;
    } else if (tks__rec_is(f, "work_name")) {
        if (st->n_work >= TKS_WORK_COUNTERS_MAX)
            return -1;
        tks__rec_str(f, st->work[st->n_work++].name, sizeof st->work[0].name);
    } else if (tks__rec_is(f, "work_value") && st->n_work)
        st->work[st->n_work - 1].value = tks__rec_number(f);
    else if (tks__rec_is(f, "work_flags") && st->n_work)
        st->work[st->n_work - 1].flags = (unsigned)f->u;
    return 0;
}

/* An array field into its place in st; its length noted in lens. 1 when it was one of them. */
static int array(const tks__rec_field *f, struct tks_state *st, struct lengths *l)
{
    static const struct {
        const char *name;
        size_t off, size;
        int (*get)(const tks__rec_field *, void *);
        int group, slot;
    } arrays[] = {
        {"real", offsetof(struct tks_state, real), 8, get_u64s, 0, 0},
        {"empty", offsetof(struct tks_state, empty), 8, get_u64s, 0, 1},
        {"k", offsetof(struct tks_state, k), 4, get_u32s, 0, 2},
        {"ref", offsetof(struct tks_state, ref), 8, get_f64s, 1, 0},
        {"ref_gap", offsetof(struct tks_state, ref_gap), 8, get_f64s, 1, 1},
        {"ref_floor", offsetof(struct tks_state, ref_floor), 8, get_f64s, 1, 2},
        {"ref_end", offsetof(struct tks_state, ref_end), sizeof(size_t), get_sizes, 1, 3},
        {"c_real", offsetof(struct tks_state, c_real), 8, get_u64s, 2, 0},
        {"c_empty", offsetof(struct tks_state, c_empty), 8, get_u64s, 2, 1},
        {"c_k", offsetof(struct tks_state, c_k), 4, get_u32s, 2, 2},
        {"t_once", offsetof(struct tks_state, t_once), 8, get_u64s, 3, 0},
        {"t_twice", offsetof(struct tks_state, t_twice), 8, get_u64s, 3, 1},
        {"t_ref", offsetof(struct tks_state, t_ref), sizeof(size_t), get_sizes, 3, 2},
        {"chk", offsetof(struct tks_state, chk), 8, get_u64s, -1, 0},
        {"ref_windows_raw", offsetof(struct tks_state, ref_w), 8, get_u64s, -2, 0},
    };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        void **slot;
        size_t *lens[] = {l->n, l->ref, l->c, l->t};
        if (!tks__rec_is(f, arrays[i].name))
            continue;
        slot = (void **)((char *)st + arrays[i].off);
        free(*slot);
        if (!(*slot = take(f, arrays[i].size, arrays[i].get)))
            return -1;
        if (arrays[i].group >= 0)
            lens[arrays[i].group][arrays[i].slot] = f->count;
        else if (arrays[i].group == -2)
            l->raw = f->count;
        else if (f->count != (size_t)TKS_CHECK_WINDOWS * 2 * TKS_ADD_CHECK_ROUNDS)
            return -1;
        else
            st->chk_taken = 2;
        return 1;
    }
    if (tks__rec_is(f, "ks")) {
        if (f->count > TKS_POINTS_MAX || tks__rec_u32s(f, st->ks) != 0)
            return -1;
        st->nk = f->count;
        return 1;
    }
    return 0;
}

/* The reference's entries made again from its recorded windows, as the live run made them. */
static int entries(struct tks_state *st, struct lengths *l)
{
    size_t per = tks__reference_windows(st->mode), n;
    uint64_t *w;
    if (l->raw % per || (n = l->raw / per) != l->ref[3] || !(w = malloc(l->raw ? l->raw * sizeof *w : 1)))
        return -1;
    by_kind(st->ref_w, w, n, st->mode, 0);
    free(st->ref_w);
    st->ref_w = w;
    free(st->ref);
    free(st->ref_gap);
    free(st->ref_floor);
    st->ref = malloc((n ? n : 1) * sizeof *st->ref);
    st->ref_gap = malloc((n ? n : 1) * sizeof *st->ref_gap);
    st->ref_floor = malloc((n ? n : 1) * sizeof *st->ref_floor);
    if (!st->ref || !st->ref_gap || !st->ref_floor)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (tks__reference_entry(st->ref_w + i * per, st->mode, st->quantum, &st->ref[i],
                                 &st->ref_gap[i], &st->ref_floor[i]) != 0)
            return -1; /* the live run kept only the windows that made an entry */
    l->ref[0] = l->ref[1] = l->ref[2] = n;
    return 0;
}

static int lengths_agree(struct tks_state *st, struct lengths *l)
{
    if (st->ref_w && entries(st, l) != 0)
        return -1;
    for (int i = 1; i < 3; i++)
        if (l->n[i] != l->n[0] || l->c[i] != l->c[0] || l->t[i] != l->t[0])
            return -1;
    if (l->ref[1] != l->ref[0] || l->ref[3] != l->ref[0] || (st->ref_floor && l->ref[2] != l->ref[0]))
        return -1;
    st->n = st->cap = l->n[0];
    st->n_ref = st->ref_cap = l->ref[0];
    st->c_n = st->c_cap = l->c[0];
    st->t_n = st->t_cap = l->t[0];
    for (size_t i = 0; i < st->n_ref; i++) /* the analysis indexes the windows with these */
        if (st->ref_end[i] > st->n)
            return -1;
    /* t_ref[i] may be n_ref (the last batch's reference not taken yet: the analysis takes the
     * one before), but there must be one */
    return st->t_n && !st->n_ref ? -1 : 0;
}

int tks__record_run_decode(const unsigned char *p, size_t n, struct tks_state *st, tks_result *r,
                           tks__record_meta *meta)
{
    struct lengths l;
    tks__rec_field f;
    size_t pos = 0;
    int rc;
    memset(&l, 0, sizeof l);
    tks__state_init(st);
    memset(meta, 0, sizeof *meta);
    while ((rc = tks__rec_field_next(p, n, &pos, &f)) == 1) {
        int a = array(&f, st, &l);
        if (a < 0 || (a == 0 && scalar(&f, st, r, meta) != 0)) {
            rc = -1;
            break;
        }
    }
    if (rc == 0 && (!r->name[0] || st->method == TKS_METHOD_COUNT || lengths_agree(st, &l) != 0))
        rc = -1;
    if (rc != 0) {
        tks__state_release(st);
        free(meta->family);
        meta->family = NULL;
        return -1;
    }
    if (st->chk_taken == 2)
        tks__add_check_fit(st->chk, 2 * TKS_ADD_CHECK_ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT,
                           &st->check);
    else if (st->check.mul_adds > 0 || st->check.fp_adds > 0)
        tks__add_check_judge(&st->check);
    st->name = r->name;
    r->family = meta->family;
    r->mode = st->mode;
    r->method = st->method;
    if (!st->quantum)
        st->quantum = 1;
    if (!isfinite(st->tsc_hz) || st->tsc_hz < 0)
        st->tsc_hz = 0;
    meta->optimized = r->optimized;
    meta->dry_run = st->dry_run;
    r->quantum = st->quantum;
    r->has_arg = r->n_args > 0;
    r->arg = r->n_args ? r->args[0] : 0;
    st->arg = r->arg;
    return 0;
}
