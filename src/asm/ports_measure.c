/* SPDX-License-Identifier: MIT */
/* ports_measure.c: the measurements of `asm --ports`: a snippet in independent runs until two
 * agree (remembered by text; assembled and checked once, run without disassembly), and the machine's width, the most instructions a cycle a body
 * of forms on disjoint units runs: a dispatch and rename limit, not a port's. */
#include "asm/ports_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"
#include "base/now.h"

/* Two readings of one figure taken together: the fastest, and the hull of the intervals. */
void tks__ports_hull(tks_asm_interval *acc, tks_asm_interval v)
{
    if (!isfinite(acc->value)) {
        *acc = v;
        return;
    }
    acc->value = v.value < acc->value ? v.value : acc->value;
    acc->lo = v.lo < acc->lo ? v.lo : acc->lo;
    acc->hi = v.hi > acc->hi ? v.hi : acc->hi;
}

/* The memo's entry of text, or a new one (NULL: no memory). */
static tks__ports_measured *entry(tks__ports_ctx *c, const char *text)
{
    tks__ports_measured *e;
    for (size_t i = 0; i < c->n_memo; i++)
        if (strcmp(c->memo[i].text, text) == 0)
            return &c->memo[i];
    if (c->n_memo == c->cap_memo) {
        size_t cap = c->cap_memo ? 2 * c->cap_memo : 64;
        tks__ports_measured *m = realloc(c->memo, cap * sizeof *m);
        if (!m)
            return NULL;
        c->memo = m;
        c->cap_memo = cap;
    }
    e = &c->memo[c->n_memo];
    memset(e, 0, sizeof *e);
    if (!(e->text = strdup(text)))
        return NULL;
    c->n_memo++;
    return e;
}

/* Whether the snippets are assembled here (user space, a syntax `as` reads): their runs then
 * need neither the assembler nor objdump. */
static int assembles(const tks__ports_ctx *c)
{
    return c->base->where == TKS_WHERE_USER && c->base->syntax != TKS_ASM_HEX;
}

/* e's bytes, a copy of code[0..len). 0 or TKS_ENOMEM. */
static int keep(tks__ports_measured *e, const unsigned char *code, size_t len)
{
    if (!(e->code = malloc(len ? len : 1)))
        return TKS_ENOMEM;
    memcpy(e->code, code, len);
    e->len = len;
    return 0;
}

int tks__ports_prepare(tks__ports_ctx *c, const char *const *texts, size_t n, unsigned unchecked)
{
    const char *todo[8];
    size_t k = 0, off[9];
    unsigned char *code = NULL;
    char err[TKS_ASM_ERROR_LEN];
    double t0 = tks__now_s();
    int rc = 0;
    if (!assembles(c))
        return 0;
    /* the texts (their memo's copies, which stay put while entry() moves the memo) not yet
     * assembled nor measured, each once */
    for (size_t i = 0; i < n && k < 8; i++) {
        tks__ports_measured *x = entry(c, texts[i]);
        int seen = 0;
        if (!x)
            return TKS_ENOMEM;
        if (x->code || x->measured ||
            tks__asm_check_syntax(texts[i], c->base->syntax, "the snippet", err, sizeof err))
            continue;
        for (size_t j = 0; j < k; j++)
            seen |= !strcmp(todo[j], x->text);
        if (!seen)
            todo[k++] = x->text;
    }
    if (k && tks__asm_assemble(todo, k, c->base->syntax, "snippet", &code, off, err,
                               sizeof err) == 0) {
        for (size_t j = 0; j < k && !rc; j++) {
            size_t o[2] = {0, off[j + 1] - off[j]};
            int check = 1;
            for (size_t i = 0; i < n; i++)
                if (!strcmp(texts[i], todo[j]))
                    check = !(unchecked >> i & 1);
            if (check && tks__asm_check_copies(code + off[j], o, 1, 1, err, sizeof err))
                continue; /* measured alone, it will say why */
            rc = keep(entry(c, todo[j]), code + off[j], o[1]); /* there: entry() finds it */
        }
    }
    free(code);
    c->r->seconds_assembling += tks__now_s() - t0;
    return rc;
}

/* The snippet's bytes, assembled and checked once for all its runs: prepared before, or now
 * (alone, so an error names it). *code points into the memo's entry e (valid until the memo
 * grows). Not assembled here (ring 0, hex): *code NULL, and each run goes through
 * tks_asm_run. */
