/* SPDX-License-Identifier: MIT */
/* strlen.c: the C library's strlen on strings of 0, 16, 256 and 4096 bytes, with the string in
 * cache (strlen/N) and flushed from every cache before each window by a setup hook
 * (strlen_cold/N), to show latency against throughput mode and what the hooks are for.
 *
 * Build: part of `make` (build/examples/strlen).
 * Run:   ./build/examples/strlen                     one strlen per window (latency)
 *        ./build/examples/strlen --mode throughput   k back-to-back strlens per window, the slope
 * The in-place style (TKS_TIME in your own loop, summarised with tks_summarize) is in
 * strlen_inplace.c next to this file. */
#include <stdlib.h>
#include <string.h>

#include <tickscope/bench.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h> /* _mm_clflush, _mm_mfence */
#define HAVE_CLFLUSH 1
/* Both are SSE2, which a 32-bit x86 compiler does not assume unless told (-msse2). */
#define SSE2_FUNCTION __attribute__((target("sse2")))
#else
#define HAVE_CLFLUSH 0
#define SSE2_FUNCTION
#endif

/* A string of n 'x's and its terminator, made once per run, outside every window. Aligned to a
 * cache line so that every run sees the same alignment (strlen's speed depends on it) and the
 * cold variant flushes whole lines. */
static char *make_string(size_t n)
{
    size_t size = (n + 1 + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
    char *s = aligned_alloc(64, size);
    if (s) {
        memset(s, 'x', n);
        s[n] = 0;
    }
    return s;
}

static void bm_strlen(tks_state *st)
{
    size_t n = (size_t)tks_state_arg(st);
    char *s = make_string(n);
    if (!s) {
        tks_state_skip(st, "cannot allocate the string");
        return;
    }
    /* tks_opaque(s): the compiler wrote every byte of s itself and could fold strlen(s) to the
     * constant n; making s opaque makes it forget, so strlen really runs in every window.
     * tks_do_not_optimize: the length is used, so the call is not dropped as pure and unused. */
    TKS_MEASURE(st, {
        tks_opaque(s);
        tks_do_not_optimize(strlen(s));
    });
    free(s);
}
TKS_BENCHMARK_ARGS(bm_strlen, 0, 16, 256, 4096);

/* ---- the same, on a string that is in no cache when the window opens. The state the block
 * needs is restored by a setup hook, run before each real window and outside it: the same
 * pattern serves to refill a buffer a block consumes, re-shuffle an array a sort sorted, or
 * (here) evict the data a block reads. */
struct cold {
    const char *s;
    size_t bytes; /* the string and its terminator, rounded up to whole lines */
};

SSE2_FUNCTION static void flush_string(void *ctx)
{
#if HAVE_CLFLUSH
    const struct cold *c = ctx;
    for (size_t off = 0; off < c->bytes; off += 64)
        _mm_clflush(c->s + off);
    /* The flushes must be finished before the window opens: the begin sequence's LFENCE does
     * not wait for CLFLUSH, MFENCE does. */
    _mm_mfence();
#else
    (void)ctx;
#endif
}

static void bm_strlen_cold(tks_state *st)
{
    size_t n = (size_t)tks_state_arg(st);
    struct cold c;
    char *s;
    if (!HAVE_CLFLUSH) {
        tks_state_skip(st, "flushing a line from the caches needs x86 CLFLUSH");
        return;
    }
    if (!(s = make_string(n))) {
        tks_state_skip(st, "cannot allocate the string");
        return;
    }
    c.s = s;
    c.bytes = (n + 1 + 63) / 64 * 64;
    /* The hook runs once per window, not once per execution: in throughput mode only the first
     * of the k strlens in a window finds the string cold. Run this family in latency mode. */
    TKS_MEASURE_EACH(st, flush_string, NULL, &c, {
        tks_opaque(s);
        tks_do_not_optimize(strlen(s));
    });
    free(s);
}
TKS_BENCHMARK_ARGS(bm_strlen_cold, 0, 16, 256, 4096);

TKS_MAIN();
