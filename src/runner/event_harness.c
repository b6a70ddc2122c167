/* SPDX-License-Identifier: MIT */
/* event_harness.c: the benchmark harness with nothing in the block: TKS_MEASURE's own pairs of
 * windows (an empty window, then a window around an empty block, k times in throughput mode),
 * which the event counters count to name the harness's share of every figure. Always optimised
 * (CMakeLists.txt), as a benchmark is. */
#include "runner/events_run.h"

void tks__run_events_empty_batch(tks__batch *b)
{
    tks_hook_fn tks__setup = 0, tks__teardown = 0;
    void *tks__ctx = 0;
    tks__batch tks__b = *b;
    tks_u32 tks__i;
    switch (tks__b.kernel) {
        /* an empty asm keeps the throughput loop's repetitions, as a block would */
        TKS__CASES(__asm__ __volatile__("");)
    default:
        break;
    }
}
