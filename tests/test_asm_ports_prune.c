/* SPDX-License-Identifier: MIT */
/* test_asm_ports_prune.c: which mixes `asm --ports` may skip (asm/ports_prune.h), on synthetic
 * blocker mixes, no measurement: the domains come from the blockers' own mixes; a domain's
 * representatives are pairwise disjoint by their mix and hold the blockers they skip (their
 * least overlaps add up to the blocker's ports); mixes below the width are preferred; nothing is
 * skipped where the data prove nothing (a width-bound or unreadable mix, an inconsistent
 * labelling, a single domain). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asm/ports_prune.h"
#include "check.h"
#include "tickscope.h"
#include "tickscope/asm_ports.h"

/* A machine: 6 ALU ports with shifts on {0,1,2} and multipliers on {1,2,3}; 4 FP pipes, adds
 * on {2,3}, multiplies on {0,1}, vector integer on all four; 3 AGUs, loads on all, stores on
 * {0,1}. Domains are numbered here only to build the mixes: the code finds them. */
typedef struct truth {
    const char *name, *code;
    int domain;
    uint32_t set;
} truth;

static const truth machine[] = {
    {"alu", "mov {r}, 1", 0, 0x3f},          {"shift", "shlx {r}, r14, rbp", 0, 0x07},
    {"mul", "imul {r}, r14, 3", 0, 0x0e},    {"fadd", "vaddpd {y}, ymm15, ymm14", 1, 0x0c},
    {"fmul", "vmulpd {y}, ymm15, ymm14", 1, 0x03}, {"vint", "vpaddd {y}, ymm15, ymm14", 1, 0x0f},
    {"load", "mov {r}, [r14]", 2, 0x07},     {"store", "mov [r14], rbp", 2, 0x03},
};
#define NB (sizeof machine / sizeof machine[0])
#define NP (NB * (NB - 1) / 2)

static int popcount(uint32_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static size_t find(const char *name)
{
    for (size_t i = 0; i < NB; i++)
        if (!strcmp(machine[i].name, name))
            return i;
    return 0;
}

/* Every mix of two blockers read exactly (the true overlap), width 8. */
static void build(tks_ports_result *r, tks_ports_form *forms, tks_ports_pair *pairs)
{
    size_t np = 0;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < NB; i++) {
        memset(&forms[i], 0, sizeof forms[i]);
        snprintf(forms[i].name, sizeof forms[i].name, "%s", machine[i].name);
        snprintf(forms[i].code, sizeof forms[i].code, "%s", machine[i].code);
        forms[i].blocker = 1;
        forms[i].ports = popcount(machine[i].set);
        forms[i].domain = forms[i].port_class = -1;
    }
    for (size_t i = 0; i < NB; i++)
        for (size_t j = 0; j < i; j++) {
            tks_ports_pair *p = &pairs[np++];
            memset(p, 0, sizeof *p);
            p->a = i, p->b = j;
            p->overlap = machine[i].domain == machine[j].domain
                             ? popcount(machine[i].set & machine[j].set) : 0;
            p->ranged = 1;
            p->ov_lo = p->ov_hi = p->overlap;
        }
    r->forms = forms;
    r->n_forms = r->n_blockers = NB;
    r->pairs = pairs;
    r->n_pairs = np;
    r->width = (tks_asm_interval){8, 8, 8};
    r->width_memory = (tks_asm_interval){8, 8, 8};
}

static tks_ports_pair *pair(tks_ports_result *r, const char *a, const char *b)
{
    size_t i = find(a), j = find(b);
    for (size_t p = 0; p < r->n_pairs; p++)
        if ((r->pairs[p].a == i && r->pairs[p].b == j) || (r->pairs[p].a == j && r->pairs[p].b == i))
            return &r->pairs[p];
    return NULL;
}

/* The representatives and the held blockers of the domain of `of`, as masks of blockers. */
static void cover(tks_ports_result *r, const char *of, int ports, const char *code,
                  uint64_t *reps, uint64_t *held)
{
    size_t idx[NB], n = tks__ports_cover(r, r->forms[find(of)].domain, ports, code, idx, held);
    *reps = 0;
    for (size_t k = 0; k < n; k++)
        *reps |= (uint64_t)1 << idx[k];
}

#define BIT(name) ((uint64_t)1 << find(name))

static void test_domains_and_covers(void)
{
    tks_ports_form forms[NB];
    tks_ports_pair pairs[NP];
    tks_ports_result r;
    uint64_t reps, held;
    build(&r, forms, pairs);
    tks_ports_solve(&r);
    /* the domains come from the blockers' mixes: three, as on the machine */
    CHECK(r.n_domains == 3);
    for (size_t i = 0; i < NB; i++)
        for (size_t j = 0; j < NB; j++)
            CHECK((forms[i].domain == forms[j].domain) == (machine[i].domain == machine[j].domain));
    /* an integer form of 5 ports beside the FP pipes: vint with it would reach the width (9 of
     * 8), so fadd and fmul (disjoint, 2 + 2 = vint's 4) stand for the domain and vint is held */
    cover(&r, "fadd", 5, "add {r}, r14", &reps, &held);
    CHECK_EQ_U64(reps, BIT("fadd") | BIT("fmul"));
    CHECK_EQ_U64(held, BIT("vint"));
    /* a form of 1 port: vint alone (below the width) holds both others */
    cover(&r, "fadd", 1, "bts {r}, r14", &reps, &held);
    CHECK_EQ_U64(reps, BIT("vint"));
    CHECK_EQ_U64(held, BIT("fadd") | BIT("fmul"));
    /* the integer side: only alu holds the others (shift and mul overlap each other) */
    cover(&r, "alu", 2, "vaddpd {y}, ymm15, ymm14", &reps, &held);
    CHECK_EQ_U64(reps, BIT("alu"));
    CHECK_EQ_U64(held, BIT("shift") | BIT("mul"));
    /* stores lie within loads */
    cover(&r, "load", 4, "vpaddd {y}, ymm15, ymm14", &reps, &held);
    CHECK_EQ_U64(reps, BIT("load"));
    CHECK_EQ_U64(held, BIT("store"));
}

