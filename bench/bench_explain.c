/* SPDX-License-Identifier: MIT */
/* bench_explain.c: `tickscope asm --explain` (tks_explain_run) on four loops whose bottleneck is
 * known by construction, each run N times (default 10): how many times the class was right
 * (target: 9 of 10 each), the wall time of one explanation, and one run's evidence per loop.
 *   chain:     imul rax, rax (latency mode): one dependent multiply chain;
 *   ports:     eight independent vmulpd ymm (destinations never read): the FP multipliers, and
 *              the class must name the fmul kind;
 *   memory:    a pointer chase over 64 MiB;
 *   front end: add rax, 1 padded with 24 eight-byte NOPs (200 bytes a copy). */
#include <math.h>
#include <string.h>

#include "child.h"
#include "tickscope.h"
#include "tickscope/asm_explain.h"

#define NOP8 "\nnop DWORD PTR [rax+rax*1+0x12345678]"

struct loop {
    const char *name, *code;
    uint64_t chase;
    enum tks_explain_class want;
    const char *kind; /* ports: the kind the class must name */
};

static const struct loop loops[] = {
    {"chain", "imul rax, rax", 0, TKS_EXPLAIN_CHAIN, NULL},
    {"ports", "vmulpd ymm0, ymm8, ymm9\nvmulpd ymm1, ymm8, ymm9\nvmulpd ymm2, ymm8, ymm9\n"
              "vmulpd ymm3, ymm8, ymm9\nvmulpd ymm4, ymm8, ymm9\nvmulpd ymm5, ymm8, ymm9\n"
              "vmulpd ymm6, ymm8, ymm9\nvmulpd ymm7, ymm8, ymm9", 0, TKS_EXPLAIN_PORTS, "fmul"},
    {"memory", "mov r14, [r14]", (uint64_t)64 << 20, TKS_EXPLAIN_MEMORY, NULL},
    {"front end", "add rax, 1" NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8
                  NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8 NOP8, 0,
     TKS_EXPLAIN_FRONTEND, NULL},
};

static const char *const class_names[] = {"undetermined", "chain", "ports", "memory",
                                          "front end", "latency"};

static void print_evidence(const tks_explain_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        if (e->rc)
            printf("    %-40.40s error: %s\n", e->name, e->error);
        else
            printf("    %-40.40s %9.3f [%9.3f, %9.3f]  delta %+8.3f  alone %7.3f  ratio %5.2f\n",
                   e->name, e->cycles.value, e->cycles.lo, e->cycles.hi, e->delta.value,
                   e->alone, e->ratio);
    }
}

static int bench_main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 10, failures = 0;
    uint64_t levels[TKS_SYS_LEVEL_MAX];
    size_t nl = tks_sys_level_bytes(NULL, levels, TKS_SYS_LEVEL_MAX);
    tks_explain_result *r = malloc(sizeof *r);
    tks_timer_quantum q;
    if (!r || tks_timer_quantum_measure(&q) != 0) {
        fprintf(stderr, "bench_explain: cannot examine this machine\n");
        return 1;
    }
    if (runs < 1)
        runs = 10;
    printf("tickscope asm --explain on loops of known bottleneck, %d runs each (budget 0.1 s a "
           "snippet); %zu cache level(s) from /sys.\n\n", runs, nl);
    for (size_t l = 0; l < sizeof loops / sizeof loops[0]; l++) {
        int right = 0, counts[6] = {0};
        double secs = 0;
        for (int k = 0; k < runs; k++) {
            tks_asm_options o;
            double t0 = bench_now();
            int rc;
            tks_asm_options_init(&o);
            o.code = loops[l].code;
            o.chase_bytes = loops[l].chase;
            o.budget = 0.1;
            o.quantum = q.quantum;
            rc = tks_explain_run(&o, levels, nl, r);
            secs += bench_now() - t0;
            if (rc) {
                fprintf(stderr, "bench_explain: %s: %s\n", loops[l].name, r->error);
                failures++;
                continue;
            }
            counts[r->cls]++;
            right += r->cls == loops[l].want &&
                     (!loops[l].kind || strstr(r->port_kinds, loops[l].kind));
            if (k == 0) {
                printf("%s, first run: %s%s%s\n", loops[l].name, class_names[r->cls],
                       r->cls == TKS_EXPLAIN_PORTS ? ": " : "", r->port_kinds);
                print_evidence(r);
            }
        }
        printf("  %-10s right %2d of %d (target 9 of 10); classes: chain %d, ports %d, memory "
               "%d, front end %d, undetermined %d; %.1f s an explanation\n\n", loops[l].name,
               right, runs, counts[1], counts[2], counts[3], counts[4], counts[0], secs / runs);
    }
    free(r);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_explain [RUNS]\ntickscope asm --explain on four loops of known bottleneck (a chain, the FP multipliers, a 64 MiB chase, NOP-padded code), RUNS times each (10): how often the class is right.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
