/* SPDX-License-Identifier: MIT */
/* features.c: this CPU's features, probed once per process: CPUID traps to the hypervisor in a
 * guest (thousands of ticks), so nobody should probe it twice. What the library sees is the
 * probe's answer as TKS_CPU_FEATURES changes it for tests (cpu_override.h). */
#include <pthread.h>

#include "method/cpu_override.h"
#include "tickscope/method.h"

static struct tks_cpu_features g_features;
static pthread_once_t g_features_once = PTHREAD_ONCE_INIT;

static void probe_features(void)
{
    tks_cpu_features_probe(&g_features);
    tks__cpu_override_apply(tks__cpu_override_get(), &g_features);
}

const struct tks_cpu_features *tks_cpu_features_get(void)
{
    pthread_once(&g_features_once, probe_features);
    return &g_features;
}

const char *tks_cpu_features_override(void)
{
    const tks__cpu_override *o = tks__cpu_override_get();
    return o->active ? o->text : NULL;
}
