/* SPDX-License-Identifier: MIT */
/* batch.c: many snippets measured at the cost of few: one run of the assembler for all of them
 * (their variants and inits, each in a section of its own), no disassembly, and windows taken
 * only until the interval is as narrow as asked (the adaptive stop of snippet_child.c). Each
 * snippet still runs in a child process of its own, so a fault costs its row only. */
#include "asm/asm_internal.h"
#include "asm/catalog.h"
#include "base/now.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The texts of snippets [from, to): each one's variants, then its init (or an empty line). */
static const char **texts_of(const tks__asm_snippet *s, size_t from, size_t to, size_t *count)
{
    size_t n = 0;
    const char **t;
    for (size_t i = from; i < to; i++)
        n += s[i].nvar + 1;
    if (!(t = malloc(n * sizeof *t)))
        return NULL;
    n = 0;
    for (size_t i = from; i < to; i++) {
        for (size_t v = 0; v < s[i].nvar; v++)
            t[n++] = s[i].variant[v];
        t[n++] = s[i].init ? s[i].init : "nop";
    }
    *count = n;
    return t;
}

/* Whether rc is the kernel module's refusal of every snippet alike (no module, not permitted,
 * snippets not allowed, another ABI): nothing after it can be measured either. */
static int refused_all(const tks__asm_batch_options *o, int rc)
{
    return o->where != TKS_WHERE_USER && (rc == TKS_ENODEV || rc == TKS_EPERM ||
                                          rc == TKS_EUNAVAIL || rc == TKS_EPROTO);
}

/* Assemble snippets [from, to) into *bytes with offsets off (count + 1 of them). */
static int assemble_range(const tks__asm_snippet *s, size_t from, size_t to,
                          unsigned char **bytes, size_t **off, char *err, size_t errsz)
{
    size_t count = 0;
    const char **t = texts_of(s, from, to, &count);
    int rc;
    if (!t)
        return TKS_ENOMEM;
    if (!(*off = malloc((count + 1) * sizeof **off))) {
        free(t);
        return TKS_ENOMEM;
    }
    rc = tks__asm_assemble(t, count, TKS_ASM_INTEL, "snippet", bytes, *off, err, errsz);
    free(t);
    if (rc) {
        free(*off);
        *off = NULL;
    }
    return rc;
}

static void measure_one(const tks__asm_snippet *s, const unsigned char *bytes, const size_t *off,
                        const tks__asm_batch_options *o, tks_asm_result *r,
                        tks__asm_batch_result *res)
{
    tks_asm_options ao;
    tks__asm_adaptive ad;
    double t0 = tks__now_s();
    const size_t *init_off = off + s->nvar;
    tks_asm_options_init(&ao);
    ao.mode = s->mode;
    ao.budget = o->budget > 0 ? o->budget : 0.1;
    ao.timeout = o->timeout > 0 ? o->timeout : 1;
    ao.pin_cpu = o->pin_cpu;
    ao.quantum = o->quantum ? o->quantum : 1;
    ao.scratch_bytes = o->scratch_bytes;
    ao.where = o->where;
    ao.kernel_device = o->kernel_device;
    ad.min_budget = o->min_budget > 0 ? o->min_budget : 0.004;
    ad.rel_width = o->rel_width > 0 ? o->rel_width : 0.01;
    ad.abs_width = o->abs_width > 0 ? o->abs_width : 0.01;
    memset(r, 0, sizeof *r);
    res->rc = o->where == TKS_WHERE_USER
                  ? tks__asm_measure_code(&ao, &ad, r, bytes, off, s->nvar, bytes + init_off[0],
                                          s->init ? init_off[1] - init_off[0] : 0, 0)
                  : tks__asm_measure_kernel(&ao, r, bytes, off, s->nvar, bytes + init_off[0],
                                            s->init ? init_off[1] - init_off[0] : 0, 0);
    if (res->rc) {
        snprintf(res->error, sizeof res->error, "%.199s", r->error);
    } else {
        res->ticks = r->ticks_per_copy;
        res->cycles = r->core_cycles;
        res->r2 = r->fit.r2;
        res->windows = r->windows;
    }
    tks_asm_result_free(r);
    res->seconds = tks__now_s() - t0;
}

int tks__asm_measure_batch(const tks__asm_snippet *s, size_t n, const tks__asm_batch_options *o,
                           tks__asm_batch_result *res,
                           void (*done)(void *ctx, size_t k, size_t n), void *ctx)
{
    unsigned char *bytes = NULL;
    size_t *off = NULL;
    char err[TKS_ASM_ERROR_LEN];
    tks_asm_result *r = malloc(sizeof *r);
    int rc, refused = 0;
    if (!r)
        return TKS_ENOMEM;
    memset(res, 0, n * sizeof *res);
    rc = n ? assemble_range(s, 0, n, &bytes, &off, err, sizeof err) : 0;
    if (rc == TKS_EUNAVAIL || rc == TKS_ENOMEM) {
        for (size_t i = 0; i < n; i++) {
            res[i].rc = rc;
            snprintf(res[i].error, sizeof res[i].error, "%.199s", err);
        }
        free(r);
        return rc;
    }
    for (size_t i = 0, at = 0; i < n; i++) {
        if (rc) {
            /* The batch did not assemble: each snippet alone, so one the assembler refuses
             * (an older binutils) fails its own row only. */
            unsigned char *b1 = NULL;
            size_t *o1 = NULL;
            res[i].rc = assemble_range(s, i, i + 1, &b1, &o1, res[i].error, sizeof res[i].error);
            if (!res[i].rc)
                measure_one(&s[i], b1, o1, o, r, &res[i]);
            free(b1);
            free(o1);
        } else {
            measure_one(&s[i], bytes, off + at, o, r, &res[i]);
            at += s[i].nvar + 1;
        }
        if (done)
            done(ctx, i + 1, n);
        if (refused_all(o, res[i].rc)) {
            refused = res[i].rc;
            for (size_t k = i + 1; k < n; k++) {
                res[k].rc = refused;
                snprintf(res[k].error, sizeof res[k].error, "%s", res[i].error);
            }
            break;
        }
    }
    free(bytes);
    free(off);
    free(r);
    return refused;
}
