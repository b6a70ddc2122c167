/* SPDX-License-Identifier: MIT */
/* placement.c: pin the sampling thread to a CPU and raise it to SCHED_FIFO, undo both, and pace
 * real-time bursts so the kernel never throttles one. */
#include "sample/placement.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "base/procfs.h"

int tks__placement_pin(struct tks__placement *p, int cpu)
{
    cpu_set_t want;
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return EINVAL;
    if (sched_getaffinity(0, sizeof p->old_mask, &p->old_mask) != 0)
        return errno;
    CPU_ZERO(&want);
    CPU_SET(cpu, &want);
    if (sched_setaffinity(0, sizeof want, &want) != 0)
        return errno;
    p->pinned = 1;
    return 0;
}

int tks__placement_fifo(struct tks__placement *p)
{
    struct sched_param sp;
    int max = sched_get_priority_max(SCHED_FIFO);
    p->old_policy = sched_getscheduler(0);
    if (p->old_policy < 0 || sched_getparam(0, &p->old_param) != 0)
        return errno;
    memset(&sp, 0, sizeof sp);
    /* One below the top, so the kernel's own per-CPU threads at 99 still run. */
    sp.sched_priority = max > 1 ? max - 1 : max;
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
        return errno;
    p->fifo = 1;
    return 0;
}

void tks__placement_restore(struct tks__placement *p)
{
    if (p->fifo)
        (void)sched_setscheduler(0, p->old_policy, &p->old_param);
    if (p->pinned)
        (void)sched_setaffinity(0, sizeof p->old_mask, &p->old_mask);
    p->fifo = p->pinned = 0;
}

static void sleep_s(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

void tks__pacing_init(struct tks__pacing *pc, const char *root, int fifo_on)
{
    long runtime = -1, period = 0;
    memset(pc, 0, sizeof *pc);
    if (!fifo_on || tks__rt_limits(root, &runtime, &period) != 0 || runtime < 0)
        return;
    pc->on = 1;
    pc->burst_limit = fmin((double)runtime * 1e-6 / 4, 0.2);
}

void tks__pacing_before(struct tks__pacing *pc, double next_estimate, uint32_t *pauses)
{
    if (!pc->on || pc->burst <= 0 || pc->burst + next_estimate <= pc->burst_limit)
        return;
    sleep_s(pc->burst);
    pc->burst = 0;
    (*pauses)++;
}