static int prepare(tks__ports_ctx *c, const tks_asm_options *o, tks_asm_result *res,
                   tks__ports_measured *e, const unsigned char **code, size_t *off)
{
    const char *v[1] = {o->code};
    unsigned char *fresh = NULL;
    double t0 = tks__now_s();
    int rc = 0;
    *code = NULL;
    if (!assembles(c))
        return 0;
    if (!e->code) {
        if ((rc = tks__asm_check_syntax(o->code, o->syntax, "the snippet", res->error,
                                        sizeof res->error)) == 0 &&
            (rc = tks__asm_assemble(v, 1, o->syntax, "snippet", &fresh, off, res->error,
                                    sizeof res->error)) == 0 &&
            (rc = tks__asm_check_copies(fresh, off, 1, 1, res->error, sizeof res->error)) == 0)
            rc = keep(e, fresh, off[1]);
        free(fresh);
        c->r->seconds_assembling += tks__now_s() - t0;
        if (rc)
            return rc;
    }
    *code = e->code;
    off[0] = 0, off[1] = e->len;
    return 0;
}

/* A run of the prepared bytes ends once its interval is within 0.5% of its figure (at least
 * 10 ms of windows; the budget is the most it takes): a mix's overlap is read to 0.25 ports,
 * and 0.5% of a mix of n ports is n/200 of a port. The two runs that must agree still hold
 * the spread between runs. */
static const tks__asm_adaptive ports_stop = {0.01, 0.005, 0.0005};

/* One run: of the prepared bytes (no disassembly), or tks_asm_run. */
static int run_once(tks__ports_ctx *c, const tks_asm_options *o, const unsigned char *code,
                    const size_t *off, tks_asm_result *res)
{
    double t0 = tks__now_s();
    int rc;
    if (code) {
        memset(res, 0, sizeof *res);
        res->mode = o->mode;
        res->ring = 3;
        res->kernel_cpu = -1;
        rc = tks__asm_measure_code(o, &ports_stop, res, code, off, 1, NULL, 0, 0);
    } else {
        rc = tks_asm_run(o, res);
    }
    c->r->seconds_running += tks__now_s() - t0;
    c->r->harness_runs++;
    return rc;
}

int tks__ports_measure(tks__ports_ctx *c, const char *text, const char *what, int fresh,
                       tks_asm_interval *out)
{
    tks_asm_options o = *c->base;
    tks_asm_result *res;
    tks__ports_measured *e = entry(c, text);
    const unsigned char *code = NULL;
    size_t off[2] = {0, 0};
    int rc;
    if (!e)
        return TKS_ENOMEM;
    if (e->measured && !fresh) {
        *out = e->v;
        c->r->memo_hits++;
        return e->rc;
    }
    if (!(res = calloc(1, sizeof *res)))
        return TKS_ENOMEM;
    o.code = text;
    o.mode = TKS_ASM_THROUGHPUT;
    o.init = NULL;
    o.chain = NULL;
    rc = prepare(c, &o, res, e, &code, off);
    /* independent runs, until two agree within their intervals (five at most): the figure is
     * the faster of the two (other load only slows a loop down), the interval the hull of both,
     * so it holds the spread between runs and not only within one; a run disturbed beyond
     * them is left out. No two agreeing: the hull of all. */
    {
        tks_asm_interval got[5], all = {NAN, NAN, NAN};
        int n = 0;
        *out = (tks_asm_interval){NAN, NAN, NAN};
        while (!rc && n < 5 && !isfinite(out->value)) {
            rc = run_once(c, &o, code, off, res);
            if (rc == 0 && !isfinite(res->core_cycles.value)) {
                rc = TKS_EUNAVAIL;
                snprintf(res->error, sizeof res->error, "no core-cycle reference could be measured");
            }
            if (rc)
                break;
            got[n] = res->core_cycles;
            tks__ports_hull(&all, got[n]);
            for (int i = 0; i < n && !isfinite(out->value); i++)
                if (got[i].lo <= got[n].hi && got[i].hi >= got[n].lo) {
                    *out = got[i];
                    tks__ports_hull(out, got[n]);
                }
            n++;
            tks_asm_result_free(res);
            memset(res, 0, sizeof *res);
        }
        if (!rc && !isfinite(out->value))
            *out = all;
    }
    if (rc)
        *out = (tks_asm_interval){NAN, NAN, NAN};
    if (rc)
        snprintf(c->error, sizeof c->error, "%s", res->error);
    tks_asm_result_free(res);
    free(res);
    e->v = *out;
    e->rc = rc;
    e->measured = 1;
    c->r->runs++;
    if (c->progress)
        c->progress(c->progress_arg, c->r->runs, c->total, what);
    return rc;
}

