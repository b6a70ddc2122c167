/* SPDX-License-Identifier: MIT */
/* test_asm_ports.c: the reasoning of `asm --ports` and `asm --explain` on synthetic data, no
 * measurement: the port solver on overlaps a known machine would give (sets recovered up to
 * relabelling, ambiguity and inconsistency said; a mix at the machine's width an upper bound
 * only), the classification of explain's experiments
 * for each kind of bottleneck, and the registers a body carries from copy to copy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tickscope.h"
#include "tickscope/asm_explain.h"
#include "tickscope/asm_ports.h"

static int popcount(uint32_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* A machine: 6 ALU ports {0..5} with a shift unit on {0,1,2} and multipliers on {1,2,3}; FP
 * pipes {0..3}, adds on {2,3}, multiplies on {0,1}. Forms give their true sets; pairs get the
 * true overlaps (cross-domain 0). */
typedef struct truth {
    const char *name;
    int domain;
    uint32_t set;
    int blocker;
} truth;

static const truth machine[] = {
    {"alu", 0, 0x3f, 1},  {"shift", 0, 0x07, 1}, {"mul", 0, 0x0e, 1},
    {"fadd", 1, 0x0c, 1}, {"fmul", 1, 0x03, 1}, {"vint", 1, 0x0f, 1},
    {"add", 0, 0x3f, 0},  {"shl", 0, 0x07, 0},   {"imul", 0, 0x0e, 0},
    {"vfmadd", 1, 0x03, 0},
    {"only01", 0, 0x03, 0}, /* {0,1}: no blocker tells port 1 from port 2 */
};
#define N (sizeof machine / sizeof machine[0])

static void build(tks_ports_result *r, tks_ports_form *forms, tks_ports_pair *pairs,
                  int break_one)
{
    size_t nb = 0, np = 0;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < N; i++) {
        memset(&forms[i], 0, sizeof forms[i]);
        snprintf(forms[i].name, sizeof forms[i].name, "%s", machine[i].name);
        forms[i].blocker = machine[i].blocker;
        forms[i].ports = popcount(machine[i].set);
        forms[i].domain = forms[i].port_class = -1;
        nb += machine[i].blocker;
    }
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < (i < nb ? i : nb); j++) {
            tks_ports_pair *p = &pairs[np++];
            memset(p, 0, sizeof *p);
            p->a = i, p->b = j;
            p->overlap = machine[i].domain == machine[j].domain
                             ? popcount(machine[i].set & machine[j].set) : 0;
        }
    if (break_one) /* shl shares 3 with alu but 0 with shift: no set of 3 fits */
        for (size_t k = 0; k < np; k++)
            if (!strcmp(machine[pairs[k].a].name, "shl") && !strcmp(machine[pairs[k].b].name, "shift"))
                pairs[k].overlap = 0;
    r->forms = forms;
    r->n_forms = N;
    r->n_blockers = nb;
    r->pairs = pairs;
    r->n_pairs = np;
}

static size_t find(const tks_ports_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_forms; i++)
        if (!strcmp(r->forms[i].name, name))
            return i;
    return 0;
}

static void test_solver(void)
{
    tks_ports_form forms[N];
    tks_ports_pair pairs[N * N];
    tks_ports_result r;
    build(&r, forms, pairs, 0);
    tks_ports_solve(&r);
    CHECK(r.n_domains == 2);
    CHECK(r.domain_ports[forms[find(&r, "alu")].domain] == 6);
    CHECK(r.domain_ports[forms[find(&r, "fadd")].domain] == 4);
    /* every placed pair of forms overlaps as on the machine (sets up to relabelling) */
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            const tks_ports_form *a = &forms[i], *b = &forms[j];
            if (a->status != TKS_PORTS_ASSIGNED || b->status != TKS_PORTS_ASSIGNED)
                continue;
            int inferred = a->domain == b->domain ? popcount(a->set & b->set) : 0;
            int truth_ov = machine[i].domain == machine[j].domain
                               ? popcount(machine[i].set & machine[j].set) : 0;
            CHECK(inferred == truth_ov);
        }
    CHECK(forms[find(&r, "add")].status == TKS_PORTS_ASSIGNED);
    CHECK(forms[find(&r, "shl")].status == TKS_PORTS_ASSIGNED);
    CHECK(forms[find(&r, "imul")].status == TKS_PORTS_ASSIGNED);
    CHECK(forms[find(&r, "vfmadd")].status == TKS_PORTS_ASSIGNED);
    /* same sets, same class; different sets, different classes */
    CHECK(forms[find(&r, "shl")].port_class == forms[find(&r, "shift")].port_class);
    CHECK(forms[find(&r, "vfmadd")].port_class == forms[find(&r, "fmul")].port_class);
    CHECK(forms[find(&r, "shl")].port_class != forms[find(&r, "imul")].port_class);
    /* {0,1} overlaps shift {0,1,2} by 2 and mul {1,2,3} by 1: {0,1} and {0,2} fit alike, and
     * the solver says so, with two sets that both fit */
    {
        const tks_ports_form *f = &forms[find(&r, "only01")];
        const tks_ports_form *sh = &forms[find(&r, "shift")], *mu = &forms[find(&r, "mul")];
        CHECK(f->status == TKS_PORTS_AMBIGUOUS);
        CHECK(f->set != f->alt);
        CHECK(popcount(f->set & sh->set) == 2 && popcount(f->alt & sh->set) == 2);
        CHECK(popcount(f->set & mu->set) == 1 && popcount(f->alt & mu->set) == 1);
    }
}

