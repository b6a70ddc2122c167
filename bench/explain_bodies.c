/* SPDX-License-Identifier: MIT */
/* explain_bodies.c: the benchmark program bench_explain_bench runs with --explain (bodies/, next
 * to it): four bodies whose bottleneck is known by construction.
 *   chain:     sixteen dependent imul r64, r64 (48 cycles of latency a repetition);
 *   ports:     twelve independent mulpd streams, four deep (the FP multipliers);
 *   chase:     one step of a pointer chase over 64 MiB in a random cycle (memory latency);
 *   frontend:  96 eight-byte NOPs (768 bytes of code that no execution port runs).
 * x86-64 only; elsewhere one body that says so. */
#include <stdint.h>
#include <stdlib.h>

#include "explain_bodies.h" /* tests/: the blocks the test of --explain runs too */
#include "tickscope/bench.h"

#if defined(__x86_64__)
#define CHASE_BYTES ((size_t)64 << 20)

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

/* A random cycle through every 64-byte line of 64 MiB (Sattolo's shuffle of the line order). */
static void **make_chase(void)
{
    size_t n = CHASE_BYTES / 64, stride = 64 / sizeof(void *);
    void **buf = malloc(CHASE_BYTES);
    size_t *order = malloc(n * sizeof *order);
    uint64_t s = 88172645463325252ull;
    if (!buf || !order) {
        free(buf);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j, t;
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        j = (size_t)(s % i);
        t = order[i], order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        buf[order[i] * stride] = &buf[order[(i + 1) % n] * stride];
    free(order);
    return buf;
}

static void chase(tks_state *st)
{
    void **buf = make_chase(), **p;
    if (!buf) {
        tks_state_skip(st, "cannot allocate 64 MiB");
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
