/* SPDX-License-Identifier: MIT */
/* test_runner_explain_memory.c: a benchmark's --explain calls memory (tks__explain_memory_verdict)
 * on synthetic rows: when no addition competed (undetermined or latency), a load over the block's
 * working set costs at least ten times one inside L1 and a repetition at least a quarter of such
 * a load, and the knee is the steepest step between two rings; beyond every declared cache level
 * also when additions competed (ports, front end); not when a bottleneck was found in a cache,
 * the load stays near L1's, the block is far cheaper than the load, a load's run failed, or
 * there is only the working set's own row. */
#include <math.h>

#include "check.h"
#include "runner/explain_run.h"

/* A base of base cycles, then the working set's row and loads of 4 inside 8 KiB and of far
 * cycles over the working set (far <= 0: no loads), ascending as explain_memory.c gives them. */
static void rows(tks_explain_result *r, enum tks_explain_class cls, double base, double far)
{
    memset(r, 0, sizeof *r);
    r->cls = cls;
    r->exp[0].kind = TKS_EXPLAIN_BASE;
    r->exp[0].cycles = (tks_asm_interval){base, 0.9 * base, 1.1 * base};
    r->exp[1].kind = TKS_EXPLAIN_TOUCHED;
    r->exp[1].working_set = (uint64_t)64 << 20;
    r->exp[1].cycles = (tks_asm_interval){NAN, NAN, NAN};
    r->n = 2;
    if (far <= 0)
        return;
    r->exp[2].kind = r->exp[3].kind = TKS_EXPLAIN_TOUCHED;
    r->exp[2].working_set = 8192;
    r->exp[2].cycles = (tks_asm_interval){4, 3.9, 4.1};
    r->exp[3].working_set = (uint64_t)64 << 20;
    r->exp[3].cycles = (tks_asm_interval){far, 0.9 * far, 1.1 * far};
    r->n = 4;
}

/* The loads over rings between 8 KiB and the working set, of cost[0..n) cycles, inserted before
 * the working set's load. */
static void ladder(tks_explain_result *r, const uint64_t *ring, const double *cost, size_t n)
{
    tks_explain_experiment far = r->exp[3];
    for (size_t i = 0; i < n; i++) {
        tks_explain_experiment *e = &r->exp[3 + i];
        e->kind = TKS_EXPLAIN_TOUCHED;
        e->working_set = ring[i];
        e->cycles = (tks_asm_interval){cost[i], 0.9 * cost[i], 1.1 * cost[i]};
    }
    r->exp[3 + n] = far;
    r->n = 4 + n;
}

