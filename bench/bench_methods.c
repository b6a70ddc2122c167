/* SPDX-License-Identifier: MIT */
/* bench_methods.c: what each clock-reading method costs here: wall time per sample of its sampling
 * loop, its empty-window minimum, and, for lfence, how close the library's loop comes to the floor
 * set by a bare LFENCE;RDTSC;LFENCE .. RDTSCP;LFENCE written directly below in one asm statement.
 * Targets (from the issue): lfence overhead == the bare floor; variance of its minimums == 0. */
#include "child.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tickscope.h"

#define ENSEMBLES 100u
#define SAMPLES 10000u
/* Methods that execute CPUID trap to the hypervisor (thousands of ticks each): a budget keeps
 * them to a couple of seconds; the cost per sample does not depend on how many are taken. */
#define CPUID_BUDGET_S 2.0

static double mono_raw(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The counter's rate, measured the way `tickscope info` measures it; 0 if it cannot be. */
static double counter_hz(void)
{
    tks_tsc_calibration c;
    return tks_tsc_calibrate(0, &c) == 0 ? c.hz : 0;
}

#if defined(__x86_64__)
/* The floor: one asm statement from the first fence to the last, so the compiler can put
 * nothing inside; the begin reading leaves RAX/RDX before the closing LFENCE, as in clock.h. */
static uint64_t bare_lfence_sample(void)
{
    uint64_t t0, t1;
    __asm__ __volatile__("lfence\n\t"
                         "rdtsc\n\t"
                         "shlq $32, %%rdx\n\t"
                         "orq %%rdx, %%rax\n\t"
                         "movq %%rax, %0\n\t"
                         "lfence\n\t"
                         "rdtscp\n\t"
                         "lfence\n\t"
                         "shlq $32, %%rdx\n\t"
                         "orq %%rdx, %%rax\n\t"
                         "movq %%rax, %1"
                         : "=r"(t0), "=r"(t1)
                         :
                         : "rax", "rdx", "rcx", "memory");
    return t1 - t0;
}
#endif

struct figures {
    int ok;
    uint32_t ensembles, samples;
    double ns_per_sample, ticks_per_sample;
    uint64_t overhead;          /* smallest empty window */
    double variance_of_minimums;
    uint64_t discarded;
};

static int measure(enum tks_method m, double hz, struct figures *fg)
{
    tks_sample_plan p;
    tks_sample_run run;
    tks_summary *ens = NULL;
    uint64_t *scratch = NULL;
    tks_across a;
    double t, per;
    int rc;

    tks_sample_plan_init(&p, m);
    p.ensembles = ENSEMBLES;
    p.samples = SAMPLES;
    if (tks_method_info(m)->flags & TKS_MF_USES_CPUID)
        p.budget_s = CPUID_BUDGET_S;
    t = mono_raw();
    rc = tks_sample_take(&p, &run);
    t = mono_raw() - t;
    if (rc)
        return rc;
    fg->ensembles = run.ensembles;
    fg->samples = run.samples;
    per = t / ((double)run.ensembles * run.samples);
    fg->ns_per_sample = per * 1e9;
    fg->ticks_per_sample = per * hz;
    fg->discarded = run.discarded_migrated + run.discarded_negative;
    ens = malloc(sizeof *ens * run.ensembles);
    scratch = malloc(sizeof *scratch * run.samples);
    rc = TKS_ENOMEM;
    if (ens && scratch) {
        rc = tks_summarize_ensembles(run.ticks, run.ensembles, run.samples, 1, scratch, ens);
        if (!rc)
            rc = tks_across_ensembles(ens, run.ensembles, &a);
    }
    if (!rc) {
        fg->overhead = a.min_of_minimums;
        fg->variance_of_minimums = a.variance_of_minimums;
        fg->ok = 1;
    }
    free(ens);
    free(scratch);
    tks_sample_run_free(&run);
    return rc;
}

static int bench_main(void)
{
    const struct tks_cpu_features *f = tks_cpu_features_get();
    struct figures fg[TKS_METHOD_COUNT];
    double hz = counter_hz();
    int m;

    printf("bench_methods: cost of each method's sampling loop (%u ensembles x %u samples; methods\n"
           "with CPUID get a %.0f s budget), and its empty-window minimum.\n",
           ENSEMBLES, SAMPLES, CPUID_BUDGET_S);
    printf("Counter rate: %.4f GHz (measured against CLOCK_MONOTONIC_RAW over 50 ms)%s.\n\n",
           hz * 1e-9, f->hypervisor ? "; under a hypervisor" : "");
    printf("%-10s %15s %11s %13s %12s %12s %10s\n", "method", "E x S", "ns/sample", "ticks/sample",
           "overhead", "var of mins", "discarded");
    printf("%-10s %15s %11s %13s %12s %12s %10s\n", "", "", "(wall)", "(wall)", "(min, ticks)",
           "(ticks^2)", "");
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const char *name = tks_method_info((enum tks_method)m)->name;
        char es[32];
        int rc;
        fg[m].ok = 0;
        if (!tks_method_available((enum tks_method)m, f))
            continue;
        rc = measure((enum tks_method)m, hz, &fg[m]);
        if (rc) {
            printf("%-10s %s\n", name, tks_strerror(rc));
            continue;
        }
        snprintf(es, sizeof es, "%u x %u", fg[m].ensembles, fg[m].samples);
        printf("%-10s %15s %11.1f %13.1f %12llu %12.3f %10llu\n", name, es, fg[m].ns_per_sample,
               fg[m].ticks_per_sample, (unsigned long long)fg[m].overhead,
               fg[m].variance_of_minimums, (unsigned long long)fg[m].discarded);
        fflush(stdout);
    }

#if defined(__x86_64__)
    if (tks_method_available(TKS_METHOD_LFENCE, f)) {
        uint64_t floor = UINT64_MAX, d;
        uint32_t e, s;
        double t = mono_raw(), per;
        for (e = 0; e < ENSEMBLES; e++)
            for (s = 0; s < SAMPLES; s++)
                if ((d = bare_lfence_sample()) < floor)
                    floor = d;
        per = (mono_raw() - t) / ((double)ENSEMBLES * SAMPLES);
        printf("\nBare LFENCE;RDTSC;LFENCE .. RDTSCP;LFENCE (one asm statement), %u x %u:\n",
               ENSEMBLES, SAMPLES);
        printf("  floor (smallest empty window)   %llu ticks; %.1f ns, %.1f ticks per sample (wall)\n",
               (unsigned long long)floor, per * 1e9, per * hz);
        if (fg[TKS_METHOD_LFENCE].ok) {
            long long diff = (long long)fg[TKS_METHOD_LFENCE].overhead - (long long)floor;
            printf("  lfence method overhead          %llu ticks: %+lld vs the floor (target: 0) %s\n",
                   (unsigned long long)fg[TKS_METHOD_LFENCE].overhead, diff,
                   diff == 0 ? "MET" : "NOT MET");
            printf("  variance of lfence's minimums   %.3f ticks^2 over %u ensembles (target: 0) %s\n",
                   fg[TKS_METHOD_LFENCE].variance_of_minimums, fg[TKS_METHOD_LFENCE].ensembles,
                   fg[TKS_METHOD_LFENCE].variance_of_minimums == 0 ? "MET" : "NOT MET");
        }
    } else {
        printf("\nBare LFENCE loop: skipped (lfence is not available on this CPU).\n");
    }
#else
    printf("\nBare LFENCE loop: x86-64 only.\n");
#endif
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_methods\nWhat each clock-reading method costs here, and how close lfence comes to a bare fenced pair.\n");
    return status >= 0 ? status : bench_main();
}
