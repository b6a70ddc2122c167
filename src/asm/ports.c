/* SPDX-License-Identifier: MIT */
/* ports.c: tks_ports_infer: the port sets of single-uop forms from timing alone. Each form runs
 * alone (copies on distinct registers: its throughput, so its port count n = 1/throughput); then
 * mixes: ka = na*s copies of form a beside kb = nb*s copies of blocker b, each part alone taking
 * s cycles. If the two use disjoint ports the mix takes s cycles too (the max); if they share all
 * their ports it takes 2s (the sum); in general the ports of both are busy for (ka + kb) / |A u B|
 * cycles, so the mix's time gives |A u B| and the ports shared, na + nb - |A u B|. Each part is
 * also measured alone on the registers it has in the mix: a part slower than s alone is bound by
 * its own latency, and the mix then says nothing about ports (the pair is marked so). The
 * machine's width is measured first and again beside each mix (ports_measure.c). Blockers are
 * measured against each other first, which gives their domains; then each form against the
 * representatives of each domain, and against the rest of a domain only where those do not
 * read disjoint (ports_prune.c); ports_judge.c
 * reads each mix (one at the width bounds the overlap from above only), ports_solve.c turns the
 * overlaps into sets. */
#include "tickscope/asm_ports.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"
#include "asm/asm_regs.h"
#include "asm/ports_catalog.h"
#include "asm/ports_measure.h"
#include "asm/ports_prune.h"
#include "base/now.h"

/* The general registers the placeholders may take (as the harness's throughput pool), and 16
 * vector registers. */
#define NGPR TKS__ASM_GPR_POOL
#define NVEC 16
#define MAX_BODY 40 /* instructions a mix's body may hold (the loop stays in the op cache) */

typedef tks__ports_ctx ctx;

/* Registers a part of a body may use: which of the pools, and which entries. */
typedef struct regs {
    int gpr[NGPR], ngpr;
    int vec[NVEC], nvec;
} regs;

static int uses_gpr(const char *code) { return strstr(code, "{r}") != NULL; }
static int uses_vec(const char *code) { return strstr(code, "{x}") || strstr(code, "{y}"); }

/* The registers neither code names literally (they are taken by the code itself). */
static void free_regs(const char *a, const char *b, regs *out)
{
    tks__asm_regset sa, sb, one;
    tks__asm_regs_named(a, &sa);
    tks__asm_regs_named(b ? b : "", &sb);
    out->ngpr = out->nvec = 0;
    for (int i = 0; i < NGPR; i++) {
        tks__asm_regs_named(tks__asm_pool_gpr((unsigned)i), &one);
        if (!(one.named & (sa.named | sb.named)))
            out->gpr[out->ngpr++] = i;
    }
    for (int i = 0; i < NVEC; i++)
        if (!((sa.named | sb.named) & ((uint64_t)1 << (16 + i))))
            out->vec[out->nvec++] = i;
}

/* Append k copies of code to buf, copy i on register i % count of its pools. */
static int append_copies(char *buf, size_t size, size_t *len, const char *code, int k,
                         const regs *g, enum tks_asm_syntax syntax)
{
    for (int i = 0; i < k; i++) {
        const char *gpr = g->ngpr ? tks__asm_pool_gpr((unsigned)g->gpr[i % g->ngpr]) : "rax";
        int vec = g->nvec ? g->vec[i % g->nvec] : 0;
        char *t = tks__asm_expand(code, syntax, gpr, vec);
        int w;
        if (!t)
            return TKS_ENOMEM;
        w = snprintf(buf + *len, size - *len, "%s%s", *len ? "\n" : "", t);
        free(t);
        if (w < 0 || (size_t)w >= size - *len)
            return TKS_EINVAL;
        *len += (size_t)w;
    }
    return 0;
}

/* Core cycles per loop copy of text, measured once (ports_measure.c). */
static int measure(ctx *c, const char *text, const char *what, tks_asm_interval *out)
{
    return tks__ports_measure(c, text, what, 0, out);
}