int main(void)
{
    tks_explain_result r;
    /* a chase: about a load a repetition, from memory */
    rows(&r, TKS_EXPLAIN_UNDETERMINED, 950, 900);
    CHECK(tks__explain_memory_verdict(&r, 0) == 1 && r.cls == TKS_EXPLAIN_MEMORY);
    CHECK(r.knee_lo == 8192 && r.knee_hi == (uint64_t)64 << 20);
    /* the knee: the steepest step between two rings, wherever it is */
    {
        static const uint64_t ring[] = {32 << 10, 512 << 10, 2 << 20, 32 << 20};
        static const double caches[] = {4.2, 14, 50, 60}, early[] = {40, 44, 50, 60};
        rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
        ladder(&r, ring, caches, 4);
        CHECK(tks__explain_memory_verdict(&r, 0) == 1);
        CHECK(r.knee_lo == (uint64_t)32 << 20 && r.knee_hi == (uint64_t)64 << 20);
        rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
        ladder(&r, ring, early, 4);
        CHECK(tks__explain_memory_verdict(&r, 0) == 1);
        CHECK(r.knee_lo == (uint64_t)32 << 20); /* 15x over the last step beats 10x first */
        rows(&r, TKS_EXPLAIN_LATENCY, 950, 90);
        ladder(&r, ring, early, 4);
        CHECK(tks__explain_memory_verdict(&r, 0) == 1);
        CHECK(r.knee_lo == 8192 && r.knee_hi == 32 << 10);
        /* a failed ring is skipped: the step spans it */
        rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
        ladder(&r, ring, caches, 4);
        r.exp[6].rc = TKS_ENOMEM;
        CHECK(tks__explain_memory_verdict(&r, 0) == 1);
        CHECK(r.knee_lo == (uint64_t)2 << 20 && r.knee_hi == (uint64_t)64 << 20);
    }
    rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
    CHECK(tks__explain_memory_verdict(&r, 0) == 1 && r.cls == TKS_EXPLAIN_MEMORY);
    /* the edges: a quarter of a load, ten times L1 */
    rows(&r, TKS_EXPLAIN_LATENCY, 225, 900);
    CHECK(tks__explain_memory_verdict(&r, 0) == 1);
    rows(&r, TKS_EXPLAIN_LATENCY, 224, 900);
    CHECK(tks__explain_memory_verdict(&r, 0) == 0 && r.cls == TKS_EXPLAIN_LATENCY);
    rows(&r, TKS_EXPLAIN_LATENCY, 48, 40);
    CHECK(tks__explain_memory_verdict(&r, 0) == 1);
    rows(&r, TKS_EXPLAIN_LATENCY, 48, 39.9);
    CHECK(tks__explain_memory_verdict(&r, 0) == 0);
    /* a found bottleneck stands, while the working set fits a declared cache level... */
    rows(&r, TKS_EXPLAIN_PORTS, 950, 900);
    CHECK(tks__explain_memory_verdict(&r, 0) == 0 && r.cls == TKS_EXPLAIN_PORTS);
    rows(&r, TKS_EXPLAIN_FRONTEND, 950, 900);
    CHECK(tks__explain_memory_verdict(&r, 0) == 0 && r.cls == TKS_EXPLAIN_FRONTEND);
    /* ...beyond every level the loads outweigh it, the port kinds gone with it */
    rows(&r, TKS_EXPLAIN_PORTS, 950, 900);
    snprintf(r.port_kinds, sizeof r.port_kinds, "alu, mul, fadd, load");
    CHECK(tks__explain_memory_verdict(&r, 1) == 1 && r.cls == TKS_EXPLAIN_MEMORY);
    CHECK(r.port_kinds[0] == 0 && r.knee_lo == 8192 && r.knee_hi == (uint64_t)64 << 20);
    rows(&r, TKS_EXPLAIN_FRONTEND, 950, 900);
    CHECK(tks__explain_memory_verdict(&r, 1) == 1 && r.cls == TKS_EXPLAIN_MEMORY);
    /* but not for a block far cheaper than a load from out there, nor loads near L1's */
    rows(&r, TKS_EXPLAIN_PORTS, 224, 900);
    CHECK(tks__explain_memory_verdict(&r, 1) == 0 && r.cls == TKS_EXPLAIN_PORTS);
    rows(&r, TKS_EXPLAIN_PORTS, 48, 39.9);
    CHECK(tks__explain_memory_verdict(&r, 1) == 0 && r.cls == TKS_EXPLAIN_PORTS);
    /* no loads, or the far one failed, or the base failed */
    rows(&r, TKS_EXPLAIN_LATENCY, 950, 0);
    CHECK(tks__explain_memory_verdict(&r, 0) == 0);
    rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
    r.exp[3].rc = TKS_ENOMEM;
    CHECK(tks__explain_memory_verdict(&r, 0) == 0);
    rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
    r.exp[0].rc = TKS_EUNAVAIL;
    CHECK(tks__explain_memory_verdict(&r, 0) == 0);
    /* rows of another kind (a snippet's working sets) are not the block's */
    rows(&r, TKS_EXPLAIN_LATENCY, 950, 900);
    r.exp[2].kind = r.exp[3].kind = TKS_EXPLAIN_WSET;
    CHECK(tks__explain_memory_verdict(&r, 0) == 0);
    CHECK_DONE();
}