static void test_solver_limits(void)
{
    tks_ports_form forms[N];
    tks_ports_pair pairs[N * N];
    tks_ports_result r;
    build(&r, forms, pairs, 1);
    tks_ports_solve(&r);
    CHECK(forms[find(&r, "shl")].status == TKS_PORTS_INCONSISTENT);
    /* a form whose overlaps were all unreadable: no blocker places it */
    build(&r, forms, pairs, 0);
    for (size_t k = 0; k < r.n_pairs; k++)
        if (!strcmp(forms[pairs[k].a].name, "imul"))
            pairs[k].overlap = -1;
    tks_ports_solve(&r);
    CHECK(forms[find(&r, "imul")].status == TKS_PORTS_UNBLOCKED);
}

/* The same machine read through noise: each mix a range of overlaps holding the true one, one
 * mix of two blockers disturbed outright (it reads no sharing), one form's mix wide. */
static void test_solver_noise(void)
{
    tks_ports_form forms[N];
    tks_ports_pair pairs[N * N];
    tks_ports_result r;
    size_t shift, mul, imul, alu;
    build(&r, forms, pairs, 0);
    shift = find(&r, "shift"), mul = find(&r, "mul"), imul = find(&r, "imul");
    alu = find(&r, "alu");
    for (size_t k = 0; k < r.n_pairs; k++) {
        tks_ports_pair *p = &pairs[k];
        int m = forms[p->a].ports < forms[p->b].ports ? forms[p->a].ports : forms[p->b].ports;
        p->ranged = 1;
        p->ov_lo = p->overlap, p->ov_hi = p->overlap + (k % 3 == 0 && p->overlap < m);
        p->overlap = -1;
        if (p->a == mul && p->b == alu)
            p->ov_lo = p->ov_hi = 2; /* truly 3: load disturbed it (a 7th port would fit) */
        if (p->a == imul && p->b == mul)
            p->ov_lo = 1, p->ov_hi = 3; /* truly 3: too wide to say */
    }
    tks_ports_solve(&r);
    /* the disturbed mix does not unplace the domain: it is marked, the rest fit */
    CHECK(r.n_domains == 2);
    CHECK(forms[find(&r, "alu")].status == TKS_PORTS_ASSIGNED);
    CHECK(r.domain_misfits[forms[shift].domain] == 1);
    CHECK(r.domain_ports[forms[alu].domain] == 6);
    for (size_t k = 0; k < r.n_pairs; k++) {
        int lo = pairs[k].ov_lo, hi = pairs[k].ov_hi, n;
        const tks_ports_form *a = &forms[pairs[k].a], *b = &forms[pairs[k].b];
        if (a->status != TKS_PORTS_ASSIGNED || b->status != TKS_PORTS_ASSIGNED)
            continue;
        n = a->domain == b->domain ? popcount(a->set & b->set) : 0;
        CHECK(pairs[k].misfit == (n < lo || n > hi));
    }
    CHECK(forms[find(&r, "add")].status == TKS_PORTS_ASSIGNED);
    CHECK(forms[find(&r, "vfmadd")].status == TKS_PORTS_ASSIGNED);
    /* every candidate a form keeps fits each of its mixes with a blocker, and none is repeated */
    for (size_t i = r.n_blockers; i < N; i++) {
        const tks_ports_form *f = &forms[i];
        if (f->status != TKS_PORTS_ASSIGNED && f->status != TKS_PORTS_AMBIGUOUS)
            continue;
        CHECK(f->n_candidates >= 1);
        CHECK((f->status == TKS_PORTS_AMBIGUOUS) == (f->n_candidates > 1));
        for (int c = 0; c < f->n_candidates && c < TKS_PORTS_MAX_CANDIDATES; c++) {
            CHECK(popcount(f->candidates[c]) == f->ports);
            for (int e = 0; e < c; e++)
                CHECK(f->candidates[e] != f->candidates[c]);
            for (size_t k = 0; k < r.n_pairs; k++)
                if (pairs[k].a == i && forms[pairs[k].b].domain == f->domain) {
                    int n = popcount(f->candidates[c] & forms[pairs[k].b].set);
                    CHECK(n >= pairs[k].ov_lo && n <= pairs[k].ov_hi);
                }
        }
    }
    /* imul's wide mix leaves more than one set: said, with the candidates */
    CHECK(forms[imul].status == TKS_PORTS_AMBIGUOUS);
    CHECK(forms[imul].n_candidates > 1 && forms[imul].set != forms[imul].alt);
}