/* One form alone: as many copies as it has registers (12 without placeholders). */
static int measure_alone(ctx *c, tks_ports_form *f)
{
    regs g;
    char body[8192];
    size_t len = 0;
    int k, rc;
    tks_asm_interval v;
    free_regs(f->code, NULL, &g);
    k = uses_gpr(f->code) && uses_vec(f->code) ? (g.ngpr < g.nvec ? g.ngpr : g.nvec)
        : uses_gpr(f->code) ? g.ngpr : uses_vec(f->code) ? g.nvec : 12;
    if (k < 1)
        k = 1;
    if ((rc = append_copies(body, sizeof body, &len, f->code, k, &g, c->base->syntax)) != 0)
        return rc;
    rc = measure(c, body, f->name, &v);
    if (rc == TKS_ENOMEM)
        return rc;
    if (rc) {
        f->status = TKS_PORTS_FAILED;
        snprintf(f->error, sizeof f->error, "%s", c->error);
        return 0;
    }
    f->cycles = (tks_asm_interval){v.value / k, v.lo / k, v.hi / k};
    f->per_cycle = 1.0 / f->cycles.value;
    f->ports = (int)lround(f->per_cycle);
    /* one uop on n ports runs n a cycle: a rate 15% off every whole number is something else */
    if (f->ports < 1 || f->ports > TKS_PORTS_MAX_PORTS ||
        fabs(f->per_cycle - f->ports) > 0.15 * f->ports) {
        f->status = TKS_PORTS_NOT_SINGLE;
        f->ports = 0;
    }
    return 0;
}

/* Split the free registers of one pool between the form (a) and the blocker (b): the blocker
 * one register (it does not read its destination), the form the rest; two blockers half each. */
static void split(const int *pool, int n, int a_needs, int b_needs, int b_blocker, int *a, int *na,
                  int *b, int *nb)
{
    int give_b = !b_needs ? 0 : !a_needs ? n : b_blocker ? 1 : n / 2;
    *na = *nb = 0;
    for (int i = 0; i < n; i++) {
        if (i < n - give_b)
            a[(*na)++] = pool[i];
        else
            b[(*nb)++] = pool[i];
    }
}

/* n parts, k[j] copies of code[j], spread evenly (the part whose next copy is due earliest
 * goes first), copy i of a part on register i of its pools. */
static int interleave(const char *const *code, const regs *g, const int *k, int n, char *body,
                      size_t size, size_t *len, enum tks_asm_syntax syntax)
{
    int done[4] = {0, 0, 0, 0}, total = 0, rc;
    for (int j = 0; j < n; j++)
        total += k[j];
    for (int i = 0; i < total; i++) {
        int t = -1;
        regs one;
        for (int j = 0; j < n; j++)
            if (done[j] < k[j] &&
                (t < 0 || (done[j] + 0.5) * k[t] < (done[t] + 0.5) * k[j]))
                t = j;
        one = g[t];
        /* copy idx of its part: rotate the pool so append_copies's copy 0 is register idx */
        if (one.ngpr)
            one.gpr[0] = one.gpr[done[t] % one.ngpr], one.ngpr = 1;
        if (one.nvec)
            one.vec[0] = one.vec[done[t] % one.nvec], one.nvec = 1;
        done[t]++;
        if ((rc = append_copies(body, size, len, code[t], 1, &one, syntax)) != 0)
            return rc;
    }
    return 0;
}

/* The registers of a mix of form fa with fb: the blocker one of each pool it uses, the form
 * the rest (two blockers: half each). */
static void pair_regs(const tks_ports_form *fa, const tks_ports_form *fb, regs *ra, regs *rb)
{
    regs all;
    free_regs(fa->code, fb->code, &all);
    split(all.gpr, all.ngpr, uses_gpr(fa->code), uses_gpr(fb->code), fb->blocker, ra->gpr,
          &ra->ngpr, rb->gpr, &rb->ngpr);
    split(all.vec, all.nvec, uses_vec(fa->code), uses_vec(fb->code), fb->blocker, ra->vec,
          &ra->nvec, rb->vec, &rb->nvec);
}