static void test_nothing_proven(void)
{
    tks_ports_form forms[NB];
    tks_ports_pair pairs[NP];
    tks_ports_result r;
    uint64_t reps, held;
    tks_ports_pair *p;
    /* fadd and fmul not proven disjoint (their mix between 0 and 1): vint stands alone, even
     * at the width */
    build(&r, forms, pairs);
    p = pair(&r, "fadd", "fmul");
    p->overlap = -1, p->ov_lo = 0, p->ov_hi = 1;
    tks_ports_solve(&r);
    cover(&r, "fadd", 5, "add {r}, r14", &reps, &held);
    CHECK_EQ_U64(reps, BIT("vint"));
    CHECK_EQ_U64(held, BIT("fadd") | BIT("fmul"));
    /* the store beside the load at the width: [0, 2] proves no overlap, so the store is not
     * held and nothing is skipped (nor does the mix join them: each is a domain alone) */
    build(&r, forms, pairs);
    p = pair(&r, "load", "store");
    p->overlap = -1, p->ov_lo = 0, p->ov_hi = 2, p->width_bound = 1;
    tks_ports_solve(&r);
    CHECK(forms[find("load")].domain != forms[find("store")].domain);
    cover(&r, "load", 4, "vpaddd {y}, ymm15, ymm14", &reps, &held);
    CHECK_EQ_U64(reps, 0);
    CHECK_EQ_U64(held, 0);
    cover(&r, "store", 4, "vpaddd {y}, ymm15, ymm14", &reps, &held);
    CHECK_EQ_U64(held, 0);
    /* a domain whose labelling failed proves nothing */
    build(&r, forms, pairs);
    tks_ports_solve(&r);
    forms[find("mul")].status = TKS_PORTS_INCONSISTENT;
    cover(&r, "alu", 2, "vaddpd {y}, ymm15, ymm14", &reps, &held);
    CHECK_EQ_U64(reps, 0);
    CHECK_EQ_U64(held, 0);
    /* blockers the data cannot separate: every FP and memory blocker shares a port with the
     * ALU blocker, one domain, and nothing is skipped (every blocker is measured) */
    build(&r, forms, pairs);
    for (size_t k = 0; k < r.n_pairs; k++)
        if (machine[pairs[k].a].domain != machine[pairs[k].b].domain &&
            (pairs[k].a == find("alu") || pairs[k].b == find("alu")))
            pairs[k].overlap = pairs[k].ov_lo = pairs[k].ov_hi = 1;
    tks_ports_solve(&r);
    CHECK(r.n_domains == 1);
    cover(&r, "alu", 1, "bts {r}, r14", &reps, &held);
    CHECK_EQ_U64(reps, 0);
    CHECK_EQ_U64(held, 0);
}

static void test_disjoint(void)
{
    tks_ports_pair p;
    memset(&p, 0, sizeof p);
    p.ranged = 1;
    p.overlap = 0;
    CHECK(tks__ports_disjoint(&p));
    p.width_bound = 1; /* at the width, yet its cost allows no sharing */
    CHECK(tks__ports_disjoint(&p));
    p.overlap = -1, p.ov_lo = 0, p.ov_hi = 1;
    CHECK(!tks__ports_disjoint(&p));
    p.overlap = 0, p.why = TKS_PORTS_WHY_FAILED;
    CHECK(!tks__ports_disjoint(&p));
    CHECK(!tks__ports_disjoint(NULL));
}

/* The blockers solved alone first (as ports.c does before the forms' mixes), then everything:
 * the same domains, sets, classes and statuses as one solve of everything. */
static void test_solve_twice(void)
{
    tks_ports_form forms[NB + 1], once[NB + 1];
    tks_ports_pair pairs[NP + NB];
    tks_ports_result r;
    for (int pass = 0; pass < 2; pass++) {
        build(&r, forms, pairs);
        memset(&forms[NB], 0, sizeof forms[NB]);
        snprintf(forms[NB].name, sizeof forms[NB].name, "vfma");
        forms[NB].ports = 2;
        forms[NB].domain = forms[NB].port_class = -1;
        for (size_t b = 0; b < NB; b++) {
            tks_ports_pair *p = &pairs[r.n_pairs++];
            memset(p, 0, sizeof *p);
            p->a = NB, p->b = b;
            p->overlap = machine[b].domain == 1 ? popcount(0x03 & machine[b].set) : 0;
            p->ranged = 1;
            p->ov_lo = p->ov_hi = p->overlap;
        }
        r.n_forms = NB + 1;
        if (pass == 1) {
            r.n_forms = NB;
            tks_ports_solve(&r);
            r.n_forms = NB + 1;
        }
        tks_ports_solve(&r);
        if (pass == 0)
            memcpy(once, forms, sizeof once);
    }
    CHECK(forms[NB].status == TKS_PORTS_ASSIGNED);
    for (size_t i = 0; i <= NB; i++) {
        CHECK(forms[i].domain == once[i].domain);
        CHECK(forms[i].set == once[i].set);
        CHECK(forms[i].port_class == once[i].port_class);
        CHECK(forms[i].status == once[i].status);
    }
    CHECK(forms[NB].port_class == forms[find("fmul")].port_class);
}

int main(void)
{
    test_solve_twice();
    test_domains_and_covers();
    test_nothing_proven();
    test_disjoint();
    CHECK_DONE();
}