/* Mixes as measured: blockers alu (6 ports) and mul (3) on the integer side, fadd (2) and vint
 * (4) on the FP side, s = 5. Each mix takes what its ports say or what the machine's width
 * allows (w; NAN: 7.2, not measured), except fadd + alu: it runs 7.0 a cycle, which reads as
 * sharing 1 port. On a machine 7.2 wide that is the width (dispatch, not a port): the mix
 * bounds the overlap from above only and the two sides stay apart; on one 12 wide the same mix
 * is a measurement and joins them. shares[k]: the ports pair k truly shares. */
static void timed(tks_ports_result *r, tks_ports_form *forms, tks_ports_pair *pairs, double w,
                  int *shares)
{
    static const struct { const char *name; int ports, side; uint32_t set; } b[] = {
        {"alu", 6, 0, 0x3f}, {"mul", 3, 0, 0x0e}, {"fadd", 2, 1, 0x0c}, {"vint", 4, 1, 0x0f}};
    size_t np = 0;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < 4; i++) {
        memset(&forms[i], 0, sizeof forms[i]);
        snprintf(forms[i].name, sizeof forms[i].name, "%s", b[i].name);
        forms[i].blocker = 1;
        forms[i].ports = b[i].ports;
        forms[i].domain = forms[i].port_class = -1;
    }
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < i; j++) {
            tks_ports_pair *p = &pairs[np++];
            int o = b[i].side == b[j].side ? popcount(b[i].set & b[j].set) : 0;
            double k;
            memset(p, 0, sizeof *p);
            p->a = i, p->b = j, p->s = 5;
            p->ka = b[i].ports * 5, p->kb = b[j].ports * 5;
            k = p->ka + p->kb;
            p->alone_a = p->alone_b = (tks_asm_interval){5, 4.98, 5.02};
            shares[np - 1] = o;
            p->mix.value = k / (b[i].ports + b[j].ports - o);
            if (p->mix.value < k / (isfinite(w) ? w : 7.2))
                p->mix.value = k / (isfinite(w) ? w : 7.2);
            if (!strcmp(b[i].name, "fadd") && !strcmp(b[j].name, "alu"))
                p->mix.value = k / 7.0;
            p->mix.lo = p->mix.value * 0.995, p->mix.hi = p->mix.value * 1.005;
        }
    r->forms = forms, r->n_forms = r->n_blockers = 4;
    r->pairs = pairs, r->n_pairs = np;
    r->width = (tks_asm_interval){w, w - 0.1, w + 0.1};
}

