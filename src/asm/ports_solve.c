/* SPDX-License-Identifier: MIT */
/* ports_solve.c: port sets from measured overlaps. A mix gives an exact overlap or a range of
 * them (the whole numbers its interval allows). Blockers that share ports (directly or through
 * others) form a domain (the integer ALUs, the FP pipes, the load/store units); in each, the
 * smallest set of ports on which every blocker gets a set of its size with an overlap inside
 * the measured range with every other is found by search, blockers of most ports first, the
 * first one's set fixed (ports are interchangeable: any consistent labelling is as good as
 * another). When none fits, the labelling contradicting fewest mixes (at most two) is taken and
 * those mixes marked: one mix disturbed by other load does not unplace a domain. Each form is
 * then every set of its size in its domain within range of every blocker: one (assigned),
 * several (the data cannot separate them: the candidates are kept), or none (the sets
 * contradicting fewest mixes are kept, marked inconsistent, with the count). */
#include "tickscope/asm_ports.h"

#include <stdlib.h>
#include <string.h>

static int popcount32(uint32_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* The pair of forms i and j (NULL: not measured). */
static tks_ports_pair *pair_of(tks_ports_result *r, size_t i, size_t j)
{
    for (size_t p = 0; p < r->n_pairs; p++)
        if ((r->pairs[p].a == i && r->pairs[p].b == j) || (r->pairs[p].a == j && r->pairs[p].b == i))
            return &r->pairs[p];
    return NULL;
}

/* The overlaps the mix of i and j allows, [*lo, *hi]; 0: it says nothing. */
static int range_of(tks_ports_result *r, size_t i, size_t j, int *lo, int *hi)
{
    const tks_ports_pair *p = pair_of(r, i, j);
    if (!p)
        return 0;
    if (p->overlap >= 0) {
        *lo = *hi = p->overlap;
        return 1;
    }
    *lo = p->ov_lo, *hi = p->ov_hi;
    return p->ranged && p->ov_lo <= p->ov_hi;
}

/* Whether set s against set t contradicts the mix of i and j (0 when it says nothing). */
static int contradicts(tks_ports_result *r, size_t i, size_t j, uint32_t s, uint32_t t)
{
    int lo, hi, n = popcount32(s & t);
    return range_of(r, i, j, &lo, &hi) && (n < lo || n > hi);
}

/* The least overlap the mix of i and j allows (0 when it says nothing). */
static int least_overlap(tks_ports_result *r, size_t i, size_t j)
{
    int lo, hi;
    return range_of(r, i, j, &lo, &hi) ? lo : 0;
}

static size_t find(size_t *parent, size_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* Backtracking: blockers idx[0..n) (most ports first) get sets in n_ports ports, contradicting
 * at most allowed mixes among them; *budget bounds the sets tried (inconsistent data would
 * otherwise search for long). */
static int place(tks_ports_result *r, const size_t *idx, size_t n, size_t k, int n_ports,
                 uint32_t *sets, int allowed, long *budget)
{
    const tks_ports_form *f;
    uint32_t limit = (uint32_t)1 << n_ports;
    if (k == n)
        return 1;
    if (--*budget < 0)
        return 0;
    f = &r->forms[idx[k]];
    for (uint32_t s = 0; s < limit; s++) {
        int ok = popcount32(s) == f->ports, bad = 0;
        /* the first blocker's set is fixed: its lowest ports */
        if (ok && k == 0)
            ok = s == (((uint32_t)1 << f->ports) - 1);
        for (size_t j = 0; j < k && ok; j++) {
            bad += contradicts(r, idx[k], idx[j], s, sets[j]);
            ok = bad <= allowed;
        }
        if (ok) {
            sets[k] = s;
            if (place(r, idx, n, k + 1, n_ports, sets, allowed - bad, budget))
                return 1;
        }
    }
    return 0;
}

static int by_ports_desc(const void *a, const void *b, void *forms)
{
    const tks_ports_form *f = forms;
    return f[*(const size_t *)b].ports - f[*(const size_t *)a].ports;
}

/* Insertion sort (qsort has no context argument in C11). */
static void sort_idx(size_t *idx, size_t n, tks_ports_form *forms)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && by_ports_desc(&idx[j - 1], &idx[j], forms) > 0; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

static void solve_domain(tks_ports_result *r, const size_t *idx, size_t n, int d)
{
    uint32_t sets[64];
    int lo = 1;
    for (size_t i = 0; i < n; i++)
        if (r->forms[idx[i]].ports > lo)
            lo = r->forms[idx[i]].ports;
    /* fewest ports, each with no contradicted mix, then one (a port more is a stronger claim
     * than one mix disturbed by load); then two; a domain wider than its widest blocker by
     * more than 4 ports is not looked for */
    for (int step = 0; step < 3 * 5; step++) {
        int np = lo + (step < 10 ? step / 2 : step - 10), allowed = step < 10 ? step % 2 : 2;
        long budget = 20000;
        if (np <= TKS_PORTS_MAX_PORTS) {
            if (!place(r, idx, n, 0, np, sets, allowed, &budget))
                continue;
            r->domain_ports[d] = np;
            r->domain_misfits[d] = 0;
            for (size_t i = 0; i < n; i++) {
                r->forms[idx[i]].set = sets[i];
                r->forms[idx[i]].domain = d;
                r->forms[idx[i]].status = TKS_PORTS_ASSIGNED;
                r->forms[idx[i]].n_candidates = 1;
                r->forms[idx[i]].candidates[0] = sets[i];
                for (size_t j = 0; j < i; j++)
                    if (contradicts(r, idx[i], idx[j], sets[i], sets[j])) {
                        pair_of(r, idx[i], idx[j])->misfit = 1;
                        r->domain_misfits[d]++;
                    }
            }
            return;
        }
    }
    /* no labelling fits: each blocker on its own lowest ports, marked */
    r->domain_ports[d] = lo;
    for (size_t i = 0; i < n; i++) {
        r->forms[idx[i]].set = ((uint32_t)1 << r->forms[idx[i]].ports) - 1;
        r->forms[idx[i]].domain = d;
        r->forms[idx[i]].status = TKS_PORTS_INCONSISTENT;
    }
}

/* A form beside the placed blockers: the sets of its size contradicting fewest mixes. */
static void place_form(tks_ports_result *r, size_t i)
{
    tks_ports_form *f = &r->forms[i];
    int d = -1, best = 1 << 30;
    uint32_t limit;
    for (size_t b = 0; b < r->n_blockers; b++)
        if (least_overlap(r, i, b) > 0 && r->forms[b].domain >= 0) {
            if (d >= 0 && d != r->forms[b].domain) {
                f->status = TKS_PORTS_INCONSISTENT; /* shares ports with two domains */
                return;
            }
            d = r->forms[b].domain;
        }
    if (d < 0) {
        f->status = TKS_PORTS_UNBLOCKED;
        return;
    }
    f->domain = d;
    if (f->ports > r->domain_ports[d]) {
        f->status = TKS_PORTS_INCONSISTENT;
        f->set = ((uint32_t)1 << r->domain_ports[d]) - 1;
        return;
    }
    limit = (uint32_t)1 << r->domain_ports[d];
    f->n_candidates = 0;
    for (uint32_t s = 0; s < limit; s++) {
        int miss = 0;
        if (popcount32(s) != f->ports)
            continue;
        for (size_t b = 0; b < r->n_blockers; b++)
            if (r->forms[b].domain == d)
                miss += contradicts(r, i, b, s, r->forms[b].set);
        if (miss < best)
            best = miss, f->n_candidates = 0;
        if (miss == best) {
            if (f->n_candidates < TKS_PORTS_MAX_CANDIDATES)
                f->candidates[f->n_candidates] = s;
            f->n_candidates++;
        }
    }
    f->set = f->candidates[0];
    f->alt = f->n_candidates > 1 ? f->candidates[1] : 0;
    f->misfits = best;
    f->status = best > 0 ? TKS_PORTS_INCONSISTENT
              : f->n_candidates == 1 ? TKS_PORTS_ASSIGNED : TKS_PORTS_AMBIGUOUS;
    for (size_t b = 0; b < r->n_blockers && best > 0; b++)
        if (r->forms[b].domain == d && contradicts(r, i, b, f->set, r->forms[b].set))
            pair_of(r, i, b)->misfit = 1;
}

void tks_ports_solve(tks_ports_result *r)
{
    size_t nb = r->n_blockers, parent[64], idx[64];
    int next_class = 0;
    if (nb > 64)
        nb = 64;
    r->n_domains = 0;
    for (size_t p = 0; p < r->n_pairs; p++)
        r->pairs[p].misfit = 0;
    for (size_t i = 0; i < r->n_forms; i++) {
        /* anew: the blockers may have been solved alone before (ports.c) */
        r->forms[i].n_candidates = r->forms[i].misfits = 0;
        r->forms[i].domain = r->forms[i].port_class = -1;
        r->forms[i].set = r->forms[i].alt = 0;
    }
    for (size_t i = 0; i < nb; i++)
        parent[i] = i;
    for (size_t i = 0; i < nb; i++)
        for (size_t j = 0; j < i; j++)
            if (r->forms[i].ports && r->forms[j].ports && least_overlap(r, i, j) > 0)
                parent[find(parent, i)] = find(parent, j);
    for (size_t root = 0; root < nb; root++) {
        size_t n = 0;
        if (find(parent, root) != root || !r->forms[root].ports)
            continue;
        for (size_t i = 0; i < nb; i++)
            if (r->forms[i].ports && find(parent, i) == root)
                idx[n++] = i;
        if (r->n_domains == TKS_PORTS_MAX_DOMAINS)
            break;
        sort_idx(idx, n, r->forms);
        solve_domain(r, idx, n, r->n_domains++);
    }
    for (size_t i = r->n_blockers; i < r->n_forms; i++)
        if (r->forms[i].ports)
            place_form(r, i);
    /* classes: forms placed on the same ports of the same domain */
    for (size_t i = 0; i < r->n_forms; i++) {
        tks_ports_form *f = &r->forms[i];
        if (f->domain < 0 || f->port_class >= 0)
            continue;
        f->port_class = next_class;
        for (size_t j = i + 1; j < r->n_forms; j++)
            if (r->forms[j].domain == f->domain && r->forms[j].set == f->set &&
                r->forms[j].port_class < 0)
                r->forms[j].port_class = next_class;
        next_class++;
    }
}
