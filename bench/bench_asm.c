/* SPDX-License-Identifier: MIT */
/* bench_asm.c: `tickscope asm` against published instruction figures for the CPU at hand
 * (add, imul, an L1 pointer chase, a SIMD floating-point add; latency within 5% and throughput
 * within 10% in core cycles is the target), whether one add stands apart from zero and from two,
 * and how long one snippet takes at the defaults (target: under a second). With the tickscope
 * binary as argv[1] (as `make bench` runs it), that time is the command's, start to end.
 * Each figure is taken up to three times, the closest to its target kept (a neighbour's burst
 * should not fail it, three misses in a row are no burst). Exit 1 when a target is missed on a CPU
 * known_cpu.h knows; on any other CPU the published columns are left out, a line says so, and only
 * the targets that need no published figure (one add resolved, the time) decide. */
#include <math.h>
#include <string.h>

#include "child.h"
#include "known_cpu.h"
#include "tickscope.h"

/* A published figure, by CPU: latency and reciprocal throughput in core cycles. */
struct published {
    const char *what, *code, *init;
    enum tks_asm_mode mode;
    uint64_t chase;
    double zen4, zen5, golden_cove; /* 0: none we know of */
};

/* Sources. Zen 4: uops.info (ZEN4 column) and Agner Fog, Instruction tables (2022), AMD Zen 4;
 * AMD, Software Optimization Guide for AMD Family 19h Processors (56665): four integer ALUs,
 * a 4-cycle integer load-to-use latency from the L1, a 3-cycle integer multiply.
 * Zen 5: AMD, Software Optimization Guide for the Zen5 Microarchitecture (58455, 2024): six
 * integer ALUs and a 4-cycle load-to-use latency; AMD's scheduling model in GCC
 * (gcc/config/i386/znver4.md, znver5 rows): imul latency 3; A. J. Yee, "Zen5's AVX512
 * Teardown" (numberworld.org, 2024): FP add latency 2, two FP adders. Golden Cove: uops.info
 * (ADL-P column; five integer ALU ports) and Intel's Optimization Reference Manual (L1 load-to-use
 * 5 cycles, FP add latency 2 on the fast adders of ports 1 and 5). */
static const struct published rows[] = {
    {"add r64 latency", "add {r}, 1", NULL, TKS_ASM_LATENCY, 0, 1, 1, 1},
    {"add r64 throughput", "add {r}, 1", NULL, TKS_ASM_THROUGHPUT, 0, 0.25, 1.0 / 6, 0.2},
    /* An ALU operation that reads no register: whether the ALUs, not the register reads, are
     * what limits add's throughput. */
    {"mov r64, imm thr.", "mov {r}, 1", NULL, TKS_ASM_THROUGHPUT, 0, 0.25, 0, 0.2},
    {"imul r64 latency", "imul {r}, {r}", NULL, TKS_ASM_LATENCY, 0, 3, 3, 3},
    {"imul r64 throughput", "imul {r}, {r}", NULL, TKS_ASM_THROUGHPUT, 0, 1, 0, 1},
    {"L1 pointer chase", "mov r14, [r14]", NULL, TKS_ASM_LATENCY, 16384, 4, 4, 5},
    {"vaddps ymm latency", "vaddps {y}, {y}, {y}", "vzeroall", TKS_ASM_LATENCY, 0, 3, 2, 2},
    {"vaddps ymm throughput", "vaddps {y}, {y}, {y}", "vzeroall", TKS_ASM_THROUGHPUT, 0, 0.5,
     0.5, 0.5},
};

static int measure(const char *code, const char *init, enum tks_asm_mode mode, uint64_t chase,
                   uint64_t quantum, tks_asm_result *r)
{
    tks_asm_options o;
    int rc;
    tks_asm_options_init(&o);
    o.code = code;
    o.init = init;
    o.mode = mode;
    o.chase_bytes = chase;
    o.quantum = quantum;
    if ((rc = tks_asm_run(&o, r)) != 0)
        fprintf(stderr, "bench_asm: %s: %s\n", code, r->error);
    return rc;
}

