/* SPDX-License-Identifier: MIT */
/* asm_record.c: one snippet's recording and its replay (asm_record.h). */
#include "asm/asm_record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/record_diags.h"
#include "base/record_members.h"
#include "platform/record_platform.h"

/* The child's add check, each a field of the same name. */
#define C(kind, name, member) TKS__REC_MEMBER(tks__add_check, kind, name, member)
static const tks__rec_member check_members[] = {
    C(SIGNED, "check_verdict", verdict),     C(DOUBLE, "check_add_ticks", add_ticks),
    C(DOUBLE, "check_mul_adds", mul_adds),   C(DOUBLE, "check_mul_se", mul_se),
    C(DOUBLE, "check_fp_adds", fp_adds),     C(DOUBLE, "check_fp_se", fp_se),
    C(SIGNED, "check_mul_cycles", mul_cycles), C(SIGNED, "check_fp_cycles", fp_cycles),
    C(DOUBLE, "check_add_cycles", add_cycles), C(DOUBLE, "check_add_se", add_se),
};
#undef C
#define COUNT(a) (sizeof a / sizeof a[0])

int tks__asm_record(const tks__rec_sink *sink, const tks_asm_options *o, const tks_asm_result *r,
                    const tks__asm_windows *w, uint64_t quantum)
{
    tks__rec_buf b = {0};
    int e;
    tks__rec_put_str(&b, "code", o->code);
    if (o->init && *o->init)
        tks__rec_put_str(&b, "init", o->init);
    if (o->chain)
        tks__rec_put_str(&b, "chain", o->chain);
    tks__rec_put_i64(&b, "syntax", o->syntax);
    tks__rec_put_i64(&b, "mode", o->mode);
    tks__rec_put_u64(&b, "chase_bytes", o->chase_bytes);
    tks__rec_put_u64(&b, "align", o->align);
    tks__rec_put_i64(&b, "where", o->where);
    tks__rec_put_u32s(&b, "unroll", r->unroll, TKS_ASM_UNROLLS);
    tks__rec_put_u64(&b, "code_bytes", r->code_bytes);
    tks__rec_put_i64(&b, "ring", r->ring);
    for (size_t i = 0; i < r->n_disasm && i < TKS_ASM_DISASM_MAX; i++)
        tks__rec_put_str(&b, "disasm", r->disasm[i]);
    tks__rec_put_diags(&b, "diag", &r->diags);
    tks__rec_put_u64(&b, "quantum", quantum);
    tks__rec_put_u64(&b, "loops", w->loops);
    tks__rec_put_u64(&b, "ref_loops", w->ref_loops);
    tks__rec_put_u64(&b, "rounds", w->rounds);
    tks__rec_put_u64s(&b, "snip", w->snip, w->rounds * TKS_ASM_UNROLLS);
    tks__rec_put_u64s(&b, "ref", w->ref, w->rounds * TKS_ASM_UNROLLS);
    tks__rec_put_members(&b, &w->check, check_members, COUNT(check_members));
    e = tks__rec_emit(sink, TKS__REC_ASM, &b);
    tks__rec_free(&b);
    return e;
}

static char *dup_str(const tks__rec_field *f)
{
    char *s = malloc(f->len + 1);
    if (s)
        tks__rec_str(f, s, f->len + 1);
    return s;
}

/* A windows array of rounds x TKS_ASM_UNROLLS. */
static int windows(const tks__rec_field *f, size_t rounds, uint64_t **out)
{
    if (*out || !rounds || f->count != rounds * TKS_ASM_UNROLLS ||
        !(*out = malloc(f->count * sizeof **out)))
        return -1;
    return tks__rec_u64s(f, *out);
}