/* The width beside a mix: the NOP body right after it. Another thread on the core takes a
 * share of the width while it runs: a mix that reads as sharing while the NOPs ran below 90%
 * of the width is taken again (twice at most), and the one beside the fastest NOPs kept. */
static int width_beside(ctx *c, tks_ports_pair *p, const char *body)
{
    int n = c->r->forms[p->a].ports + c->r->forms[p->b].ports, rc;
    tks_ports_result one = *c->r;
    /* a mix that reads disjoint whatever the width (overlap exactly 0), or says nothing (a part
     * bound by its latency), needs no NOP body beside it: the width there changes neither */
    one.pairs = p, one.n_pairs = 1;
    tks_ports_judge(&one);
    if (p->overlap == 0 || p->why == TKS_PORTS_WHY_LATENCY) {
        c->r->nops_saved++;
        return 0;
    }
    for (int t = 0; t < 3; t++) {
        tks_asm_interval m = p->mix, w;
        if (t > 0 && (rc = tks__ports_measure(c, body, "again", 1, &m)) != 0)
            return rc == TKS_ENOMEM ? rc : 0;
        if (t > 0)
            c->r->mixes_again++;
        if ((rc = tks__ports_width_now(c, &w)) != 0)
            return rc;
        if (t == 0 || w.value > p->width_there.value)
            p->mix = m, p->width_there = w;
        if (!(p->width_there.lo < TKS_PORTS_WIDTH_BOUND * c->r->width.lo) ||
            n - (p->ka + p->kb) / p->mix.value <= 0.3)
            break;
    }
    return 0;
}

static int pair_measure(ctx *c, size_t ia, size_t ib, tks_ports_pair *p)
{
    tks_ports_form *fa = &c->r->forms[ia], *fb = &c->r->forms[ib];
    regs ra, rb;
    char body[8192], only_a[8192], only_b[8192], what[160];
    size_t len = 0, la = 0, lb = 0;
    int s, rc;
    memset(p, 0, sizeof *p);
    p->width_there = (tks_asm_interval){NAN, NAN, NAN};
    p->a = ia, p->b = ib;
    p->overlap = -1;
    pair_regs(fa, fb, &ra, &rb);
    /* s cycles for each part: as many as the form's registers allow, each copy its own
     * register, so a chain of latency below s does not bind; at least 2 */
    s = 2;
    {
        int regs_a = uses_gpr(fa->code) ? ra.ngpr : uses_vec(fa->code) ? ra.nvec : 12;
        if (uses_gpr(fa->code) && uses_vec(fa->code))
            regs_a = ra.ngpr < ra.nvec ? ra.ngpr : ra.nvec;
        if (fa->ports && regs_a / fa->ports > s)
            s = regs_a / fa->ports;
    }
    while (s > 1 && (fa->ports + fb->ports) * s > MAX_BODY)
        s--;
    p->ka = fa->ports * s;
    p->kb = fb->ports * s;
    {
        const char *code[2] = {fa->code, fb->code};
        regs g[2] = {ra, rb};
        int k[2] = {p->ka, p->kb};
        if ((rc = interleave(code, g, k, 2, body, sizeof body, &len, c->base->syntax)) != 0)
            return rc;
    }
    if ((rc = append_copies(only_a, sizeof only_a, &la, fa->code, p->ka, &ra, c->base->syntax)) ||
        (rc = append_copies(only_b, sizeof only_b, &lb, fb->code, p->kb, &rb, c->base->syntax)))
        return rc;
    snprintf(what, sizeof what, "%s + %s", fa->name, fb->name);
    {
        /* one run of the assembler for the three; the mix's lines are its parts' */
        const char *texts[3] = {only_a, only_b, body};
        if ((rc = tks__ports_prepare(c, texts, 3, 1u << 2)) != 0)
            return rc;
    }
    if ((rc = measure(c, only_a, what, &p->alone_a)) == TKS_ENOMEM ||
        (rc == 0 && (rc = measure(c, only_b, what, &p->alone_b)) == TKS_ENOMEM) ||
        (rc == 0 && (rc = measure(c, body, what, &p->mix)) == TKS_ENOMEM))
        return TKS_ENOMEM;
    if (rc) {
        p->why = TKS_PORTS_WHY_FAILED;
        return 0;
    }
    /* other load only ever slows a mix down: one that reads as sharing is taken a second time
     * (the body in the other order, so the memo does not answer) and the faster kept */
    if ((fa->ports + fb->ports) - (p->ka + p->kb) / p->mix.value > 0.3) {
        tks_asm_interval again;
        size_t half = len;
        char *rev = malloc(len + 2);
        if (!rev)
            return TKS_ENOMEM;
        /* the same instructions, last line first */
        rev[0] = 0;
        while (half > 0) {
            size_t start = half;
            while (start > 0 && body[start - 1] != '\n')
                start--;
            strncat(rev, body + start, half - start);
            if (start > 0)
                strcat(rev, "\n");
            half = start ? start - 1 : 0;
        }
        if ((rc = tks__ports_prepare(c, (const char *const[]){rev}, 1, 1u)) != 0) {
            free(rev);
            return rc;
        }
        rc = measure(c, rev, what, &again);
        free(rev);
        c->r->mixes_reversed++;
        if (rc == TKS_ENOMEM)
            return rc;
        if (rc == 0)
            tks__ports_hull(&p->mix, again);
    }
    p->s = s;
    return width_beside(c, p, body);
}

