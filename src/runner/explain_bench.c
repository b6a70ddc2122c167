/* SPDX-License-Identifier: MIT */
/* explain_bench.c: a benchmark program's --explain: what limits a benchmark's block. The block
 * is measured in throughput mode as given (the base), then with each kind of work of
 * tickscope/bench_perturb.h after every repetition (integer adds, imul, mulpd, addpd, L1 loads,
 * 64 bytes of NOPs), sized to about half the base's cost alone; and the same work after an
 * empty block, less the empty block's own loop: its cost alone. The block as given is measured
 * again after each experiment, and each delta is against the runs just before and after it
 * (their drift is uncertainty, as is the drift of all of them in the base's interval). Work
 * that costs what it costs alone competes for the block's bottleneck (its ports, or the front
 * end for the NOPs); work that costs nothing is absorbed in the bottleneck's slack.
 * tks_explain_classify (src/asm/explain.c) reads the ratios as it does a snippet's. The runner
 * cannot lengthen a chain inside the user's block, so when every addition was absorbed the
 * finding is latency, by elimination (TKS_EXPLAIN_LATENCY), never "chain"; or memory, where the
 * block's working set is beyond the core's caches and a repetition costs a load from there
 * (explain_memory.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "asm/explain_exp.h"
#include "base/now.h"
#include "runner/explain_run.h"
#include "runner/runner.h"
#include "tickscope/asm_explain.h"

#define PILOT_UNITS 4u   /* the work's cost a unit, measured once a process at this many */
#define MAX_UNITS 24u     /* 216 instructions: within a reorder buffer, where latency hides them */
#define ATTEMPTS 3       /* a run wider than 10% is taken again, twice at most */

static const struct probe {
    int kind;
    const char *name;    /* "class: form", the class read by tks_explain_classify */
    const char *added;
} probes[] = {
    {TKS__PERTURB_ADD, "alu: add r64, r64", "add r64, r64 on 8 registers"},
    {TKS__PERTURB_IMUL, "mul: imul r64, r64, imm", "imul r64, r64, 3 (independent)"},
    {TKS__PERTURB_MULPD, "fmul: mulpd xmm", "mulpd xmm, xmm on 8 registers"},
    {TKS__PERTURB_ADDPD, "fadd: addpd xmm", "addpd xmm, xmm on 8 registers"},
    {TKS__PERTURB_LOAD, "load: mov r64, [m]", "mov r64, [m] from one L1 line"},
    {TKS__PERTURB_NOPS, "8-byte NOP", "nop DWORD PTR [rax+rax*1+0x12345678]"},
};
#define N_PROBES (sizeof probes / sizeof probes[0])

/* What the work costs a unit, and the empty block's loop a repetition: once a process (0: not
 * yet measured). */
static double g_unit[TKS__PERTURB_KINDS];
static double g_empty;

int tks__explain_measure(const tks_options *o, const tks_platform *p,
                         const tks_benchmark_spec *spec, const tks_args *args, int kind,
                         uint32_t units, tks_asm_interval *out, int *shared, char *error,
                         size_t errlen)
{
    tks_result res;
    int rc = 0;
    *out = (tks_asm_interval){NAN, NAN, NAN};
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        rc = tks__run_benchmark_perturbed(o, p, spec, args, kind, units, NULL, &res);
        if (rc == 0 && !isfinite(res.core_cycles.value)) {
            rc = TKS_EUNAVAIL;
            snprintf(res.error, sizeof res.error, "no core-cycle figure could be measured");
        }
        if (rc) {
            snprintf(error, errlen, "%s", res.error);
            tks_result_free(&res);
            *out = (tks_asm_interval){NAN, NAN, NAN};
            return rc;
        }
        if (shared && tks_diags_has(&res.diags, TKS_DIAG_CORE_ADD_CHAIN_SLOW))
            *shared = 1;
        if (!isfinite(out->value) ||
            res.core_cycles.hi - res.core_cycles.lo < out->hi - out->lo)
            *out = (tks_asm_interval){res.core_cycles.value, res.core_cycles.lo,
                                      res.core_cycles.hi};
        tks_result_free(&res);
        if (out->hi - out->lo <= 0.1 * fabs(out->value))
            break;
    }
    return 0;
}

/* The work's cost alone, cycles a repetition: its run after an empty block less the empty
 * block's (NaN when a run failed). */
static double alone(const tks_options *o, const tks_platform *p, int kind, uint32_t units)
{
    tks_asm_interval v;
    char why[200];
    if (!(g_empty > 0)) {
        if (tks__explain_measure(o, p, &tks__explain_alone_spec, NULL, 0, 1, &v, NULL, why,
                                 sizeof why) != 0)
            return NAN;
        g_empty = fmax(v.value, 1e-3);
    }
    if (tks__explain_measure(o, p, &tks__explain_alone_spec, NULL, kind, units, &v, NULL, why,
                             sizeof why) != 0)
        return NAN;
    return fmax(v.value - g_empty, 0.05 * v.value);
}

/* [lo, hi] of both, the mean of their values: a base measured before and after an experiment,
 * the drift between the two taken as uncertainty. */
static tks_asm_interval both(tks_asm_interval a, tks_asm_interval b)
{
    return (tks_asm_interval){0.5 * (a.value + b.value), fmin(a.lo, b.lo), fmax(a.hi, b.hi)};
}

