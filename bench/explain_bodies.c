/* SPDX-License-Identifier: MIT */
/* explain_bodies.c: the benchmark program bench_explain_bench runs with --explain (bodies/, next
 * to it): four bodies whose bottleneck is known by construction.
 *   chain:     sixteen dependent imul r64, r64 (48 cycles of latency a repetition);
 *   ports:     twelve independent mulpd streams, four deep (the FP multipliers);
 *   chase:     one step of a pointer chase over twice the largest cache (at least 64 MiB) in a
 *              random cycle (memory latency);
 *   frontend:  96 eight-byte NOPs (768 bytes of code that no execution port runs).
 * x86-64 only; elsewhere one body that says so. */
#include <stdlib.h>

#include "explain_bodies.h" /* tests/: the blocks the test of --explain runs too */
#include "tickscope/bench.h"

#if defined(__x86_64__)

static void chain(tks_state *st)
{
    tks_u64 x = 3;
    TKS_MEASURE(st, { TKS_EX_IMUL_CHAIN(x, 16); });
    tks_do_not_optimize(x);
}
TKS_BENCHMARK(chain);

static void ports(tks_state *st)
{
    TKS_MEASURE(st, { TKS_EX_MULPD_STREAMS(); });
}
TKS_BENCHMARK(ports);

static void chase(tks_state *st)
{
    void **buf = tks__explain_ring(tks_ex_chase_bytes()), **p;
    if (!buf) {
        tks_state_skip(st, "cannot allocate the chase's ring (twice the largest cache)");
        return;
    }
    p = buf;
    TKS_MEASURE(st, { p = (void **)*p; tks_opaque(p); });
    free(buf);
}
TKS_BENCHMARK(chase);

static void frontend(tks_state *st)
{
    TKS_MEASURE(st, { TKS_EX_NOPS(96); });
}
TKS_BENCHMARK(frontend);
#else
static void unavailable(tks_state *st)
{
    tks_state_skip(st, "the bodies are written in x86-64 code");
}
TKS_BENCHMARK(unavailable);
#endif

TKS_MAIN();