static void test_width_bound(void)
{
    tks_ports_form forms[4];
    tks_ports_pair pairs[6];
    tks_ports_result r;
    tks_ports_pair *fa = NULL;
    int shares[6];
    timed(&r, forms, pairs, 7.2, shares);
    tks_ports_judge(&r);
    for (size_t k = 0; k < r.n_pairs; k++)
        if (pairs[k].a == 2 && pairs[k].b == 0)
            fa = &pairs[k];
    CHECK(fa != NULL);
    if (!fa)
        return;
    CHECK(fa->width_bound == 1);
    CHECK(fa->ranged && fa->ov_lo == 0 && fa->ov_hi == 1 && fa->overlap == -1);
    CHECK(fa->why == TKS_PORTS_WHY_WIDTH);
    CHECK(fabs(fa->shared - 1.0) < 0.01);
    CHECK(fabs(r.widest_mix - 7.2) < 0.01);
    /* every mix allows what is truly shared; those below the width say exactly that; the two
     * sides' mixes at the width only bound it */
    for (size_t k = 0; k < r.n_pairs; k++) {
        CHECK(pairs[k].ranged && pairs[k].ov_lo <= shares[k] && shares[k] <= pairs[k].ov_hi);
        CHECK(pairs[k].width_bound ? pairs[k].ov_lo == 0 : pairs[k].overlap == shares[k]);
    }
    CHECK(pairs[3].width_bound && pairs[3].ov_hi == 3); /* vint + alu: 10 ports, 7.2 a cycle */
    tks_ports_solve(&r);
    CHECK(r.n_domains == 2);
    CHECK(forms[0].domain != forms[2].domain);
    CHECK(r.domain_ports[forms[0].domain] == 6 && r.domain_ports[forms[2].domain] == 4);
    for (size_t i = 0; i < 4; i++)
        CHECK(forms[i].status == TKS_PORTS_ASSIGNED);
    CHECK(fa->misfit == 0);
    /* far below the width, the same mix says they share one port: one domain */
    timed(&r, forms, pairs, 12.0, shares);
    tks_ports_judge(&r);
    CHECK(fa->width_bound == 0 && fa->overlap == 1 && fa->why == TKS_PORTS_WHY_NONE);
    tks_ports_solve(&r);
    CHECK(r.n_domains == 1);
    CHECK(forms[0].domain == forms[2].domain);
    /* 12 wide, but the NOPs right after the mix ran 7.2 a cycle (another thread had a share
     * of the core): at the width left to it, the mix is width-bound again */
    timed(&r, forms, pairs, 12.0, shares);
    fa->width_there = (tks_asm_interval){7.2, 7.1, 7.3};
    tks_ports_judge(&r);
    CHECK(fa->width_bound == 1 && fa->ov_lo == 0 && fa->ov_hi == 1);
    tks_ports_solve(&r);
    CHECK(r.n_domains == 2);
    /* 12 wide, but 7.2 with loads among the forms: a mix with a memory operand has that width */
    timed(&r, forms, pairs, 12.0, shares);
    r.width_memory = (tks_asm_interval){7.2, 7.1, 7.3};
    tks_ports_judge(&r);
    CHECK(fa->width_bound == 0);
    snprintf(forms[2].code, sizeof forms[2].code, "vaddpd {y}, ymm15, [r14]");
    tks_ports_judge(&r);
    CHECK(fa->width_bound == 1 && fa->ov_lo == 0);
    /* no width measured: the widest mix stands for it, and this mix is the widest */
    timed(&r, forms, pairs, NAN, shares);
    tks_ports_judge(&r);
    CHECK(fa->width_bound == 1 && fa->ov_lo == 0);
}

static tks_explain_experiment ex(enum tks_explain_kind k, const char *name, double cycles,
                                 double alone, uint64_t ws)
{
    tks_explain_experiment e;
    memset(&e, 0, sizeof e);
    e.kind = k;
    snprintf(e.name, sizeof e.name, "%s", name);
    e.cycles = (tks_asm_interval){cycles, cycles * 0.99, cycles * 1.01};
    e.alone = alone;
    e.working_set = ws;
    return e;
}

static void finish_deltas(tks_explain_result *r)
{
    for (size_t i = 1; i < r->n; i++) {
        tks_explain_experiment *e = &r->exp[i];
        e->delta.value = e->cycles.value - r->exp[0].cycles.value;
        e->delta.lo = e->cycles.lo - r->exp[0].cycles.hi;
        e->delta.hi = e->cycles.hi - r->exp[0].cycles.lo;
        e->ratio = isfinite(e->alone) ? e->delta.value / e->alone : NAN;
    }
}