/* The mix of forms i and j (both single-uop; else nothing), appended to r->pairs (its index in
 * *at, or -1). */
static int mix(ctx *c, size_t i, size_t j, size_t *np, long *at)
{
    tks_ports_result *r = c->r;
    int rc;
    if (at)
        *at = -1;
    if (!r->forms[i].ports || !r->forms[j].ports)
        return 0;
    if ((rc = pair_measure(c, i, j, &r->pairs[*np])) != 0)
        return rc;
    if (at)
        *at = (long)*np;
    r->n_pairs = ++*np;
    return 0;
}

/* The blockers' domains from their mixes alone (judged and solved as if no form were there):
 * which of them a form meets first (ports_prune.c). The final solve redoes them alike. */
static void blocker_domains(tks_ports_result *r)
{
    size_t nf = r->n_forms;
    tks_ports_judge(r);
    r->n_forms = r->n_blockers;
    tks_ports_solve(r);
    r->n_forms = nf;
}

/* Form i beside the blockers: in each domain that has representatives (ports_prune.c) those
 * first; where each reads disjoint, the blockers they hold are skipped (marked on the form);
 * every other blocker is measured. */
static int form_mixes(ctx *c, size_t i, size_t *np)
{
    tks_ports_result *r = c->r;
    tks_ports_form *f = &r->forms[i];
    size_t nb = r->n_blockers < 64 ? r->n_blockers : 64, reps[64];
    uint64_t done = 0;
    int rc = 0;
    if (!f->ports)
        return 0;
    for (int d = 0; d < r->n_domains && !rc; d++) {
        uint64_t covered, from = 0;
        size_t n = tks__ports_cover(r, d, f->ports, f->code, reps, &covered);
        int disjoint = n > 0;
        for (size_t k = 0; k < n && !rc; k++) {
            long at;
            if (done >> reps[k] & 1)
                continue; /* a representative of an earlier domain: not disjoint there */
            done |= (uint64_t)1 << reps[k];
            from |= (uint64_t)1 << reps[k];
            if ((rc = mix(c, i, reps[k], np, &at)) != 0)
                break;
            tks_ports_judge(r);
            disjoint = disjoint && at >= 0 && tks__ports_disjoint(&r->pairs[at]);
        }
        if (!rc && disjoint && from) {
            covered &= ~done;
            f->skipped |= covered;
            f->disjoint_from |= from;
            done |= covered;
            for (uint64_t s = covered; s; s &= s - 1)
                r->mixes_skipped++;
        }
    }
    for (size_t b = 0; b < r->n_blockers && !rc; b++)
        if (b >= nb || !(done >> b & 1))
            rc = mix(c, i, b, np, NULL);
    return rc;
}

