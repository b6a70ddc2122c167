/* methods.c: which methods can run where (user space, or the kernel module as it says) and
 * which belong in a list of methods for a run. */
#include "tickscope/analysis.h"

int tks_method_runnable(enum tks_method m, enum tks_where where, uint32_t kernel_methods)
{
    if ((unsigned)m >= TKS_METHOD_COUNT)
        return 0;
    if (where == TKS_WHERE_USER)
        return tks_method_available(m, tks_cpu_features_get());
    return (unsigned)m < 32 && (kernel_methods & (1u << m)) != 0;
}

int tks_method_listed(enum tks_method m, enum tks_where where)
{
    const struct tks_method_info *mi = tks_method_info(m);
    if (!mi)
        return 0;
#if defined(TKS_ARCH_X86)
    if (!(mi->flags & TKS_MF_X86))
        return 0;
#else
    if (!(mi->flags & TKS_MF_ARM64))
        return 0;
#endif
    return where != TKS_WHERE_USER || !(mi->flags & TKS_MF_RING0);
}
