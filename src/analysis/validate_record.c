/* SPDX-License-Identifier: MIT */
/* validate_record.c: `tickscope validate --record FILE` and its replay (validate.h,
 * docs/recording.md): a method section ('M') as each method is sampled (its empty windows and its
 * chain's rounds), then the validation's section ('V': where, the quantum, the time it took);
 * read back, each method's samples go to the analysis the live run called. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sample_record.h"
#include "analysis/validate.h"
#include "platform/record_platform.h"

int tks__validate_record_method(const tks__rec_sink *sink, const tks__validate_samples *s)
{
    tks__rec_buf b = {0};
    int e;
    tks__rec_put_str(&b, "method", tks_method_info(s->m)->name);
    tks__rec_put_u64(&b, "selected", (uint64_t)(s->selected != 0));
    tks__rec_put_u64(&b, "available", (uint64_t)(s->available != 0));
    tks__rec_put_u64(&b, "eligible", (uint64_t)(s->ineligible_reason == NULL));
    tks__rec_put_i64(&b, "rc", s->rc);
    if (s->available && !s->rc) {
        tks__rec_put_sample_run(&b, &s->run);
        tks__rec_put_i64(&b, "chain_rc", s->chain_rc);
        tks__rec_put_pairs(&b, "chain", s->chain, s->chain_rounds);
    }
    e = tks__rec_emit(sink, TKS__REC_METHOD, &b);
    tks__rec_free(&b);
    return e;
}

int tks__validate_record_end(const tks__rec_sink *sink, const tks_validate_options *o,
                             const tks_validation *v, uint32_t n_methods)
{
    tks__rec_buf b = {0};
    int e;
    tks__rec_put_i64(&b, "where", v->where);
    tks__rec_put_u64(&b, "chain", (uint64_t)(v->chain != 0));
    tks__rec_put_u64(&b, "quantum", v->quantum);
    tks__rec_put_u64(&b, "unfenced_step", v->unfenced_step);
    tks__rec_put_str(&b, "quantum_method", tks_method_info(v->quantum_method)->name);
    tks__rec_put_f64(&b, "seconds", v->seconds);
    tks__rec_put_u64(&b, "methods", n_methods);
    /* the options asked for (the samples' own counts are in each method's section) */
    tks__rec_put_u64(&b, "ensembles_asked", o->ensembles);
    tks__rec_put_u64(&b, "samples_asked", o->samples);
    tks__rec_put_f64(&b, "budget_s", o->budget_s);
    e = tks__rec_emit(sink, TKS__REC_VALIDATION, &b);
    tks__rec_free(&b);
    return e;
}

/* A method's name as recorded: its enum, or -1. */
static int method_named(const tks__rec_field *f)
{
    char name[32];
    tks__rec_str(f, name, sizeof name);
    return tks_method_from_name(name);
}

/* The validation's section: what the analysis needs before its methods. */
struct end {
    int where, chain, quantum_method;
    uint64_t quantum, unfenced_step, methods;
    double seconds;
};

static int end_section(const unsigned char *b, size_t n, struct end *e)
{
    tks__rec_field f;
    size_t pos = 0;
    int rc;
    memset(e, 0, sizeof *e);
    e->quantum_method = -1;
    while ((rc = tks__rec_field_next(b, n, &pos, &f)) == 1) {
        if (tks__rec_is(&f, "where"))
            e->where = f.type == TKS__REC_I64 ? (int)f.i : -1;
        else if (tks__rec_is(&f, "chain"))
            e->chain = f.u != 0;
        else if (tks__rec_is(&f, "quantum"))
            e->quantum = f.u;
        else if (tks__rec_is(&f, "unfenced_step"))
            e->unfenced_step = f.u;
        else if (tks__rec_is(&f, "quantum_method"))
            e->quantum_method = method_named(&f);
        else if (tks__rec_is(&f, "seconds"))
            e->seconds = tks__rec_number(&f);
        else if (tks__rec_is(&f, "methods"))
            e->methods = f.u;
    }
    if (rc != 0 || e->quantum < 1 || e->quantum_method < 0 || !isfinite(e->seconds) ||
        (e->where != TKS_WHERE_USER && e->where != TKS_WHERE_KERNEL_IRQ_OFF &&
         e->where != TKS_WHERE_KERNEL_PREEMPT_OFF) || e->methods > TKS_METHOD_COUNT)
        return -1;
    return 0;
}

