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
    char r[32];
    if (rdpmc < 0)
        tks__env_put(r, sizeof r, "rdpmc unreadable");
    else
        tks__env_put(r, sizeof r, "rdpmc %ld", rdpmc);
    if (paranoid > 2 && rdpmc == 0) {
        FINDING(f, TKS_ENV_WARN, "perf_event_paranoid %ld refuses counters to users, and "
                "user-space rdpmc disabled (rdpmc 0)", paranoid);
        ADVICE(f, "sysctl kernel.perf_event_paranoid=2; echo 1 > %s", rdpmc_path);
    } else if (paranoid > 2) {
        FINDING(f, TKS_ENV_WARN, "perf_event_paranoid %ld refuses counters to users (%s)",
                paranoid, r);
        ADVICE(f, "sysctl kernel.perf_event_paranoid=2 (or lower), or run with CAP_PERFMON");
    } else if (rdpmc == 0) {
        FINDING(f, TKS_ENV_WARN, "user-space rdpmc disabled (rdpmc 0, perf_event_paranoid %ld): "
                "counters are read through a system call", paranoid);
        ADVICE(f, "echo 1 > %s", rdpmc_path);
    } else {
        FINDING(f, TKS_ENV_OK, "core cycle counter usable (perf_event_paranoid %ld, %s)",
                paranoid, r);
    }
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
        FINDING(f, TKS_ENV_INFO, "no hardware performance-counter PMU exposed (perf_event 'cpu' "
                "device missing): core cycles are estimated, not counted");
        ADVICE(f, "on a VM ask the host to expose the PMU (e.g. KVM -cpu host,pmu=on); on bare "
               "metal check the kernel has CONFIG_PERF_EVENTS and the CPU's PMU driver");
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
        FINDING(f, TKS_ENV_OK, "address-space randomisation off");
        return;
    }
    FINDING(f, TKS_ENV_INFO, "address-space randomisation on (%ld): code and data alignment change "
            "between runs", v);
    ADVICE(f, "compare runs under 'setarch -R' or sysctl kernel.randomize_va_space=0");
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
    FINDING(f, TKS_ENV_WARN, "tickscope was built with AddressSanitizer%s",
            opt == 0 ? " and without optimisation" : "");
    ADVICE(f, "use the plain build for measurements: cmake -DTKS_SANITIZE=OFF "
           "-DCMAKE_BUILD_TYPE=Release");
#else
    if (opt == 0) {
        FINDING(f, TKS_ENV_WARN, "tickscope was built without optimisation");
        ADVICE(f, "rebuild with the default (Release) build: cmake -DCMAKE_BUILD_TYPE=Release");
    } else if (opt > 0) {
        FINDING(f, TKS_ENV_OK, "tickscope was built with optimisation");
    } else {
        FINDING(f, TKS_ENV_UNKNOWN, "build unknown (optimisation not reported)");
        ADVICE(f, "pass tks_build_optimized() as optimized_build");
    }
#endif
}