static void test_classify(void)
{
    tks_explain_result r;
    /* a 3-cycle chain: +3 cycles when lengthened, the rest absorbed */
    memset(&r, 0, sizeof r);
    r.exp[r.n++] = ex(TKS_EXPLAIN_BASE, "base", 3.0, NAN, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_LONGER, "chain", 6.0, 3.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_LONGER, "chain, other units", 6.0, 3.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_NOPS, "nops", 3.01, 1.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WORK, "+4 x mul: imul", 3.0, 1.5, 0);
    finish_deltas(&r);
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_CHAIN);
    /* six independent imul on one multiplier (6 cycles a copy): lengthened with imul they pay
     * 6 cycles (the multiplier's), with adds nothing, and added imul competes: ports, not a
     * chain (an Emerald Rapids guest read chain when only the imul lengthening ran) */
    memset(&r, 0, sizeof r);
    r.exp[r.n++] = ex(TKS_EXPLAIN_BASE, "base", 6.0, NAN, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_LONGER, "chain", 12.0, 3.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_LONGER, "chain, other units", 6.02, 3.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_NOPS, "nops", 6.01, 1.3, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WORK, "+3 x mul: imul r64, r64, imm", 9.0, 3.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WORK, "+12 x alu: mov r64, imm", 6.0, 3.0, 0);
    finish_deltas(&r);
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_PORTS && strcmp(r.port_kinds, "mul") == 0);
    /* a lengthening that failed is left out: the one that ran decides */
    r.exp[2].rc = TKS_EUNAVAIL;
    r.exp[2].cycles.value = NAN;
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_CHAIN);
    /* a multiply-bound stream: mul work costs what it costs alone, other kinds nothing */
    memset(&r, 0, sizeof r);
    r.exp[r.n++] = ex(TKS_EXPLAIN_BASE, "base", 4.0, NAN, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_NOPS, "nops", 4.02, 1.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WORK, "+4 x fmul: vmulpd ymm", 6.0, 2.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WORK, "+8 x fadd: vaddpd ymm", 4.05, 2.0, 0);
    finish_deltas(&r);
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_PORTS);
    CHECK(strcmp(r.port_kinds, "fmul") == 0);
    /* a chase: 700 cycles at 64 MiB, 4 at 24 KiB, 14 at 512 KiB, 60 at 16 MiB: the steepest
     * step, the knee, is past 16 MiB */
    memset(&r, 0, sizeof r);
    r.chase_bytes = (uint64_t)64 << 20;
    r.exp[r.n++] = ex(TKS_EXPLAIN_BASE, "base", 700, NAN, (uint64_t)64 << 20);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WSET, "24K", 4, NAN, 24 << 10);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WSET, "512K", 14, NAN, 512 << 10);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WSET, "16M", 60, NAN, 16 << 20);
    r.exp[r.n++] = ex(TKS_EXPLAIN_LONGER, "chain", 703, 3.0, 0);
    finish_deltas(&r);
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_MEMORY);
    CHECK(r.knee_lo == (uint64_t)16 << 20 && r.knee_hi == (uint64_t)64 << 20);
    /* front end: NOPs cost what they cost alone, and so does every kind of work */
    memset(&r, 0, sizeof r);
    r.exp[r.n++] = ex(TKS_EXPLAIN_BASE, "base", 6.0, NAN, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_LONGER, "chain", 6.1, 3.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_NOPS, "nops", 7.9, 2.0, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_WORK, "+9 x alu: mov", 8.8, 3.0, 0);
    finish_deltas(&r);
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_FRONTEND);
    /* nothing moves: undetermined; a rise inside the drift (3% of the base) is not a signal */
    memset(&r, 0, sizeof r);
    r.exp[r.n++] = ex(TKS_EXPLAIN_BASE, "base", 100, NAN, 0);
    r.exp[r.n++] = ex(TKS_EXPLAIN_NOPS, "nops", 102.5, 1.0, 0);
    finish_deltas(&r);
    r.exp[1].delta.lo = 0.5; /* beyond the intervals, yet within the drift */
    tks_explain_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_UNDETERMINED);
}

static void test_carried(void)
{
    char c[8][8];
    CHECK(tks_explain_carried("imul rax, rax", c, 8) == 1 && !strcmp(c[0], "rax"));
    CHECK(tks_explain_carried("mov r14, [r14]", c, 8) == 1 && !strcmp(c[0], "r14"));
    /* written before read: not carried; zero idiom: no input */
    CHECK(tks_explain_carried("mov rbx, 1; add rbx, rcx", c, 8) == 0);
    CHECK(tks_explain_carried("xor eax, eax; add eax, 1", c, 8) == 0);
    /* three-operand VEX: the destination is not read; FMA accumulates */
    CHECK(tks_explain_carried("vmulpd ymm0, ymm8, ymm9", c, 8) == 0);
    CHECK(tks_explain_carried("vfmadd231pd ymm3, ymm8, ymm9", c, 8) == 1 && !strcmp(c[0], "ymm3"));
    /* a 32-bit name is its 64-bit register; two chains */
    CHECK(tks_explain_carried("add eax, 1\nimul r9d, r9d", c, 8) == 2 && !strcmp(c[0], "rax") &&
          !strcmp(c[1], "r9"));
    /* cmp reads its operands but writes none of them */
    CHECK(tks_explain_carried("cmp rax, rbx", c, 8) == 0);
    CHECK(tks_explain_carried("nop DWORD PTR [rax+rax*1+0x12345678]", c, 8) == 0);
}

int main(void)
{
    test_solver();
    test_solver_limits();
    test_solver_noise();
    test_width_bound();
    test_classify();
    test_carried();
    CHECK_DONE();
}
