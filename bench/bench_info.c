/* SPDX-License-Identifier: MIT */
/* bench_info.c: the platform issue's targets. `tickscope info` end to end with a cold cache
 * (--recalibrate; target < 300 ms) and a warm one (target < 20 ms), 10 runs each; then the
 * measured TSC rate against the kernel's own figure over 10 calibrations (target within 10 ppm,
 * in under 100 ms). The core clock's stability across runs is bench_core's.
 * Usage: bench_info [path/to/tickscope]   (default: build/tickscope, from the repo root) */
#include <math.h>

#include "child.h"
#include "platform/tsc_sources.h"
#include "tickscope.h"

#define RUNS 10
#define COLD_TARGET_S 0.300
#define WARM_TARGET_S 0.020
#define PPM_TARGET 10.0
#define CAL_TARGET_S 0.100

static int time_runs(char *const *args, const char *label, double target)
{
    double t[RUNS];
    for (int i = 0; i < RUNS; i++) {
        int rc = bench_run_child(args, &t[i]);
        if (rc != 0) {
            fprintf(stderr, "bench_info: %s run %d: tickscope exited with status %d\n", label,
                    i + 1, rc);
            return 1;
        }
    }
    qsort(t, RUNS, sizeof t[0], bench_cmp_double);
    printf("  %-5s min %6.1f ms, median %6.1f ms, max %6.1f ms; target < %.0f ms: %s\n", label,
           t[0] * 1e3, t[RUNS / 2] * 1e3, t[RUNS - 1] * 1e3, target * 1e3,
           t[RUNS / 2] < target ? "MET (median)" : "NOT MET (median)");
    return 0;
}

/* The kernel's figure: its perf_event factors, else its log. */
static const tks_hz_reading *kernel_rate(const tks_hz_reading *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].source == TKS_HZ_LINUX_PERF)
            return &r[i];
    for (size_t i = 0; i < n; i++)
        if (r[i].source == TKS_HZ_LINUX_LOG)
            return &r[i];
    return NULL;
}

static void calibration_against_kernel(void)
{
    tks_hz_reading declared[TKS_HZ_SOURCE_COUNT];
    size_t n = tks__tsc_declared(NULL, declared, TKS_HZ_SOURCE_COUNT);
    const tks_hz_reading *k = kernel_rate(declared, n);
    double worst = 0, slowest = 0;
    printf("\nTSC rate measured against CLOCK_MONOTONIC_RAW, %d calibrations:\n", RUNS);
    if (!k)
        printf("  (the kernel's figure is not readable here: no perf_event time factors and no "
               "'tsc:' line in /dev/kmsg; run as root)\n");
    else
        printf("  kernel: %.6f MHz (%s)\n", k->hz / 1e6, k->detail);
    for (int i = 0; i < RUNS; i++) {
        tks_tsc_calibration c;
        double t = bench_now(), s;
        int rc = tks_tsc_calibrate(0, &c);
        s = bench_now() - t;
        if (rc) {
            printf("  run %d: %s\n", i + 1, tks_strerror(rc));
            continue;
        }
        if (s > slowest)
            slowest = s;
        printf("  run %2d: %.6f MHz +-%.3f ppm, %zu of %zu pairs, %.0f ms", i + 1, c.hz / 1e6,
               c.ppm, c.used, c.points, s * 1e3);
        if (k) {
            double d = (c.hz - k->hz) / k->hz * 1e6;
            if (fabs(d) > worst)
                worst = fabs(d);
            printf(", %+.3f ppm from the kernel", d);
        }
        printf("\n");
    }
    if (k)
        printf("  worst %.3f ppm from the kernel; target within %.0f ppm: %s\n", worst, PPM_TARGET,
               worst <= PPM_TARGET ? "MET" : "NOT MET");
    printf("  slowest calibration %.0f ms; target < %.0f ms: %s\n", slowest * 1e3,
           CAL_TARGET_S * 1e3, slowest < CAL_TARGET_S ? "MET" : "NOT MET");
}

static int bench_main(int argc, char **argv)
{
    const char *exe = argc > 1 ? argv[1] : "build/tickscope";
    char dir[] = "/tmp/tks_bench_info_XXXXXX";
    char *const cold[] = {(char *)exe, "info", "--recalibrate", NULL};
    char *const warm[] = {(char *)exe, "info", NULL};
    int rc;

    if (bench_check_exe("bench_info", exe))
        return 1;
    if (!mkdtemp(dir) || setenv("TICKSCOPE_CACHE_DIR", dir, 1) != 0) {
        perror("bench_info: temporary cache directory");
        return 1;
    }
    printf("bench_info: wall time of '%s info', %d runs each, stdout to /dev/null.\n", exe, RUNS);
    rc = time_runs(cold, "cold", COLD_TARGET_S) || time_runs(warm, "warm", WARM_TARGET_S);
    {
        char path[64];
        snprintf(path, sizeof path, "%s/calibration", dir);
        remove(path);
        rmdir(dir);
    }
    if (rc)
        return 1;
    calibration_against_kernel();
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_info [path/to/tickscope]\nThe wall time of `tickscope info` with a cold and a warm cache, and the measured TSC rate\nagainst the kernel's (default path: build/tickscope, from the repository root).\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
