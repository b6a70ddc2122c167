/* SPDX-License-Identifier: MIT */
/* test_runner_explain_classify.c: a benchmark's --explain class from its additions
 * (tks__explain_bench_classify) on synthetic rows: every addition competing with the NOPs is the
 * front end; NOPs competing while some work is absorbed is not (the additions other than the
 * NOPs decide: ports, naming their kinds, or undetermined), the NOPs' row left as it was; every
 * addition absorbed is latency. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "runner/explain_run.h"

static const char *const names[] = {"+8 x alu: add r64, r64", "+8 x mul: imul r64, r64, imm",
                                    "+8 x fmul: mulpd xmm", "+8 x fadd: addpd xmm",
                                    "+8 x load: mov r64, [m]", "+16 x 8-byte NOP (128 bytes)"};

/* A base of 10 cycles and the six additions (five kinds of work, then the NOPs), each costing
 * 2 alone and ratio[i] of that after the block, within +-0.1. */
static void rows(tks_explain_result *r, const double *ratio)
{
    memset(r, 0, sizeof *r);
    r->exp[0].kind = TKS_EXPLAIN_BASE;
    r->exp[0].cycles = (tks_asm_interval){10, 9.9, 10.1};
    for (int i = 0; i < 6; i++) {
        tks_explain_experiment *e = &r->exp[i + 1];
        double d = 2 * ratio[i];
        e->kind = i == 5 ? TKS_EXPLAIN_NOPS : TKS_EXPLAIN_WORK;
        snprintf(e->name, sizeof e->name, "%s", names[i]);
        e->alone = 2;
        e->ratio = ratio[i];
        e->delta = (tks_asm_interval){d, d - 0.1, d + 0.1};
        e->cycles = (tks_asm_interval){10 + d, 9.9 + d, 10.1 + d};
    }
    r->n = 7;
}

/* The class of those rows. */
static enum tks_explain_class classified(tks_explain_result *r, const double *ratio)
{
    rows(r, ratio);
    tks__explain_bench_classify(r);
    return r->cls;
}

int main(void)
{
    /* a NOP-bound body (ex_nops on the Zen 5 guest): everything competes */
    static const double nops[] = {0.61, 0.88, 1.54, 1.21, 1.08, 1.15};
    /* sixteen independent imul with another thread on the core (a CI run's third attempt) */
    static const double shared[] = {0.85, 1.16, 0.16, 0.15, 0.18, 0.77};
    /* the same on a core of its own */
    static const double own[] = {0.64, 0.97, 0.06, 0.11, 0.13, 0.11};
    /* only the NOPs compete, the work is absorbed */
    static const double only_nops[] = {0.1, 0.05, 0.12, 0.08, 0.1, 0.9};
    /* a chain: every addition absorbed; and the NOPs' ratio at the edge */
    static const double chain[] = {0.1, 0.2, 0.05, 0.0, 0.1, 0.3};
    static const double edge[] = {0.6, 0.9, 0.26, 0.3, 0.5, 0.9};
    tks_explain_result r;

    CHECK(classified(&r, nops) == TKS_EXPLAIN_FRONTEND);

    CHECK(classified(&r, shared) == TKS_EXPLAIN_PORTS);
    CHECK_STR(r.port_kinds, "alu, mul");
    CHECK(r.exp[6].rc == 0); /* the NOPs' row as it was */

    CHECK(classified(&r, own) == TKS_EXPLAIN_PORTS);
    CHECK_STR(r.port_kinds, "alu, mul");

    CHECK(classified(&r, only_nops) == TKS_EXPLAIN_UNDETERMINED);
    CHECK(r.exp[6].rc == 0);

    CHECK(classified(&r, chain) == TKS_EXPLAIN_LATENCY);

    /* no work under 0.25: the NOPs' competing stands */
    CHECK(classified(&r, edge) == TKS_EXPLAIN_FRONTEND);
    /* a failed work run is not absorbed work */
    rows(&r, shared);
    for (int i = 3; i <= 5; i++) {
        r.exp[i].rc = TKS_EUNAVAIL;
        r.exp[i].ratio = NAN;
    }
    tks__explain_bench_classify(&r);
    CHECK(r.cls == TKS_EXPLAIN_FRONTEND);
    CHECK_DONE();
}
