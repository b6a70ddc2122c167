/* SPDX-License-Identifier: MIT */
/* pointer_chase.c: memory latency by pointer chasing: the load-to-use time of one hop `p = *p`
 * through a random cycle of cache-line nodes, for working sets from 4 KiB to 64 MiB (argument in
 * KiB), so the steps from L1 to L2 to L3 (and to DRAM, where the L3 is smaller) show.
 *
 * Build: part of `make` (build/examples/pointer_chase).
 * Run:   ./build/examples/pointer_chase --mode throughput
 * Throughput mode is the one to use: it times windows of k dependent hops for several k and
 * reports the slope, which is the latency of one hop with the clock reads and fences cancelled.
 * Each hop's address comes from the previous hop's load, so the hops cannot overlap: here
 * "throughput" of a dependent chain is exactly its latency. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* MADV_HUGEPAGE, when this file is built on its own with -std=c11 */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h> /* madvise: Linux huge pages (see TRY_HUGE_PAGES) */

#include <tickscope/bench.h>

#define LINE 64 /* bytes per node: one cache line, so every hop touches a new line */

/* Whether to ask Linux for transparent huge pages (2 MiB) for the buffer (build with
 * -DTRY_HUGE_PAGES=1). With 4 KiB pages a random hop beyond a few MiB also misses the first-level
 * TLB, and a page walk may add to the latency; with huge pages the TLB covers the whole buffer
 * and the steps are the caches' alone. Off by default: it is what most programs get. */
#ifndef TRY_HUGE_PAGES
#define TRY_HUGE_PAGES 0
#endif
#define HUGE_PAGE (2u << 20)

struct node {
    struct node *next;
    unsigned char pad[LINE - sizeof(struct node *)]; /* a node fills its line: no two share one */
};
_Static_assert(sizeof(struct node) == LINE, "a node is one cache line");

/* splitmix64: a small, fixed-seed generator, so every run chases the same cycle. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Link the n nodes into one random cycle (Sattolo's algorithm, which, unlike a plain shuffle,
 * never leaves a short cycle that would keep the chase inside a few lines). Done in place on
 * the next pointers, so no index array doubles the memory. A random order also defeats the
 * hardware prefetchers, which would otherwise hide the latency of a sequential walk. */
static void link_random_cycle(struct node *nodes, size_t n)
{
    uint64_t seed = 42;
    for (size_t i = 0; i < n; i++)
        nodes[i].next = &nodes[i];
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(next_random(&seed) % i); /* j < i: Sattolo, not Fisher-Yates */
        struct node *t = nodes[i].next;
        nodes[i].next = nodes[j].next;
        nodes[j].next = t;
    }
}

static void chase(tks_state *st)
{
    size_t bytes = (size_t)tks_state_arg(st) * 1024, n = bytes / LINE;
    size_t align = TRY_HUGE_PAGES && bytes >= HUGE_PAGE ? HUGE_PAGE : LINE;
    struct node *nodes, *p;

    /* Everything up to TKS_MEASURE runs once per run, outside every window: allocating,
     * linking (which also touches every page, so no page fault lands in a window). */
    if (n < 2) {
        tks_state_skip(st, "the working set must hold at least two 64-byte nodes");
        return;
    }
    nodes = aligned_alloc(align, (bytes + align - 1) / align * align);
    if (!nodes) {
        tks_state_skip(st, "cannot allocate the working set");
        return;
    }
    if (align == HUGE_PAGE)
        (void)madvise(nodes, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
    link_random_cycle(nodes, n);

    /* The chase carries on from window to window (p is not reset), so consecutive windows visit
     * fresh nodes of the cycle and a small window never re-reads lines it just brought in.
     * tks_opaque(p): p "may have changed", so the compiler must keep each load, in order, in
     * its window, and cannot call the chain dead; it emits no instruction of its own. */
    p = nodes;
    TKS_MEASURE(st, {
        p = p->next;
        tks_opaque(p);
    });
    free(nodes);
}
TKS_BENCHMARK_ARGS(chase, 4, 16, 32, 64, 128, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536);

TKS_MAIN();
