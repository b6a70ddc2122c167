/* SPDX-License-Identifier: MIT */
/* explain_bodies.c: the bodies --explain runs itself. The empty block, to learn what its added
 * work costs alone: TKS_MEASURE with an empty block, so each repetition of the TKS__PERTURBED
 * kernel is the work and the repetition loop. And a pointer chase over a random cycle of the
 * cache lines of as many bytes as its argument, one dependent load a repetition: what a load
 * costs at the working set a benchmark's block touched (explain_memory.c). Always optimised
 * (CMakeLists.txt), as a benchmark is. */
#include <stdint.h>
#include <stdlib.h>

#include "runner/runner.h"

void tks__explain_alone_body(tks_state *st)
{
    /* an empty asm keeps the repetitions, as a block would */
    TKS_MEASURE(st, { __asm__ __volatile__(""); });
}

const tks_benchmark_spec tks__explain_alone_spec = {"explain: the work alone",
                                                    tks__explain_alone_body, NULL, 0, 1};

/* Sattolo's shuffle of the line order makes one cycle through every line: no line is left out
 * and no shorter cycle stays in a cache. */
void **tks__explain_ring(size_t bytes)
{
    size_t n = bytes / 64, stride = 64 / sizeof(void *);
    void **buf = n > 1 ? malloc(n * 64) : NULL;
    size_t *order = buf ? malloc(n * sizeof *order) : NULL;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    if (!order) {
        free(buf);
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

void tks__explain_chase_body(tks_state *st)
{
    void **buf = tks__explain_ring((size_t)tks_state_arg(st)), **p;
    if (!buf) {
        tks_state_skip(st, "no memory for the chase's ring");
        return;
    }
    p = buf;
    TKS_MEASURE(st, { p = (void **)*p; tks_opaque(p); });
    free(buf);
}