static int bench_main(int argc, char **argv)
{
    tks_cpu_identity id;
    tks_timer_quantum q;
    tks_asm_result *r = malloc(sizeof *r), *r2 = malloc(sizeof *r2);
    const char *cpu_name;
    enum cpu cpu;
    double t0, secs = 0;
    int failures = 0, missed = 0;

    if (!r || !r2 || tks_cpu_identity_probe(&id) != 0 || tks_timer_quantum_measure(&q) != 0) {
        fprintf(stderr, "bench_asm: cannot examine this machine\n");
        return 1;
    }
    cpu = which_cpu(&id, &cpu_name);
    printf("CPU: %s (%s family 0x%x model 0x%x), %s; timer quantum %llu ticks\n", id.brand,
           id.vendor, id.family, id.model, cpu_name, (unsigned long long)q.quantum);
    printf("Core cycles per copy from tickscope asm at its defaults, beside the published figure.\n\n");
    printf("%-22s %9s  %-19s %9s  %7s  %s\n", "snippet", "ours", "95% interval", "published",
           "ours/pub", "target");
    if (cpu == CPU_OTHER)
        printf("No published figures for %s (family 0x%x model 0x%x): its figures are printed, "
               "not judged.\n", id.brand, id.family, id.model);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct published *p = &rows[i];
        double pub = cpu == CPU_ZEN4 ? p->zen4 : cpu == CPU_ZEN5 ? p->zen5
                   : cpu == CPU_GOLDEN_COVE ? p->golden_cove : 0;
        double tol = p->mode == TKS_ASM_LATENCY ? 0.05 : 0.10, best = NAN, lo = NAN, hi = NAN;
        int tries = 0;
        char iv[40];
        /* Up to three runs where there is a target; the one closest to it kept. */
        for (int t = 0; t < (pub > 0 ? 3 : 1); t++) {
            if (measure(p->code, p->init, p->mode, p->chase, q.quantum, r) != 0)
                continue;
            tries++;
            if (!isfinite(best) || fabs(r->core_cycles.value / pub - 1) < fabs(best / pub - 1)) {
                best = r->core_cycles.value;
                lo = r->core_cycles.lo;
                hi = r->core_cycles.hi;
            }
            if (pub > 0 && fabs(best / pub - 1) <= tol)
                break;
        }
        if (!tries) {
            failures++;
            continue;
        }
        snprintf(iv, sizeof iv, "[%.3f, %.3f]", lo, hi);
        if (pub > 0) {
            int met = fabs(best / pub - 1) <= tol;
            printf("%-22s %9.3f  %-19s %9.3f  %7.3f  %s (within %.0f%%, best of %d)\n", p->what,
                   best, iv, pub, best / pub, met ? "met" : "MISSED", 100 * tol, tries);
            missed += !met;
        } else {
            printf("%-22s %9.3f  %-19s %9s  %7s  no published figure for this CPU\n", p->what,
                   best, iv, "-", "-");
        }
    }
    printf("\nSources: Zen 4: uops.info, Agner Fog's instruction tables (2022) and AMD's Software\n"
           "Optimization Guide for family 19h (56665: four ALUs, 4-cycle L1). Zen 5: AMD's\n"
           "Software Optimization Guide for Zen5 (58455: six ALUs, 4-cycle L1), AMD's GCC model\n"
           "(znver5 imul latency 3), A. J. Yee's Zen5 teardown (FP add latency 2). Golden Cove:\n"
           "uops.info (ADL-P) and Intel's Optimization Reference Manual.\n");

    /* One add resolved: its latency apart from zero and from two adds (a target on any CPU: one
     * add is one cycle everywhere). Up to three tries. */
    {
        int apart = 0, tries = 0;
        for (int t = 0; t < 3 && !apart; t++) {
            if (measure("add {r}, 1", NULL, TKS_ASM_LATENCY, 0, q.quantum, r) != 0 ||
                measure("add {r}, 1; add {r}, 1", NULL, TKS_ASM_LATENCY, 0, q.quantum, r2) != 0)
                continue;
            tries++;
            apart = r->ticks_per_copy.lo > 0 && r->ticks_per_copy.hi < r2->ticks_per_copy.lo;
        }
        if (!tries)
            failures++;
        else
            printf("\nOne add: %.4f ticks [%.4f, %.4f]; two adds: %.4f [%.4f, %.4f]: one add is %s "
                   "from zero and %s from two (best of %d).\n",
                   r->ticks_per_copy.value, r->ticks_per_copy.lo, r->ticks_per_copy.hi,
                   r2->ticks_per_copy.value, r2->ticks_per_copy.lo, r2->ticks_per_copy.hi,
                   r->ticks_per_copy.lo > 0 ? "distinguishable" : "NOT distinguishable",
                   r->ticks_per_copy.hi < r2->ticks_per_copy.lo ? "distinguishable"
                                                                : "NOT distinguishable", tries);
        missed += tries && !apart;
    }

    /* One snippet at the defaults: the command when we were given it, else the library call.
     * The fastest of up to three. */
    if (argc > 1 && access(argv[1], X_OK) == 0) {
        char *args[] = {argv[1], "asm", "--quiet", "add {r}, 1", NULL};
        int st = 0, tries = 0;
        double best = INFINITY;
        while (tries < 3 && best >= 1) {
            tries++;
            if ((st = bench_run_child(args, &secs)) != 0)
                break;
            best = fmin(best, secs);
        }
        printf("One snippet at the defaults: `tickscope asm 'add {r}, 1'` took %.3f s start to end "
               "(target: under 1 s: %s, best of %d)%s.\n", st == 0 ? best : secs,
               st == 0 && best < 1 ? "met" : "MISSED", tries, st == 0 ? "" : " and FAILED");
        failures += st != 0;
        missed += st == 0 && best >= 1;
    } else {
        double best = INFINITY;
        for (int t = 0; t < 3 && best >= 1; t++) {
            t0 = bench_now();
            failures += measure("add {r}, 1", NULL, TKS_ASM_LATENCY, 0, q.quantum, r) != 0;
            best = fmin(best, bench_now() - t0);
        }
        printf("One snippet at the defaults: tks_asm_run took %.3f s (target: under 1 s: %s).\n", best,
               best < 1 ? "met" : "MISSED");
        missed += best >= 1;
    }
    if (missed)
        printf("bench_asm: %d target(s) MISSED (exit 1)\n", missed);
    tks_asm_result_free(r);
    tks_asm_result_free(r2);
    free(r);
    free(r2);
    return failures || missed ? 1 : 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_asm [path/to/tickscope]\ntickscope asm against the published latencies and throughputs of this CPU; with the tickscope binary, the time of one snippet.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