/* One kind of work: sized, measured alone and after the block, then the block as given again
 * (*base: the run before on entry, the one after on return); the delta is against both. */
static void probe(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *spec,
                  const tks_args *args, const struct probe *pr, tks_asm_interval *base,
                  tks_explain_result *r)
{
    tks_asm_interval after, around;
    tks_explain_experiment *e;
    char name[64], added[160];
    double unit;
    uint32_t units;
    if (!(g_unit[pr->kind] > 0)) {
        double a = alone(o, p, pr->kind, PILOT_UNITS);
        if (!isfinite(a))
            return;
        g_unit[pr->kind] = fmax(a / PILOT_UNITS, 0.05);
    }
    unit = g_unit[pr->kind];
    units = (uint32_t)fmin(fmax(round(0.5 * base->value / unit), 1), MAX_UNITS);
    if (pr->kind == TKS__PERTURB_NOPS)
        snprintf(name, sizeof name, "+%u x 8-byte NOP (%u bytes)", 8 * units, 64 * units);
    else
        snprintf(name, sizeof name, "+%u x %s", 8 * units, pr->name);
    snprintf(added, sizeof added, "%u x %s, after each repetition", 8 * units, pr->added);
    if (!(e = tks__explain_add(r, pr->kind == TKS__PERTURB_NOPS ? TKS_EXPLAIN_NOPS
                                                                : TKS_EXPLAIN_WORK,
                               name, added)))
        return;
    e->alone = alone(o, p, pr->kind, units);
    e->rc = tks__explain_measure(o, p, spec, args, pr->kind, units, &e->cycles, &e->core_shared,
                                 e->error, sizeof e->error);
    if (tks__explain_measure(o, p, spec, args, 0, 0, &after, &r->exp[0].core_shared, r->error,
                             sizeof r->error) != 0)
        after = *base;
    around = both(*base, after);
    *base = after;
    if (e->rc)
        return;
    e->delta.value = e->cycles.value - around.value;
    e->delta.lo = e->cycles.lo - around.hi;
    e->delta.hi = e->cycles.hi - around.lo;
    if (isfinite(e->alone) && e->alone > 0)
        e->ratio = e->delta.value / e->alone;
}

/* Every addition ran and none cost even half of its cost alone. */
static int all_absorbed(const tks_explain_result *r)
{
    int nops = 0;
    if (r->n < 3)
        return 0;
    for (size_t i = 1; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        if (e->rc || !isfinite(e->ratio) || e->ratio >= 0.5)
            return 0;
        nops |= e->kind == TKS_EXPLAIN_NOPS;
    }
    return nops;
}

/* Work of some kind ran in the block's slack (ratio under ABSORBED). */
#define ABSORBED 0.25
static int some_work_absorbed(const tks_explain_result *r)
{
    for (size_t i = 1; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        if (e->kind == TKS_EXPLAIN_WORK && !e->rc && isfinite(e->ratio) && e->ratio < ABSORBED)
            return 1;
    }
    return 0;
}

void tks__explain_bench_classify(tks_explain_result *r)
{
    tks__explain_classify_with(r, !some_work_absorbed(r));
    if (r->cls == TKS_EXPLAIN_UNDETERMINED && all_absorbed(r))
        r->cls = TKS_EXPLAIN_LATENCY;
}

int tks__explain_benchmark(const tks_options *o, const tks_platform *p,
                           const tks_benchmark_spec *spec, const tks_args *args,
                           const uint64_t *levels, size_t nl, tks_explain_result *r)
{
    tks_options t = *o;
    tks_explain_experiment *base;
    tks_asm_interval last;
    double t0 = tks__now_s();
    int rc;
    memset(r, 0, sizeof *r);
    r->chains = -1; /* the block's registers are the compiler's: not analysed */
    if (!TKS__HAS_PERTURB) {
        snprintf(r->error, sizeof r->error, "--explain adds x86-64 instructions after the block: "
                 "it is available on x86-64 only");
        return TKS_EUNAVAIL;
    }
    t.mode = TKS_MODE_THROUGHPUT;
    t.dry_run = 0;
    t.counters = NULL;
    base = tks__explain_add(r, TKS_EXPLAIN_BASE, "the benchmark as given", "");
    rc = tks__explain_measure(&t, p, spec, args, 0, 0, &base->cycles, &base->core_shared,
                              base->error, sizeof base->error);
    if (rc) {
        base->rc = rc;
        snprintf(r->error, sizeof r->error, "%s", base->error);
        return rc;
    }
    last = base->cycles;
    for (size_t i = 0; i < N_PROBES; i++) {
        double sum = base->cycles.value * (double)(i + 1);
        probe(&t, p, spec, args, &probes[i], &last, r);
        /* the base: the mean of every run of the block as given, their drift its interval */
        base = &r->exp[0];
        base->cycles = (tks_asm_interval){(sum + last.value) / (double)(i + 2),
                                          fmin(base->cycles.lo, last.lo),
                                          fmax(base->cycles.hi, last.hi)};
    }
    r->error[0] = 0; /* a failed base run between experiments is not the result's error */
    tks__explain_bench_classify(r);
    /* last: its touch run clears the pages' bits */
    tks__explain_memory(&t, p, spec, args, levels, nl, r);
    r->seconds = tks__now_s() - t0;
    return 0;
}
