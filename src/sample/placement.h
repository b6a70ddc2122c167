/* SPDX-License-Identifier: MIT */
/* placement.h: where and how the sampling thread runs: CPU pinning and SCHED_FIFO, each undone
 * after the run, each a note rather than a failure when the system says no. */
#ifndef TKS_PLACEMENT_H
#define TKS_PLACEMENT_H

#include <sched.h>
#include <stdint.h>

struct tks__placement {
    int pinned, fifo;
    cpu_set_t old_mask;
    int old_policy;
    struct sched_param old_param;
};

/* 0, or a positive errno value saying why the thread could not be pinned. */
int tks__placement_pin(struct tks__placement *p, int cpu);
/* 0, or a positive errno value (EPERM without CAP_SYS_NICE). */
int tks__placement_fifo(struct tks__placement *p);
void tks__placement_restore(struct tks__placement *p);

/* Real-time pacing: the kernel throttles SCHED_FIFO tasks that run more than runtime_us in a
 * period_us window (950 ms in 1 s by default). Bursts are kept to a quarter of the runtime (at
 * most 200 ms) and each is followed by a rest as long as itself, so the duty cycle stays at
 * half and throttling can never land inside a burst of samples. */
struct tks__pacing {
    int on;
    double burst_limit, burst; /* seconds */
};
/* root: where /proc lives (NULL: "/"); fifo_on: the thread really runs under SCHED_FIFO. */
void tks__pacing_init(struct tks__pacing *pc, const char *root, int fifo_on);
/* Before a burst expected to last next_estimate seconds: rest first if it would overrun. */
void tks__pacing_before(struct tks__pacing *pc, double next_estimate, uint32_t *pauses);
/* After a burst that lasted seconds. */
static inline void tks__pacing_after(struct tks__pacing *pc, double seconds) { pc->burst += seconds; }

#endif