static int copy_rows(tks_ports_form *out, const tks_asm_row *rows, size_t n, int blocker)
{
    for (size_t i = 0; i < n; i++) {
        tks_ports_form *f = &out[i];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "%s", rows[i].name);
        snprintf(f->code, sizeof f->code, "%s", rows[i].code);
        f->blocker = blocker;
        f->domain = f->port_class = -1;
        if (rows[i].mode != TKS_ASM_THROUGHPUT || strchr(rows[i].code, ';') ||
            strchr(rows[i].code, '\n')) {
            snprintf(f->error, sizeof f->error, "'%s' is not one instruction in throughput "
                     "mode: ports are inferred for single instructions", rows[i].name);
            return TKS_EINVAL;
        }
    }
    return 0;
}

int tks_ports_infer(const tks_asm_options *base, const tks_asm_row *forms, size_t n,
                    const tks_asm_row *blockers, size_t nb, tks_ports_progress progress,
                    void *progress_arg, tks_ports_result *r)
{
    ctx c;
    double t0 = tks__now_s();
    int rc = 0;
    size_t np = 0;
    memset(r, 0, sizeof *r);
    memset(&c, 0, sizeof c);
    if (!blockers)
        blockers = tks_ports_default_blockers(&nb);
    c.base = base, c.r = r, c.progress = progress, c.progress_arg = progress_arg;
    if (!(r->forms = calloc(nb + n, sizeof *r->forms)) ||
        !(r->pairs = calloc(nb * (nb - 1) / 2 + nb * n + 1, sizeof *r->pairs)))
        return TKS_ENOMEM;
    r->n_blockers = nb;
    r->n_forms = nb + n;
    if ((rc = copy_rows(r->forms, blockers, nb, 1)) != 0 ||
        (rc = copy_rows(r->forms + nb, forms, n, 0)) != 0) {
        for (size_t i = 0; i < r->n_forms; i++)
            if (r->forms[i].error[0])
                snprintf(r->error, sizeof r->error, "%s", r->forms[i].error);
        return rc;
    }
    c.total = tks__ports_snippets(n, nb);
    for (size_t i = 0; i < r->n_forms && !rc; i++)
        rc = measure_alone(&c, &r->forms[i]);
    if (!rc)
        rc = tks__ports_width(&c);
    if (!rc && r->forms[0].status == TKS_PORTS_FAILED && r->forms[0].error[0] &&
        strstr(r->forms[0].error, "binutils")) {
        snprintf(r->error, sizeof r->error, "%s", r->forms[0].error);
        rc = TKS_EUNAVAIL;
    }
    /* blockers against each other; their domains; then each form against the blockers */
    for (size_t i = 0; i < nb && !rc; i++)
        for (size_t j = 0; j < i && !rc; j++)
            rc = mix(&c, i, j, &np, NULL);
    if (!rc)
        blocker_domains(r);
    for (size_t i = nb; i < r->n_forms && !rc; i++)
        rc = form_mixes(&c, i, &np);
    r->n_pairs = np;
    tks_ports_judge(r);
    for (size_t i = 0; i < c.n_memo; i++) {
        free(c.memo[i].text);
        free(c.memo[i].code);
    }
    free(c.memo);
    if (rc) {
        if (!r->error[0])
            snprintf(r->error, sizeof r->error, "%s", tks_strerror(rc));
        return rc;
    }
    tks_ports_solve(r);
    r->seconds = tks__now_s() - t0;
    return 0;
}
