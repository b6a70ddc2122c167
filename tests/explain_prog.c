/* SPDX-License-Identifier: MIT */
/* explain_prog.c: a benchmark program for tests/cli_explain.sh: bodies whose bottleneck is known
 * by construction. ex_chain: eight dependent imul (a chain: every addition is absorbed);
 * ex_fmul: twelve independent mulpd streams (the multiply pipes: mulpd competes); ex_imul:
 * sixteen independent imul r, r, 3 (the multiplier: imul competes); ex_chase: a pointer chase
 * over twice the largest cache (at least 64 MiB), one step a repetition (memory: its working set
 * is beyond the caches); ex_nops: 64 eight-byte NOPs (no execution port: the front end, so the
 * NOPs compete). x86-64 only; elsewhere one body that says so. */
#include <stdlib.h>

#include "explain_bodies.h"
#include "tickscope/bench.h"

#if defined(__x86_64__)
static void ex_chain(tks_state *st)
{
    tks_u64 x = 3;
    TKS_MEASURE(st, { TKS_EX_IMUL_CHAIN(x, 8); });
    tks_do_not_optimize(x);
}
TKS_BENCHMARK(ex_chain);

static void ex_fmul(tks_state *st)
{
    TKS_MEASURE(st, { TKS_EX_MULPD_STREAMS(); });
}
TKS_BENCHMARK(ex_fmul);

static void ex_imul(tks_state *st)
{
    tks_u64 src = 5;
    tks_opaque(src);
    TKS_MEASURE(st, {
        tks_u64 t;
        __asm__ __volatile__(TKS_EX_REP(16, "imul $3, %1, %0") : "=&r"(t) : "r"(src) : "cc");
    });
}
TKS_BENCHMARK(ex_imul);

static void ex_chase(tks_state *st)
{
    void **buf = tks__explain_ring(tks_ex_chase_bytes()), **p;
    if (!buf) {
        tks_state_skip(st, "no memory for the chase's ring (twice the largest cache)");
        return;
    }
    p = buf;
    TKS_MEASURE(st, { p = (void **)*p; tks_opaque(p); });
    free(buf);
}
TKS_BENCHMARK(ex_chase);

static void ex_nops(tks_state *st)
{
    TKS_MEASURE(st, { TKS_EX_NOPS(64); });
}
TKS_BENCHMARK(ex_nops);
#else
static void ex_unavailable(tks_state *st)
{
    tks_state_skip(st, "the known bottlenecks are written in x86-64 code");
}
TKS_BENCHMARK(ex_unavailable);
#endif

TKS_MAIN();
