/* SPDX-License-Identifier: MIT */
/* features.c: this CPU's features, probed once per process: CPUID traps to the hypervisor in a
 * guest (thousands of ticks), so nobody should probe it twice. */
#include <pthread.h>

#include "tickscope/method.h"

static struct tks_cpu_features g_features;
static pthread_once_t g_features_once = PTHREAD_ONCE_INIT;

static void probe_features(void) { tks_cpu_features_probe(&g_features); }

const struct tks_cpu_features *tks_cpu_features_get(void)
{
    pthread_once(&g_features_once, probe_features);
    return &g_features;
}
