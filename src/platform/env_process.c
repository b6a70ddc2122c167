/* SPDX-License-Identifier: MIT */
/* env_process.c: the environment checks of the measuring process itself: the performance
 * counters it may read, address-space randomisation and how tickscope was built. */
#include "platform/env_internal.h"
#include "tickscope.h"

/* ---------------------------------------------------------------- 10. performance counters */

/* The core PMU's directory ("cpu", or "cpu_core" on hybrid Intel), NULL when none. */
static const char *core_pmu(const struct tks__env_ctx *c)
{
    if (tks__env_exists(c, PMU_DIR "/cpu"))
        return PMU_DIR "/cpu";
    if (tks__env_exists(c, PMU_DIR "/cpu_core"))
        return PMU_DIR "/cpu_core";
    return NULL;
}

/* rdpmc < 0: its file could not be read. */
static void perf_verdict(tks_env_finding *f, long paranoid, long rdpmc, const char *rdpmc_path)
{
    if (paranoid > 2 && rdpmc == 0) {
        FINDING(f, TKS_ENV_WARN, ENV_PARANOID_NO_RDPMC, TKS__DN(paranoid));
        ADVICE(f, ENV_PARANOID_NO_RDPMC_FIX, TKS__DS(rdpmc_path));
        return;
    } else if (paranoid > 2) {
        FINDING(f, TKS_ENV_WARN, ENV_PARANOID, TKS__DN(paranoid));
        ADVICE0(f, ENV_PARANOID_FIX);
    } else if (rdpmc == 0) {
        FINDING(f, TKS_ENV_WARN, ENV_NO_RDPMC, TKS__DN(paranoid));
        ADVICE(f, ENV_NO_RDPMC_FIX, TKS__DS(rdpmc_path));
        return;
    } else {
        FINDING(f, TKS_ENV_OK, ENV_COUNTERS_USABLE, TKS__DN(paranoid));
    }
    if (rdpmc < 0)
        DETAIL0(f, ENV_RDPMC_UNREADABLE);
    else
        DETAIL(f, ENV_RDPMC, TKS__DN(rdpmc));
}

void tks__env_check_perf_counters(const struct tks__env_ctx *c, tks_env_finding *f)
{
    static const char paranoid_path[] = "/proc/sys/kernel/perf_event_paranoid";
    char rdpmc_path[96];
    const char *pmu;
    long paranoid, rdpmc;
    if (!tks__env_exists(c, PMU_DIR)) {
        tks__env_unknown(f, "find", PMU_DIR);
        return;
    }
    if (!(pmu = core_pmu(c))) {
        FINDING0(f, TKS_ENV_INFO, ENV_NO_PMU);
        ADVICE0(f, ENV_NO_PMU_FIX);
        return;
    }
    tks__env_put(rdpmc_path, sizeof rdpmc_path, "%s/rdpmc", pmu);
    if (tks__env_read_long(c, paranoid_path, &paranoid)) {
        tks__env_unknown(f, "read", paranoid_path);
        return;
    }
    if (tks__env_read_long(c, rdpmc_path, &rdpmc)) {
        /* A definite refusal is worth more than the unknown rdpmc setting. */
        if (paranoid > 2)
            perf_verdict(f, paranoid, -1, rdpmc_path);
        else
            tks__env_unknown(f, "read", rdpmc_path);
        return;
    }
    perf_verdict(f, paranoid, rdpmc, rdpmc_path);
}

/* ---------------------------------------------------------------- 11. ASLR */

void tks__env_check_aslr(const struct tks__env_ctx *c, tks_env_finding *f)
{
    static const char path[] = "/proc/sys/kernel/randomize_va_space";
    long v;
    if (tks__env_read_long(c, path, &v)) {
        tks__env_unknown(f, "read", path);
        return;
    }
    if (v == 0) {
        FINDING0(f, TKS_ENV_OK, ENV_ASLR_OFF);
        return;
    }
    FINDING(f, TKS_ENV_INFO, ENV_ASLR, TKS__DN(v));
    ADVICE0(f, ENV_ASLR_FIX);
}

/* ---------------------------------------------------------------- 14. build */

#if defined(__SANITIZE_ADDRESS__)
#define TKS_ENV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TKS_ENV_ASAN 1
#endif
#endif

void tks__env_check_build(const struct tks__env_ctx *c, tks_env_finding *f)
{
    int opt = c->in->optimized_build;
#ifdef TKS_ENV_ASAN
    /* Instrumented memory accesses slow the harness around the measured loops and add noise. */
    FINDING0(f, TKS_ENV_WARN, ENV_BUILD_ASAN);
    if (opt == 0)
        DETAIL0(f, ENV_BUILD_UNOPTIMISED);
    ADVICE0(f, ENV_BUILD_ASAN_FIX);
#else
    if (opt == 0) {
        FINDING0(f, TKS_ENV_WARN, ENV_BUILD_UNOPTIMISED);
        ADVICE0(f, ENV_BUILD_UNOPTIMISED_FIX);
    } else if (opt > 0) {
        FINDING0(f, TKS_ENV_OK, ENV_BUILD_OPTIMISED);
    } else {
        FINDING0(f, TKS_ENV_UNKNOWN, ENV_BUILD_UNKNOWN);
        ADVICE0(f, ENV_BUILD_UNKNOWN_FIX);
    }
#endif
}
