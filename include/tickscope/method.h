/* SPDX-License-Identifier: MIT */
/* tickscope/method.h: the clock methods as a library sees them: this CPU's features, names,
 * and the one policy that says which method to use and which can be trusted. */
#ifndef TICKSCOPE_METHOD_H
#define TICKSCOPE_METHOD_H

#include "clock.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the samples are taken: in this process, or by the kernel module (kmod/, device
 * /dev/tickscope) with the CPU owned as the white paper owns it, or with interrupts left on. */
enum tks_where {
    TKS_WHERE_USER = 0,
    TKS_WHERE_KERNEL_IRQ_OFF,     /* preempt_disable() + raw_local_irq_save() (white paper) */
    TKS_WHERE_KERNEL_PREEMPT_OFF  /* preempt_disable() only: interrupts still arrive */
};

/* Method sets: bit m stands for method m (enum tks_method). */
#define TKS_METHOD_BIT(m) (1u << (unsigned)(m))
#define TKS_METHOD_ALL ((1u << (unsigned)TKS_METHOD_COUNT) - 1u)

/* The CPU's features, probed once per process (CPUID traps under a hypervisor), as the
 * environment variable TKS_CPU_FEATURES changes them for tests (docs/testing.md): features the
 * CPU has taken away, another vendor, family or model; never an instruction it lacks. */
TKS_API const struct tks_cpu_features *tks_cpu_features_get(void);
/* TKS_CPU_FEATURES as given when it changes what tks_cpu_features_get() and the CPU's identity
 * say (every output that shows the CPU says so), NULL when it is not set. */
TKS_API const char *tks_cpu_features_override(void);
/* Look a method up by name; -1 if unknown. */
TKS_API int tks_method_from_name(const char *name);

/* The one policy every part of tickscope follows (validate, benchmarks, regions, the quantum).
 *
 * A method's fences order execution here unless they are LFENCEs and LFENCE is not
 * dispatch-serialising on this CPU (AMD without CPUID 0x80000021 EAX[2]). */
TKS_API int tks_method_fences_hold(enum tks_method m, const struct tks_cpu_features *f);
/* Why a method can never be recommended here (NULL when it can): both readings must be fenced
 * against the measured code, and its fences must hold. */
TKS_API const char *tks_method_ineligible_reason(enum tks_method m, const struct tks_cpu_features *f);
/* The method to use when none is named: among those this CPU has in user space and whose
 * fences hold, the first in the order of preference (tks_method_info()->preference);
 * TKS_METHOD_COUNT when there is none. */
TKS_API enum tks_method tks_method_default(const struct tks_cpu_features *f);
/* 1 if m is a method of this architecture (ring-0 ones included); 1 if, in addition, user
 * space can run it (tks_method_user). Neither looks at this CPU's features. */
TKS_API int tks_method_of_arch(enum tks_method m);
TKS_API int tks_method_user(enum tks_method m);
/* 1 if method m belongs in a list of methods for runs where: this architecture's methods, the
 * ring-0 ones (cr0) only for kernel runs. */
TKS_API int tks_method_listed(enum tks_method m, enum tks_where where);
/* 1 if samples of method m can be taken where: on this CPU in user space, or in a kernel run
 * when bit m of kernel_methods (tks_kernel_info.methods) says the module runs it, and, for a
 * ring-0 method (its end writes CR0), only with interrupts off. */
TKS_API int tks_method_runnable(enum tks_method m, enum tks_where where, uint32_t kernel_methods);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_METHOD_H */
