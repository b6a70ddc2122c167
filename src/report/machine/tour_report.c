/* SPDX-License-Identifier: MIT */
/* tour_report.c: the tour's closing paragraph: which method to use here, what it costs, and how
 * small a difference it sees, from a validation and a resolution run. */
#include "report/machine/analysis_report.h"

/* "the minimum resolves 5 adds" or, when no step up to half the range was told apart, "the
 * minimum resolves no step up to 20 adds" (never "resolves 0"). */
static void resolves(char *buf, size_t size, const char *what, size_t n, uint32_t npoints)
{
    if (n)
        snprintf(buf, size, "%s resolves %zu add%s", what, n, n == 1 ? "" : "s");
    else
        snprintf(buf, size, "%s resolves no step up to %u adds", what, npoints / 2);
}

void tks__report_verdict(const tks_validation *v, const tks_resolution_result *r,
                        const tks_platform *p, FILE *f)
{
    const struct tks_cpu_features *ft = &p->features;
    const tks_method_validation *m = &v->methods[v->recommended];
    const tks_method_validation *cpuid = &v->methods[TKS_METHOD_CPUID];
    char rmin[80], rmean[80];
    resolves(rmin, sizeof rmin, "the minimum", r->res_min, r->npoints);
    resolves(rmean, sizeof rmean, "the phase-averaged mean", r->res_mean, r->npoints);
    fprintf(f, "\nVerdict: on this %s CPU%s, read the clock with `%s`. Its empty window costs "
            "%llu ticks, %s; subtract it from what you measure. The counter advances in steps of "
            "%llu tick(s), so one reading cannot resolve less than that; over many samples %s "
            "and %s, and one dependent add costs %.3f ticks. ",
            ft->vendor[0] ? ft->vendor : "arm64", ft->hypervisor ? " under a hypervisor" : "",
            tks_method_info((enum tks_method)v->recommended)->name,
            (unsigned long long)m->across.min_of_minimums,
            m->erg.ergodic ? "the same in every ensemble (ergodic)" : "but not stably (not ergodic)",
            (unsigned long long)v->quantum, rmin, rmean, r->fit_mean.slope);
    /* At the core clock of the run's own chains, as the resolution summary converts it; the
     * per-boot estimate only where the chains gave none. */
    if (r->long_chain_ticks_per_add > 0)
        fprintf(f, "At %.3f core cycles per tick (measured with these adds), that add is %.2f "
                   "core cycles. ", 1 / r->long_chain_ticks_per_add,
                r->fit_mean.slope / r->long_chain_ticks_per_add);
    else if (tks_core_cycles_per_tick(p) > 0)
        fprintf(f, "At %.3f core cycles per tick (%s), that add is %.2f core cycles. ",
                tks_core_cycles_per_tick(p), p->core.counter ? "counted" : "estimated",
                r->fit_mean.slope * tks_core_cycles_per_tick(p));
    if (cpuid->available && cpuid->rc == 0)
        fprintf(f, "CPUID costs about %llu ticks per window here%s. ",
                (unsigned long long)cpuid->across.min_of_minimums,
                ft->hypervisor ? " because it traps to the hypervisor" : "");
    if (!ft->invariant_tsc)
        fprintf(f, "Warning: this CPU has no invariant TSC, so ticks are not time. ");
    fprintf(f, "Run `tickscope validate --help` and `tickscope resolution --help` for more.\n");
}