/* A body of 4 * counts[j] copies of each kind (ALU, vector ALU, load, NOP), spread evenly,
 * each copy on a register of its own among those the kind may write. */
static int width_body(const int counts[4], enum tks_asm_syntax syntax, char *buf, size_t size)
{
    static const char *const kinds[2][4] = {
        {"mov %s, 1", "vpaddd ymm%d, ymm15, ymm15", "mov %s, [r14]", "nop"},
        {"mov $1, %%%s", "vpaddd %%ymm15, %%ymm15, %%ymm%d", "mov (%%r14), %%%s", "nop"}};
    const char *const *kind = kinds[syntax == TKS_ASM_ATT];
    int done[4] = {0, 0, 0, 0}, total = 0, half = TKS__ASM_GPR_POOL / 2;
    size_t len = 0;
    for (int j = 0; j < 4; j++)
        total += 4 * counts[j];
    for (int i = 0; i < total; i++) {
        int t = -1, w, n;
        char line[64];
        for (int j = 0; j < 4; j++)
            if (done[j] < 4 * counts[j] &&
                (t < 0 || (done[j] + 0.5) * counts[t] < (done[t] + 0.5) * counts[j]))
                t = j;
        n = done[t]++;
        /* the ALU part on the first half of the general registers, the loads on the rest */
        if (t == 0 || t == 2)
            snprintf(line, sizeof line, kind[t],
                     tks__asm_pool_gpr((unsigned)(t == 0 ? n % half
                                                         : half + n % (TKS__ASM_GPR_POOL - half))));
        else if (t == 1)
            snprintf(line, sizeof line, kind[t], n % 15);
        else
            snprintf(line, sizeof line, "%s", kind[t]);
        w = snprintf(buf + len, size - len, "%s%s", len ? "\n" : "", line);
        if (w < 0 || (size_t)w >= size - len)
            return TKS_EINVAL;
        len += (size_t)w;
    }
    return 0;
}

/* A width body, in instructions a cycle; raises r->width (r->width_memory with loads) when
 * its runs agreed. */
static int width_of(tks__ports_ctx *c, const int counts[4], int fresh, tks_asm_interval *rate)
{
    char body[4096];
    int total = 4 * (counts[0] + counts[1] + counts[2] + counts[3]), rc;
    tks_asm_interval v;
    *rate = (tks_asm_interval){NAN, NAN, NAN};
    if ((rc = width_body(counts, c->base->syntax, body, sizeof body)) != 0)
        return rc;
    rc = tks__ports_measure(c, body, "width", fresh, &v);
    if (rc == TKS_ENOMEM)
        return rc;
    if (rc == 0 && v.lo > 0) {
        *rate = (tks_asm_interval){total / v.value, total / v.hi, total / v.lo};
        tks_asm_interval *w = counts[2] ? &c->r->width_memory : &c->r->width;
        /* runs that did not agree (an interval wider than 10%) do not set the width */
        if (!(rate->value <= w->value) && rate->hi <= 1.1 * rate->lo)
            *w = *rate;
    }
    return 0;
}

/* ALU, vector and NOP bodies (the width); bodies half loads, as a mix of a form with the load
 * blocker is (the width with memory operands); the NOP body last (the width now). */
static const int width_mixes[][4] = {{4, 4, 0, 0}, {3, 3, 0, 2}, {4, 0, 4, 0}, {0, 4, 4, 0},
                                     {2, 2, 4, 0}, {0, 0, 0, 8}};
#define N_WIDTH (sizeof width_mixes / sizeof width_mixes[0])

int tks__ports_width(tks__ports_ctx *c)
{
    tks_asm_interval rate;
    int rc = 0;
    c->r->width = c->r->width_memory = (tks_asm_interval){NAN, NAN, NAN};
    for (size_t m = 0; m < N_WIDTH && !rc; m++)
        rc = width_of(c, width_mixes[m], 0, &rate);
    return rc;
}

int tks__ports_width_now(tks__ports_ctx *c, tks_asm_interval *rate)
{
    return width_of(c, width_mixes[N_WIDTH - 1], 1, rate);
}
