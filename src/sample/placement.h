/* placement.h: where and how the sampling thread runs: CPU pinning and SCHED_FIFO, each undone
 * after the run, each a note rather than a failure when the system says no. */
#ifndef TKS_PLACEMENT_H
#define TKS_PLACEMENT_H

#include <sched.h>

struct tks_placement {
    int pinned, fifo;
    cpu_set_t old_mask;
    int old_policy;
    struct sched_param old_param;
};

/* 0, or a positive errno value saying why the thread could not be pinned. */
int tks_placement_pin(struct tks_placement *p, int cpu);
/* 0, or a positive errno value (EPERM without CAP_SYS_NICE). */
int tks_placement_fifo(struct tks_placement *p);
void tks_placement_restore(struct tks_placement *p);

#endif
