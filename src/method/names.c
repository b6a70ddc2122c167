/* SPDX-License-Identifier: MIT */
/* names.c: methods by name, and which of them this architecture (and user space) has: the
 * answers come from the flags of the one method list in tickscope/clock.h. */
#include <string.h>

#include "tickscope/method.h"

int tks_method_from_name(const char *name)
{
    int m;
    if (!name)
        return -1;
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        if (strcmp(tks_method_info((enum tks_method)m)->name, name) == 0)
            return m;
    return -1;
}

int tks_method_of_arch(enum tks_method m)
{
    const struct tks_method_info *mi = tks_method_info(m);
    return mi && (mi->flags & TKS_MF_THIS_ARCH) != 0;
}

int tks_method_user(enum tks_method m)
{
    return tks_method_of_arch(m) && !(tks_method_info(m)->flags & TKS_MF_RING0);
}

int tks_method_listed(enum tks_method m, enum tks_where where)
{
    return where == TKS_WHERE_USER ? tks_method_user(m) : tks_method_of_arch(m);
}

int tks_method_runnable(enum tks_method m, enum tks_where where, uint32_t kernel_methods)
{
    if ((unsigned)m >= TKS_METHOD_COUNT)
        return 0;
    if (where == TKS_WHERE_USER)
        return tks_method_user(m) && tks_method_available(m, tks_cpu_features_get());
    /* The module refuses a ring-0 end sequence (the CR0 write-back) with interrupts on. */
    if (where != TKS_WHERE_KERNEL_IRQ_OFF && (tks_method_info(m)->flags & TKS_MF_RING0))
        return 0;
    return (kernel_methods & TKS_METHOD_BIT(m)) != 0;
}
