/* SPDX-License-Identifier: MIT */
/* bench_region_nested.c: the issue-18 target "no negative region figure in 100 runs of the
 * nested example". Each run is a fresh process (the regions calibrate their overhead once per
 * process): an outer region around an inner one of 10 dependent adds, 20,000 passes. The regions
 * clamp a net figure below zero to 0 (flagged below resolution), so none is ever reported
 * negative: the parent counts the figures before the clamp, each as read less what is subtracted
 * from it (the target: 0 negative), checks that none is reported negative, and counts figures
 * flagged below resolution and how many raw minimums lie below the overhead subtracted from means
 * (the first wave subtracted its mean overhead from the minimum too, and reported those
 * negative), with the range of that overhead over the runs.
 *
 * Usage: bench_region_nested [RUNS]   (default 100) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tickscope/region.h>

#include "child.h"

#define PASSES 20000

static volatile unsigned long sink;

/* What one run sends back to the parent, per region. */
struct run_figures {
    double mean, min, median, max, p99;  /* net, as reported */
    double raw_mean, raw_min, raw_median, raw_max, raw_p99;
    double overhead, overhead_median, overhead_min, resolution;
    unsigned below;
    int ok;
};

static unsigned long ten_adds(unsigned long x) /* a register wide on every target */
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                         "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                         : "+r"(x));
#else
    __asm__ __volatile__("add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
                         "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
                         "add %0, %0, #1\n\tadd %0, %0, #1"
                         : "+r"(x));
#endif
    return x;
}

static void one_run(int fd)
{
    struct run_figures r[2];
    const char *names[2] = {"outer", "inner"};
    unsigned long x = 0;
    tks_region_set_output("none", -1);
    tks_region_set_reservoir(NULL, 4096);
    for (int i = 0; i < PASSES; i++) {
        TKS_REGION_BEGIN("outer");
        TKS_REGION_BEGIN("inner");
        x = ten_adds(x);
        TKS_REGION_END("inner");
        TKS_REGION_END("outer");
    }
    sink = x;
    for (int k = 0; k < 2; k++) {
        tks_region_stats s;
        r[k].ok = tks_region_stats_get(names[k], &s) == 0;
        r[k].mean = s.mean;
        r[k].min = s.min;
        r[k].median = s.median;
        r[k].max = s.max;
        r[k].p99 = s.p99;
        r[k].raw_mean = s.raw_mean;
        r[k].raw_min = s.raw_min;
        r[k].raw_median = s.raw_median;
        r[k].raw_max = s.raw_max;
        r[k].raw_p99 = s.raw_p99;
        r[k].overhead = s.overhead;
        r[k].overhead_median = s.overhead_median;
        r[k].overhead_min = s.overhead_min;
        r[k].resolution = s.resolution;
        r[k].below = s.below_resolution;
    }
    if (write(fd, r, sizeof r) != (ssize_t)sizeof r)
        _exit(1);
    _exit(0);
}

static int bench_main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 100, done = 0;
    unsigned negative = 0, before_clamp = 0, below = 0, old_negative = 0;
    double ov_lo = INFINITY, ov_hi = -INFINITY, inner_lo = INFINITY, inner_hi = -INFINITY;
    if (runs <= 0)
        runs = 100;
    for (int i = 0; i < runs; i++) {
        struct run_figures r[2];
        int p[2], status;
        pid_t pid;
        if (pipe(p) != 0)
            return 1;
        fflush(NULL);
        pid = fork();
        if (pid == 0) {
            close(p[0]);
            one_run(p[1]);
        }
        close(p[1]);
        if (pid < 0 || read(p[0], r, sizeof r) != (ssize_t)sizeof r) {
            close(p[0]);
            fprintf(stderr, "bench_region_nested: run %d failed\n", i);
            return 1;
        }
        close(p[0]);
        waitpid(pid, &status, 0);
        for (int k = 0; k < 2; k++) {
            const double v[5] = {r[k].mean, r[k].min, r[k].median, r[k].max, r[k].p99};
            /* before the clamp: as read, less the overhead (mean) or the empty passes' median
             * (the others), as tickscope/region.h says each is net of */
            const double pre[5] = {r[k].raw_mean - r[k].overhead,
                                   r[k].raw_min - r[k].overhead_median,
                                   r[k].raw_median - r[k].overhead_median,
                                   r[k].raw_max - r[k].overhead_median,
                                   r[k].raw_p99 - r[k].overhead_median};
            if (!r[k].ok)
                return 1;
            for (int j = 0; j < 5; j++) {
                negative += v[j] < 0;
                before_clamp += pre[j] < 0;
            }
            below += r[k].below != 0;
            old_negative += r[k].raw_min - r[k].overhead < 0;
        }
        if (r[0].overhead < ov_lo)
            ov_lo = r[0].overhead;
        if (r[0].overhead > ov_hi)
            ov_hi = r[0].overhead;
        if (r[1].mean < inner_lo)
            inner_lo = r[1].mean;
        if (r[1].mean > inner_hi)
            inner_hi = r[1].mean;
        done++;
    }
    printf("Nested regions (outer around inner = 10 dependent adds), %d passes per run, %d runs, "
           "each a fresh process:\n", PASSES, done);
    printf("  figures negative before the clamp (mean, min, median, max, p99 of both, as read less\n"
           "  the overhead subtracted): %u of %d   (target 0: %s)\n", before_clamp, 10 * done,
           before_clamp ? "not met" : "met");
    printf("  figures reported negative (the clamp reports 0 instead): %u\n", negative);
    printf("  regions with a figure below resolution (clamped, raw kept):      %u of %d\n", below,
           2 * done);
    printf("  raw minimums below the overhead subtracted from means (negative under the first\n"
           "  wave's rule, which subtracted that kind of figure from the minimum too): %u of %d\n",
           old_negative, 2 * done);
    printf("  overhead subtracted from means, over the runs: %.1f .. %.1f ticks\n", ov_lo, ov_hi);
    printf("  inner region's net mean over the runs:         %.1f .. %.1f ticks\n", inner_lo,
           inner_hi);
    return negative ? 1 : 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_region_nested [RUNS]\nThe nested-regions example in RUNS fresh processes (default 100): how many report a negative figure.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
