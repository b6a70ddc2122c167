/* SPDX-License-Identifier: MIT */
/* bench_asm.c: `tickscope asm` against published instruction figures for the CPU at hand
 * (add, imul, an L1 pointer chase, a SIMD floating-point add; latency within 5% and throughput
 * within 10% in core cycles is the target), whether one add stands apart from zero and from two,
 * and how long one snippet takes at the defaults (target: under a second). With the tickscope
 * binary as argv[1] (as `make bench` runs it), that time is the command's, start to end. */
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

/* Sources. Zen 4: uops.info (ZEN4 column) and Agner Fog, Instruction tables (2022), AMD Zen 4.
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
    int failures = 0;

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
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct published *p = &rows[i];
        double pub = cpu == CPU_ZEN4 ? p->zen4 : cpu == CPU_ZEN5 ? p->zen5
                   : cpu == CPU_GOLDEN_COVE ? p->golden_cove : 0;
        double tol = p->mode == TKS_ASM_LATENCY ? 0.05 : 0.10;
        char iv[40];
        if (measure(p->code, p->init, p->mode, p->chase, q.quantum, r) != 0) {
            failures++;
            continue;
        }
        snprintf(iv, sizeof iv, "[%.3f, %.3f]", r->core_cycles.lo, r->core_cycles.hi);
        if (pub > 0)
            printf("%-22s %9.3f  %-19s %9.3f  %7.3f  %s (within %.0f%%)\n", p->what,
                   r->core_cycles.value, iv, pub, r->core_cycles.value / pub,
                   fabs(r->core_cycles.value / pub - 1) <= tol ? "met" : "MISSED", 100 * tol);
        else
            printf("%-22s %9.3f  %-19s %9s  %7s  no published figure for this CPU\n", p->what,
                   r->core_cycles.value, iv, "-", "-");
    }
    printf("\nSources: Zen 4: uops.info and Agner Fog's instruction tables (2022). Zen 5: AMD's\n"
           "Software Optimization Guide for Zen5 (58455: six ALUs, 4-cycle L1), AMD's GCC model\n"
           "(znver5 imul latency 3), A. J. Yee's Zen5 teardown (FP add latency 2). Golden Cove:\n"
           "uops.info (ADL-P) and Intel's Optimization Reference Manual.\n");

    /* One add resolved: its latency apart from zero and from two adds. */
    if (measure("add {r}, 1", NULL, TKS_ASM_LATENCY, 0, q.quantum, r) == 0 &&
        measure("add {r}, 1; add {r}, 1", NULL, TKS_ASM_LATENCY, 0, q.quantum, r2) == 0)
        printf("\nOne add: %.4f ticks [%.4f, %.4f]; two adds: %.4f [%.4f, %.4f]: one add is %s "
               "from zero and %s from two.\n",
               r->ticks_per_copy.value, r->ticks_per_copy.lo, r->ticks_per_copy.hi,
               r2->ticks_per_copy.value, r2->ticks_per_copy.lo, r2->ticks_per_copy.hi,
               r->ticks_per_copy.lo > 0 ? "distinguishable" : "NOT distinguishable",
               r->ticks_per_copy.hi < r2->ticks_per_copy.lo ? "distinguishable"
                                                            : "NOT distinguishable");
    else
        failures++;

    /* One snippet at the defaults: the command when we were given it, else the library call. */
    if (argc > 1 && access(argv[1], X_OK) == 0) {
        char *args[] = {argv[1], "asm", "--quiet", "add {r}, 1", NULL};
        int st = bench_run_child(args, &secs);
        printf("One snippet at the defaults: `tickscope asm 'add {r}, 1'` took %.3f s start to end "
               "(target: under 1 s)%s.\n", secs, st == 0 ? "" : " and FAILED");
        failures += st != 0;
    } else {
        t0 = bench_now();
        failures += measure("add {r}, 1", NULL, TKS_ASM_LATENCY, 0, q.quantum, r) != 0;
        secs = bench_now() - t0;
        printf("One snippet at the defaults: tks_asm_run took %.3f s (target: under 1 s).\n", secs);
    }
    tks_asm_result_free(r);
    tks_asm_result_free(r2);
    free(r);
    free(r2);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_asm [path/to/tickscope]\ntickscope asm against the published latencies and throughputs of this CPU; with the tickscope binary, the time of one snippet.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
