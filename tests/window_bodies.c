/* SPDX-License-Identifier: MIT */
/* window_bodies.c: TKS_MEASURE's windows for tests/cli_window_compilers.sh, compiled (not run)
 * by every compiler, optimisation and word size at hand: a block of nothing, and a block of one
 * marker instruction (nopl 0x7b(%rax)), with and without hooks. */
#include <tickscope/bench.h>

#define TKS__MARK __asm__ __volatile__(".byte 0x0f, 0x1f, 0x40, 0x7b" ::: "memory")

static void hook(void *ctx) { (void)ctx; }

void window_empty(tks_state *st);
void window_marker(tks_state *st);
void window_hooks(tks_state *st);
void window_empty(tks_state *st) { TKS_MEASURE(st, {}); }
void window_marker(tks_state *st) { TKS_MEASURE(st, { TKS__MARK; }); }
void window_hooks(tks_state *st) { TKS_MEASURE_EACH(st, hook, hook, 0, { TKS__MARK; }); }