/* A method's section into s (features: the recorded CPU's, for its eligibility). */
static int method_section(const unsigned char *b, size_t n, const struct tks_cpu_features *ft,
                          tks__validate_samples *s)
{
    tks__rec_field f;
    tks__rec_pairs chain;
    size_t pos = 0;
    int rc, m = -1, k;
    memset(s, 0, sizeof *s);
    s->run.kernel_cpu = -1;
    tks__rec_pairs_begin(&chain, "chain");
    while ((rc = tks__rec_field_next(b, n, &pos, &f)) == 1) {
        if ((k = tks__rec_pairs_field(&chain, &f)) != 0 ||
            (k = tks__rec_get_sample_run(&f, &s->run)) != 0) {
            if (k < 0)
                rc = -1;
        } else if (tks__rec_is(&f, "method"))
            m = method_named(&f);
        else if (tks__rec_is(&f, "selected"))
            s->selected = f.u != 0;
        else if (tks__rec_is(&f, "available"))
            s->available = f.u != 0;
        else if (tks__rec_is(&f, "rc"))
            s->rc = f.type == TKS__REC_I64 && f.i < 0 && f.i > -1000 ? (int)f.i : 0;
        else if (tks__rec_is(&f, "chain_rc"))
            s->chain_rc = f.type == TKS__REC_I64 && f.i < 0 && f.i > -1000 ? (int)f.i : 0;
        if (rc < 0)
            break;
    }
    if (tks__rec_pairs_end(&chain, s->chain, TKS_VALIDATE_CHAIN_ROUNDS, &s->chain_rounds) != 0)
        rc = -1;
    if (rc != 0 || m < 0 || !s->selected ||
        (s->available && !s->rc && tks__rec_sample_run_done(&s->run) != 0))
        return -1;
    s->m = (enum tks_method)m;
    s->ineligible_reason = tks_method_ineligible_reason(s->m, ft);
    return 0;
}

/* The methods' sections, in the order they were taken, through the live run's analysis. */
static int methods(const unsigned char *b, size_t n, size_t start, tks_validation *v,
                   const tks_platform *p, uint64_t *count, size_t *bad)
{
    size_t pos = start, len;
    const unsigned char *body;
    int kind, rc;
    *count = 0;
    while ((rc = tks__rec_section(b, n, &pos, &kind, &body, &len)) == 1) {
        tks__validate_samples s;
        if (kind != TKS__REC_METHOD)
            continue;
        *bad = (size_t)(body - b);
        if (method_section(body, len, &p->features, &s) != 0 || v->methods[s.m].selected) {
            tks__validate_samples_free(&s);
            return -1;
        }
        rc = tks__validate_analyse(v, &s, NULL);
        tks__validate_samples_free(&s);
        if (rc != 0)
            return -1;
        (*count)++;
    }
    return rc;
}

int tks__validate_replay(const unsigned char *b, size_t n, tks_platform *p, tks_validation **out,
                         char *err, size_t errlen)
{
    size_t pos, start, len;
    unsigned version;
    const unsigned char *body;
    int kind, rc, seen_p = 0, seen_v = 0;
    struct end e;
    uint64_t count;
    tks_validation *v;
    memset(p, 0, sizeof *p);
    *out = NULL;
    if ((rc = tks__rec_start(b, n, &pos, &version, err, errlen)) != 0)
        return rc;
    start = pos;
    while ((rc = tks__rec_section(b, n, &pos, &kind, &body, &len)) == 1) {
        if (kind == TKS__REC_PLATFORM) {
            tks_platform_free(p);
            if (tks__record_platform_decode(body, len, p) != 0)
                break;
            seen_p = 1;
        } else if (kind == TKS__REC_VALIDATION) {
            if (end_section(body, len, &e) != 0)
                break;
            seen_v = 1;
        }
    }
    if (rc != 0) {
        tks_platform_free(p);
        return tks__rec_damaged(err, errlen, pos);
    }
    if (!seen_p || !seen_v) {
        tks_platform_free(p);
        return tks__rec_fail(err, errlen, "the recording holds no %s",
                             seen_p ? "validation's end: it was cut short" : "machine");
    }
    if (!(v = tks__validation_new((enum tks_where)e.where, e.chain))) {
        tks_platform_free(p);
        return tks__rec_fail(err, errlen, "out of memory");
    }
    v->quantum = e.quantum;
    v->unfenced_step = e.unfenced_step;
    v->quantum_method = (enum tks_method)e.quantum_method;
    pos = start;
    if (methods(b, n, start, v, p, &count, &pos) != 0 || count != e.methods) {
        tks_validation_free(v);
        tks_platform_free(p);
        return tks__rec_damaged(err, errlen, pos);
    }
    tks__validate_conclude(v);
    v->seconds = e.seconds;
    *out = v;
    return 0;
}
