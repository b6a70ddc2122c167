/* SPDX-License-Identifier: MIT */
/* ring_bodies.c: dependent loads over a ring of cache lines in a scattered order (one pointer
 * a 64-byte line), 64 loads an execution, the ring's size in KiB the argument: 16 (inside L1),
 * 512 (L2), 4096 (L3) and 65536 (DRAM) on the CPUs this project is measured on. Built as
 * bodies/bench_rings_bodies (a TKS_MAIN program) and run by bench_rings in fresh processes:
 * the physical pages behind the ring are drawn anew in each. */
#include <stdlib.h>

#include "tickscope/bench.h"

#define LINE 64
#define LOADS 64

/* The ring: n lines (a power of two), each holding the address of the next in one cycle through
 * all n: line k is followed by line (a k + c) mod n, a full-period congruential step (a = 1 mod
 * 4, c odd; Hull and Dobell), so consecutive loads land far apart in no fixed stride a
 * prefetcher could follow. */
static void **make_ring(size_t bytes, size_t *lines)
{
    size_t n = bytes / LINE, a = 0x5851F42Du * 4 + 1, c = 0x14057B7Fu;
    char *buf = n >= 2 && (n & (n - 1)) == 0 ? aligned_alloc(4096, n * LINE) : NULL;
    if (!buf)
        return NULL;
    for (size_t k = 0; k < n; k++)
        *(void **)(buf + k * LINE) = buf + ((a * k + c) & (n - 1)) * LINE;
    *lines = n;
    return (void **)buf;
}

static void ring(tks_state *st)
{
    size_t lines = 0;
    void **p, **head = make_ring((size_t)tks_state_arg(st) << 10, &lines);
    if (!head) {
        tks_state_skip(st, "no memory for the ring");
        return;
    }
    p = head;
    for (size_t i = 0; i < lines; i++) /* once round: the ring's pages are mapped and cached */
        p = (void **)*p;
    TKS_MEASURE(st, {
        for (int i = 0; i < LOADS; i++)
            p = (void **)*p;
        tks_do_not_optimize(p);
    });
    free(head);
}
TKS_BENCHMARK_ARGS(ring, 16, 512, 4096, 65536);

TKS_MAIN();