static int section(const unsigned char *b, size_t n, tks__asm_replayed *x, tks__asm_windows *w,
                   uint64_t *quantum)
{
    tks__rec_field f;
    tks__rec_diags_reader diags;
    size_t pos = 0;
    int rc, unrolls = 0, m;
    tks__rec_diags_begin(&diags, "diag", &x->r.diags);
    while ((rc = tks__rec_field_next(b, n, &pos, &f)) == 1) {
        char **s = tks__rec_is(&f, "code") ? &x->code : tks__rec_is(&f, "init") ? &x->init
                   : tks__rec_is(&f, "chain") ? &x->chain : NULL;
        if (tks__rec_diags_field(&diags, &f))
            continue;
        if ((m = tks__rec_get_member(&f, &w->check, check_members, COUNT(check_members))) != 0) {
            rc = m < 0 ? -1 : 1;
        } else if (s) {
            free(*s);
            rc = (*s = dup_str(&f)) ? 1 : -1;
        } else if (tks__rec_is(&f, "syntax"))
            x->syntax = (int)f.i;
        else if (tks__rec_is(&f, "mode"))
            x->mode = (int)f.i;
        else if (tks__rec_is(&f, "where"))
            x->where = (int)f.i;
        else if (tks__rec_is(&f, "chase_bytes"))
            x->chase_bytes = f.u;
        else if (tks__rec_is(&f, "align"))
            x->align = (uint32_t)f.u;
        else if (tks__rec_is(&f, "unroll"))
            rc = f.count == TKS_ASM_UNROLLS && tks__rec_u32s(&f, x->r.unroll) == 0 && ++unrolls ? 1 : -1;
        else if (tks__rec_is(&f, "code_bytes"))
            x->r.code_bytes = (size_t)f.u;
        else if (tks__rec_is(&f, "ring"))
            x->r.ring = (int)f.i;
        else if (tks__rec_is(&f, "disasm") && x->r.n_disasm < TKS_ASM_DISASM_MAX)
            tks__rec_str(&f, x->r.disasm[x->r.n_disasm++], sizeof x->r.disasm[0]);
        else if (tks__rec_is(&f, "quantum"))
            *quantum = f.u;
        else if (tks__rec_is(&f, "loops"))
            w->loops = f.u;
        else if (tks__rec_is(&f, "ref_loops"))
            w->ref_loops = f.u;
        else if (tks__rec_is(&f, "rounds"))
            w->rounds = f.u <= n * TKS__REC_BLOCK ? (size_t)f.u : 0;
        else if (tks__rec_is(&f, "snip"))
            rc = windows(&f, w->rounds, &w->snip) == 0 ? 1 : -1;
        else if (tks__rec_is(&f, "ref"))
            rc = windows(&f, w->rounds, &w->ref) == 0 ? 1 : -1;
        if (rc != 1)
            break;
    }
    tks__rec_diags_end(&diags);
    if (rc < 0 || !x->code || !unrolls || !w->snip || !w->ref || *quantum < 1 || !w->loops ||
        !w->ref_loops || (x->mode != TKS_ASM_LATENCY && x->mode != TKS_ASM_THROUGHPUT) ||
        x->where != TKS_WHERE_USER || x->syntax < TKS_ASM_INTEL || x->syntax > TKS_ASM_HEX ||
        w->check.verdict < TKS_ADD_CHECK_NONE || w->check.verdict > TKS_ADD_CHECK_DISAGREE)
        return -1;
    for (int j = 0; j < TKS_ASM_UNROLLS; j++)
        if (!x->r.unroll[j])
            return -1;
    x->r.mode = (enum tks_asm_mode)x->mode;
    x->r.kernel_cpu = -1;
    return 0;
}

int tks__asm_replay(const unsigned char *b, size_t n, tks__asm_replayed *x, char *err,
                    size_t errlen)
{
    size_t pos, len, at = 0, res_len = 0;
    unsigned version;
    const unsigned char *body, *res = NULL;
    int kind, rc, seen_p = 0;
    tks__asm_windows w;
    uint64_t quantum = 0;
    memset(x, 0, sizeof *x);
    memset(&w, 0, sizeof w);
    if ((rc = tks__rec_start(b, n, &pos, &version, err, errlen)) != 0)
        return rc;
    while ((rc = tks__rec_section(b, n, &pos, &kind, &body, &len)) == 1) {
        if (kind == TKS__REC_PLATFORM) {
            tks_platform_free(&x->p);
            if (tks__record_platform_decode(body, len, &x->p) != 0)
                break;
            seen_p = 1;
        } else if (kind == TKS__REC_ASM) {
            res = body;
            res_len = len;
            at = (size_t)(body - b);
        }
    }
    if (rc != 0 || !seen_p || !res) {
        tks__asm_replayed_free(x);
        return rc != 0 ? tks__rec_damaged(err, errlen, pos)
                       : tks__rec_fail(err, errlen, "the recording holds no %s",
                                       seen_p ? "snippet" : "machine");
    }
    rc = section(res, res_len, x, &w, &quantum) != 0 ? tks__rec_damaged(err, errlen, at) : 0;
    if (!rc && tks__asm_fit(&x->r, &w, quantum) != 0)
        rc = tks__rec_fail(err, errlen, "%s", x->r.error);
    if (!rc)
        tks__asm_linear_check(&x->r);
    free(w.snip);
    free(w.ref);
    if (rc)
        tks__asm_replayed_free(x);
    return rc;
}

void tks__asm_replayed_free(tks__asm_replayed *x)
{
    tks_platform_free(&x->p);
    tks_asm_result_free(&x->r);
    free(x->code);
    free(x->init);
    free(x->chain);
    memset(x, 0, sizeof *x);
}
