/* SPDX-License-Identifier: MIT */
/* bench_prog.c: a benchmark program for tests/cli_bench.sh: bodies that work, one that crashes
 * for one argument, one that skips itself. Built twice, optimised and at -O0. */
#include <stdlib.h>

#include "tickscope/bench.h"

#include "adds_asm.h"

/* 40 dependent adds. */
static void add40(tks_state *st)
{
    unsigned long x = 1, y = 1;
    TKS_MEASURE(st, { __asm__ __volatile__(TKS_TEST_ADDS(40) : "+r"(x) : "r"(y)); });
    tks_do_not_optimize(x);
}
TKS_BENCHMARK(add40);

static void empty(tks_state *st) { TKS_MEASURE(st, {}); }
TKS_BENCHMARK(empty);

static void crashy(tks_state *st)
{
    if (tks_arg(st) == 1)
        abort(); /* SIGABRT: a sanitizer would catch SIGSEGV and exit instead */
    TKS_MEASURE(st, { tks_clobber_memory(); });
}
TKS_BENCHMARK_ARGS(crashy, 0, 1);

static void skipper(tks_state *st) { tks_state_skip(st, "needs a GPU"); }
TKS_BENCHMARK(skipper);

TKS_MAIN();
