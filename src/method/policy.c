/* SPDX-License-Identifier: MIT */
/* policy.c: the one rule for which method to trust and which to use when none is named; the
 * validation's recommendation, the benchmarks' and regions' default and the quantum probe all
 * ask here, so they cannot disagree. */
#include "tickscope/method.h"

int tks_method_fences_hold(enum tks_method m, const struct tks_cpu_features *f)
{
    const struct tks_method_info *mi = tks_method_info(m);
    /* An LFENCE that is not dispatch-serialising (AMD without CPUID 0x80000021 EAX[2]) orders
     * loads only: the measured code flows around it. */
    return mi && (!(mi->flags & TKS_MF_LFENCE_ORDER) || f->lfence_serializing);
}

const char *tks_method_ineligible_reason(enum tks_method m, const struct tks_cpu_features *f)
{
    unsigned fl = tks_method_info(m)->flags;
    if (!(fl & TKS_MF_FENCED_BEGIN) && !(fl & TKS_MF_FENCED_END))
        return "unfenced: the work may run outside the window";
    if (!(fl & TKS_MF_FENCED_BEGIN))
        return "begin unfenced: the work may start before the first reading";
    if (!tks_method_fences_hold(m, f))
        return "LFENCE is not dispatch-serialising on this CPU";
    return 0;
}

enum tks_method tks_method_default(const struct tks_cpu_features *f)
{
    enum tks_method best = TKS_METHOD_COUNT;
    int m;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        enum tks_method k = (enum tks_method)m;
        if (!tks_method_user(k) || !tks_method_available(k, f) || !tks_method_fences_hold(k, f))
            continue;
        if (best == TKS_METHOD_COUNT ||
            tks_method_info(k)->preference < tks_method_info(best)->preference)
            best = k;
    }
    return best;
}
