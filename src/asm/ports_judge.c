/* SPDX-License-Identifier: MIT */
/* ports_judge.c: what each mix of two forms says about the ports they share, once every mix is
 * measured. ka copies of a (na ports) beside kb of b (nb ports), each part alone s cycles: the
 * ports of both are busy (ka + kb) / |A u B| cycles, so the mix's time gives |A u B| and the
 * ports shared, na + nb - |A u B|. That holds while ports are the limit. A mix running at the
 * machine's width (r->width: the most instructions a cycle a body of forms on disjoint units
 * ran; dispatch and rename, not ports; r->width_memory, less, for a mix with a memory operand),
 * or at the width left to it while another thread shared the core (width_there: a NOP body
 * measured right after it), is width-bound: its time is at least the width's, so it
 * says only that the ports take no longer, an upper bound on what is shared. (Measuring it
 * again with fewer copies of b, below the width, does not help: such a mix shows sharing only
 * beyond n - (ka + kb') / s, more than a mix at the width can have.) */
#include "asm/ports_judge.h"

#include <math.h>
#include <string.h>

/* The whole overlaps within [lo, hi] widened by the tolerance, clamped to [0, m]; an interval
 * between two whole numbers allows both. */
static void whole_range(double lo, double hi, int m, int *ov_lo, int *ov_hi)
{
    lo -= TKS_PORTS_TOLERANCE, hi += TKS_PORTS_TOLERANCE;
    *ov_lo = (int)ceil(lo);
    *ov_hi = (int)floor(hi);
    if (*ov_lo > *ov_hi)
        *ov_lo = (int)floor(lo), *ov_hi = (int)ceil(hi);
    *ov_lo = *ov_lo < 0 ? 0 : *ov_lo > m ? m : *ov_lo;
    *ov_hi = *ov_hi < 0 ? 0 : *ov_hi > m ? m : *ov_hi;
}

/* Whether code has a memory operand (Intel [..], AT&T (..)). */
static int memory(const char *code)
{
    return strchr(code, '[') || strchr(code, '(');
}

/* w, or v when v is measured and less. */
static double lesser(double w, double v)
{
    return isfinite(v) && v > 0 && v < w ? v : w;
}

double tks__ports_mix_width(const tks_ports_result *r, const char *a, const char *b, double w)
{
    return memory(a) || memory(b) ? lesser(w, r->width_memory.lo) : w;
}

void tks_ports_judge(tks_ports_result *r)
{
    double widest = 0, w;
    for (size_t i = 0; i < r->n_pairs; i++) {
        const tks_ports_pair *p = &r->pairs[i];
        if (p->why != TKS_PORTS_WHY_FAILED && p->mix.value > 0 &&
            (p->ka + p->kb) / p->mix.value > widest)
            widest = (p->ka + p->kb) / p->mix.value;
    }
    r->widest_mix = widest;
    /* the width at its slow end; not measured, the widest mix stands for it */
    w = isfinite(r->width.lo) && r->width.lo > 0 ? r->width.lo : widest;
    for (size_t i = 0; i < r->n_pairs; i++) {
        tks_ports_pair *p = &r->pairs[i];
        int na = r->forms[p->a].ports, nb = r->forms[p->b].ports, m = na < nb ? na : nb;
        int n = na + nb;
        double k = p->ka + p->kb, lo, hi, wp;
        p->overlap = -1;
        p->ranged = p->width_bound = 0;
        p->ov_lo = p->ov_hi = -1;
        if (p->why == TKS_PORTS_WHY_FAILED)
            continue;
        p->why = TKS_PORTS_WHY_NONE;
        /* the mix takes at least s cycles (each part's own) and, sharing, at most 2s: an
         * interval beyond those bounds says no more than they do */
        lo = p->mix.lo < 0.9 * p->s ? 0.9 * p->s : p->mix.lo;
        hi = p->mix.hi > 2.2 * p->s ? 2.2 * p->s : p->mix.hi;
        p->shared = n - k / p->mix.value;
        p->shared_lo = n - k / (lo < hi ? lo : hi);
        p->shared_hi = n - k / hi;
        /* a part bound by its own chain leaves its ports idle part of the time: the mix then
         * understates what is shared */
        if (p->alone_a.value > 1.2 * p->s || p->alone_b.value > 1.2 * p->s) {
            p->why = TKS_PORTS_WHY_LATENCY;
            continue;
        }
        /* the mix's width: less with a memory operand, and while another thread shared the
         * core */
        wp = tks__ports_mix_width(r, r->forms[p->a].code, r->forms[p->b].code, w);
        wp = lesser(wp, p->width_there.lo);
        p->width_bound = n >= TKS_PORTS_WIDTH_BOUND * wp && p->mix.lo > 0 &&
                         k / p->mix.lo >= TKS_PORTS_WIDTH_BOUND * wp;
        if (!p->width_bound && p->shared_lo > m + 0.5) {
            p->why = TKS_PORTS_WHY_EXCESS;
            continue;
        }
        whole_range(p->shared_lo, p->shared_hi, m, &p->ov_lo, &p->ov_hi);
        if (p->width_bound) /* at most what its cost allows: from 0 */
            p->ov_lo = 0;
        p->ranged = 1;
        if (p->ov_lo == p->ov_hi)
            p->overlap = p->ov_lo;
        else
            p->why = p->width_bound ? TKS_PORTS_WHY_WIDTH : TKS_PORTS_WHY_BETWEEN;
    }
}
