/* SPDX-License-Identifier: MIT */
/* events_prog.c: a benchmark program for the event counters' tests (cli_events.sh,
 * cli_events_pmu.sh): one body faults in a known number of fresh pages per iteration, one runs
 * exactly 100 dependent adds. */
#include <sys/mman.h>
#include <unistd.h>

#include "tickscope/bench.h"

#include "adds_asm.h"

/* Fresh pages per iteration: mapped, each written once (one minor fault a page: anonymous
 * memory has no fault-around, and 16 pages are far from a huge page), unmapped. */
static void pages(tks_state *st)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (size_t)tks_state_arg(st);
    int failed = 0;
    TKS_MEASURE(st, {
        char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            failed = 1;
        } else {
            for (size_t i = 0; i < n; i++)
                ((volatile char *)p)[i * page] = 1;
            munmap(p, n * page);
        }
    });
    if (failed)
        tks_state_skip(st, "mmap failed");
}
TKS_BENCHMARK_ARGS(pages, 16);

/* 100 dependent adds. */
static void add100(tks_state *st)
{
    unsigned long x = 1, y = 1;
    TKS_MEASURE(st, { __asm__ __volatile__(TKS_TEST_ADDS(100) : "+r"(x) : "r"(y)); });
    tks_do_not_optimize(x);
}
TKS_BENCHMARK(add100);

TKS_MAIN();
