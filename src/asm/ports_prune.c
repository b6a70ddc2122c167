/* SPDX-License-Identifier: MIT */
/* ports_prune.c: fewer mixes without assuming the answer. A form that shares no port with a
 * domain of blockers (those that share ports with each other, transitively, by their own mixes)
 * need not meet each of them: representatives that are disjoint from each other by their mix,
 * and whose least overlaps with another blocker of the domain add up to its port count, hold
 * that blocker's ports; a form disjoint from each representative is disjoint from it too. Only
 * the blockers' own measured mixes are read: no integer/vector split is assumed, and a domain
 * whose data do not prove a blocker lies within the representatives keeps its mix. */
#include "asm/ports_prune.h"

#include "asm/ports_judge.h"

#include <math.h>
#include <string.h>

#define MAXB 64
#define MAX_MEMBERS 12 /* blockers of one domain searched (2^12 sets of them) */

int tks__ports_disjoint(const tks_ports_pair *p)
{
    return p && p->why != TKS_PORTS_WHY_FAILED && p->overlap == 0;
}

/* The blockers' mixes with each other, read once: the least overlap each proves, and whether
 * it reads disjoint. */
typedef struct among {
    size_t nb;
    unsigned char least[MAXB][MAXB];
    unsigned char disjoint[MAXB][MAXB];
} among;

static void read_among(const tks_ports_result *r, among *m)
{
    memset(m, 0, sizeof *m);
    m->nb = r->n_blockers < MAXB ? r->n_blockers : MAXB;
    for (size_t p = 0; p < r->n_pairs; p++) {
        const tks_ports_pair *q = &r->pairs[p];
        if (q->a >= m->nb || q->b >= m->nb)
            continue;
        m->least[q->a][q->b] = m->least[q->b][q->a] =
            q->ranged && q->ov_lo > 0 ? (unsigned char)q->ov_lo : 0;
        m->disjoint[q->a][q->b] = m->disjoint[q->b][q->a] = (unsigned char)tks__ports_disjoint(q);
    }
}

/* Whether blocker b lies within the ports of the representatives (mask reps): they are
 * pairwise disjoint, so the overlaps b shares with them add up. */
static int within(const tks_ports_result *r, const among *m, size_t b, uint64_t reps)
{
    int sum = 0;
    for (size_t q = 0; q < m->nb; q++)
        if (reps >> q & 1)
            sum += m->least[b][q];
    return sum >= r->forms[b].ports;
}

/* Whether a mix of a form of fp ports (code) with blocker b would reach the width (the judge's,
 * ports_judge.h; unmeasured, none). */
static int at_width(const tks_ports_result *r, int fp, const char *code, size_t b)
{
    double w = isfinite(r->width.lo) && r->width.lo > 0 ? r->width.lo : INFINITY;
    w = tks__ports_mix_width(r, code ? code : "", r->forms[b].code, w);
    return fp + r->forms[b].ports >= TKS_PORTS_WIDTH_BOUND * w;
}

size_t tks__ports_cover(const tks_ports_result *r, int d, int form_ports, const char *form_code,
                        size_t *reps, uint64_t *covered)
{
    among m; /* 8 KiB */
    size_t idx[MAX_MEMBERS], nm = 0, n = 0;
    long best_score = 0;
    uint64_t best = 0;
    *covered = 0;
    if (r->n_domains < 2 || d < 0 || d >= r->n_domains)
        return 0;
    read_among(r, &m);
    for (size_t b = 0; b < m.nb; b++)
        if (r->forms[b].ports > 0 && r->forms[b].domain == d) {
            if (r->forms[b].status == TKS_PORTS_INCONSISTENT || nm == MAX_MEMBERS)
                return 0; /* no labelling fits its blockers, or too many to search */
            idx[nm++] = b;
        }
    /* every set of pairwise disjoint representatives: those whose mixes with the form stay
     * below the width first, then the most blockers held, then the fewest representatives */
    for (uint32_t sub = 1; sub < (uint32_t)1 << nm; sub++) {
        uint64_t set = 0, held = 0;
        int ok = 1, below = 1, nr = 0, nh = 0;
        long score;
        for (size_t i = 0; i < nm && ok; i++) {
            if (!(sub >> i & 1))
                continue;
            for (size_t j = 0; j < i && ok; j++)
                if (sub >> j & 1)
                    ok = m.disjoint[idx[i]][idx[j]];
            set |= (uint64_t)1 << idx[i];
            below = below && !at_width(r, form_ports, form_code, idx[i]);
            nr++;
        }
        if (!ok)
            continue;
        for (size_t i = 0; i < nm; i++)
            if (!(sub >> i & 1) && within(r, &m, idx[i], set)) {
                held |= (uint64_t)1 << idx[i];
                nh++;
            }
        score = nh ? (below ? 1L << 20 : 0) + ((long)nh << 8) - nr : 0;
        if (score > best_score)
            best_score = score, best = set, *covered = held;
    }
    for (size_t b = 0; b < m.nb; b++)
        if (best >> b & 1)
            reps[n++] = b;
    return n;
}
