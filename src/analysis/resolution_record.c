/* SPDX-License-Identifier: MIT */
/* resolution_record.c: `tickscope resolution --record FILE` and its replay (resolution.h,
 * docs/recording.md): one section ('S') with the method and why, the quantum, every n's merged
 * windows and the long chain's rounds, and the time the run took; read back, they go to the
 * analysis the live run called. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/resolution.h"
#include "analysis/sample_record.h"
#include "analysis/summarise.h"
#include "analysis/validate.h"
#include "platform/record_platform.h"

void tks__resolution_record_samples(tks__rec_buf *body, const tks_resolution_result *r,
                                    const tks__resolution_samples *s)
{
    tks__rec_put_str(body, "method", tks_method_info(r->method)->name);
    tks__rec_put_str(body, "method_reason", r->method_reason);
    tks__rec_put_i64(body, "where", r->where);
    tks__rec_put_u64(body, "max_work", r->max_work);
    tks__rec_put_u64(body, "quantum", r->quantum);
    tks__rec_put_sample_run(body, &s->run);
    tks__rec_put_pairs(body, "long", s->longs, s->long_rounds);
}

int tks__resolution_record_end(const tks__rec_sink *sink, tks__rec_buf *body,
                               const tks_resolution_result *r)
{
    tks__rec_put_f64(body, "run_seconds", r->seconds);
    return tks__rec_emit(sink, TKS__REC_RESOLUTION, body);
}

/* The short validation that chose the method (recorded when --method was not given), analysed
 * again: its choice, why and its quantum, when it is the method the samples were taken with (a
 * later analysis recommending another leaves the recorded method, its why and quantum). 0, or
 * TKS_EINVAL with why in err. */
static int chosen_again(const unsigned char *b, size_t n, tks_resolution_result *r, char *err,
                        size_t errlen)
{
    tks_platform p;
    tks_validation *v;
    tks_resolution_result chosen;
    int rc = tks__validate_replay(b, n, &p, &v, err, errlen);
    if (rc != 0)
        return rc;
    memset(&chosen, 0, sizeof chosen);
    tks__resolution_method_of(v, &chosen);
    if (chosen.method == r->method) {
        r->method_reason = chosen.method_reason;
        r->quantum = chosen.quantum;
    }
    tks_validation_free(v);
    tks_platform_free(&p);
    return 0;
}

/* The section into r (its facts) and s (its samples); reason gets the method's why. */
static int section(const unsigned char *b, size_t n, tks_resolution_result *r,
                   tks__resolution_samples *s, char *reason, size_t reason_size)
{
    tks__rec_field f;
    tks__rec_pairs longs;
    size_t pos = 0;
    int rc, k, m = -1, seen_seconds = 0;
    char name[32];
    s->run.kernel_cpu = -1;
    r->where = (enum tks_where)-1;
    tks__rec_pairs_begin(&longs, "long");
    while ((rc = tks__rec_field_next(b, n, &pos, &f)) == 1) {
        if ((k = tks__rec_pairs_field(&longs, &f)) != 0 ||
            (k = tks__rec_get_sample_run(&f, &s->run)) != 0) {
            if (k < 0)
                rc = -1;
        } else if (tks__rec_is(&f, "method")) {
            tks__rec_str(&f, name, sizeof name);
            m = tks_method_from_name(name);
        } else if (tks__rec_is(&f, "method_reason"))
            tks__rec_str(&f, reason, reason_size);
        else if (tks__rec_is(&f, "where") && f.type == TKS__REC_I64 && f.i >= 0 && f.i < 16)
            r->where = (enum tks_where)f.i;
        else if (tks__rec_is(&f, "max_work") && f.u >= 1 && f.u <= TKS_WORK_MAX)
            r->max_work = (uint32_t)f.u;
        else if (tks__rec_is(&f, "quantum"))
            r->quantum = f.u;
        else if (tks__rec_is(&f, "run_seconds")) {
            r->seconds = tks__rec_number(&f);
            seen_seconds = isfinite(r->seconds);
        }
        if (rc < 0)
            break;
    }
    if (tks__rec_pairs_end(&longs, s->longs, TKS__RES_LONG_ROUNDS, &s->long_rounds) != 0)
        rc = -1;
    if (rc != 0 || m < 0 || !r->max_work || r->quantum < 1 || !seen_seconds ||
        (r->where != TKS_WHERE_USER && r->where != TKS_WHERE_KERNEL_IRQ_OFF &&
         r->where != TKS_WHERE_KERNEL_PREEMPT_OFF) ||
        tks__rec_sample_run_done(&s->run) != 0)
        return -1;
    r->method = (enum tks_method)m;
    r->method_reason = reason;
    return 0;
}

int tks__resolution_replay(const unsigned char *b, size_t n, tks_platform *p,
                           tks_resolution_result **out, char *reason, size_t reason_size,
                           char *err, size_t errlen)
{
    size_t pos, len, at = 0;
    unsigned version;
    const unsigned char *body, *res = NULL;
    size_t res_len = 0;
    int kind, rc, seen_p = 0, seen_v = 0;
    tks_resolution_result *r;
    tks__resolution_samples s;
    memset(p, 0, sizeof *p);
    *out = NULL;
    reason[0] = 0;
    if ((rc = tks__rec_start(b, n, &pos, &version, err, errlen)) != 0)
        return rc;
    while ((rc = tks__rec_section(b, n, &pos, &kind, &body, &len)) == 1) {
        if (kind == TKS__REC_PLATFORM) {
            tks_platform_free(p);
            if (tks__record_platform_decode(body, len, p) != 0)
                break;
            seen_p = 1;
        } else if (kind == TKS__REC_VALIDATION) {
            seen_v = 1;
        } else if (kind == TKS__REC_RESOLUTION) {
            res = body;
            res_len = len;
            at = (size_t)(body - b);
        }
    }
    if (rc != 0) {
        tks_platform_free(p);
        return tks__rec_damaged(err, errlen, pos);
    }
    if (!seen_p || !res) {
        tks_platform_free(p);
        return tks__rec_fail(err, errlen, "the recording holds no %s",
                             seen_p ? "resolution test" : "machine");
    }
    if (!(r = calloc(1, sizeof *r))) {
        tks_platform_free(p);
        return tks__rec_fail(err, errlen, "out of memory");
    }
    memset(&s, 0, sizeof s);
    tks__kernel_stats_init(&r->kernel);
    rc = section(res, res_len, r, &s, reason, reason_size) != 0 ? tks__rec_damaged(err, errlen, at)
         : seen_v ? chosen_again(b, n, r, err, errlen) : 0;
    if (rc == 0 && tks__resolution_analyse(r, &s, NULL) != 0)
        rc = tks__rec_damaged(err, errlen, at);
    if (rc != 0) {
        tks__resolution_samples_free(&s);
        tks_resolution_result_free(r);
        tks_platform_free(p);
        return rc;
    }
    tks__resolution_samples_free(&s);
    *out = r;
    return 0;
}
