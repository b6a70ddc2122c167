/* SPDX-License-Identifier: MIT */
/* ring_bodies.c: dependent loads over a random ring of cache lines (Sattolo's cycle, one pointer
 * a 64-byte line), 64 loads an execution, the ring's size in KiB the argument: 16 (inside L1),
 * 512 (L2), 4096 (L3) and 65536 (DRAM) on the CPUs this project is measured on. Built as
 * bodies/bench_rings_bodies (a TKS_MAIN program) and run by bench_rings in fresh processes:
 * the physical pages behind the ring are drawn anew in each. */
#include <stdint.h>
#include <stdlib.h>

#include "tickscope/bench.h"

#define LINE 64
#define LOADS 64

/* The ring: n lines, each holding the address of the next in a random cycle of all n. */
static void **make_ring(size_t bytes, size_t *lines)
{
    size_t n = bytes / LINE;
    char *buf = aligned_alloc(4096, n * LINE);
    size_t *order = malloc(n * sizeof *order);
    uint64_t g = 0x2545F4914F6CDD1Dull;
    if (!buf || !order || n < 2) {
        free(buf);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n - 1; i > 0; i--) { /* Sattolo: one cycle through every line */
        size_t j;
        g ^= g << 13, g ^= g >> 7, g ^= g << 17;
        j = (size_t)(g % i);
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        *(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % n] * LINE;
    free(order);
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
