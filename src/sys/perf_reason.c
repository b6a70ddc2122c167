/* SPDX-License-Identifier: MIT */
/* perf_reason.c: why our figure and perf bench's differ by more than 10%, from figures the run
 * measured (a cause nobody measured is not named). Pure. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sys/sys_internal.h"

static double rel(double a, double b) { return a / b - 1; }

/* Append one clause to the reason. */
static void say(tks_sys_perf_row *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(tks_sys_perf_row *x, const char *fmt, ...)
{
    size_t len = strlen(x->reason);
    va_list ap;
    if (len + 3 >= sizeof x->reason)
        return;
    if (len)
        len += (size_t)snprintf(x->reason + len, sizeof x->reason - len, "; ");
    va_start(ap, fmt);
    vsnprintf(x->reason + len, sizeof x->reason - len, fmt, ap);
    va_end(ap);
}

void tks__sys_perf_reason(tks_sys_perf_row *x, const struct tks__sys_perf_facts *f)
{
    double spread = (x->perf_hi - x->perf_lo) / x->perf_value;
    int explained = 0;
    x->gap = rel(x->ours_value, x->perf_value);
    if (!(fabs(x->gap) > 0.10))
        return;
    if (!x->like_for_like && !strcmp(x->ours_id, "pipe_rt_proc")) {
        /* both unpinned: where the scheduler put the two processes decides the figure. Ours
         * counts it; perf's is told by its figure beside perf pinned to one CPU (it cannot put
         * its two processes on two given CPUs) */
        double one = f->ours_one_cpu, two = f->ours_two_cpus, p1 = f->perf_one_cpu, share = f->ours_share;
        /* 1: on one CPU, 2: on two, 0: a mix or not known. perf's by its figure: beside its own
         * one-CPU run, or beside our two-CPU round trip (the only two-CPU figure there is) */
        int perf_at = fabs(rel(x->perf_value, p1)) <= 0.10 ? 1 : fabs(rel(x->perf_value, two)) <= 0.25 ? 2 : 0;
        int ours_at = share >= 0.9 ? 1 : share <= 0.1 ? 2 : 0;
        if (perf_at == 1)
            say(x, "placement: perf's figure is a one-CPU one (unpinned %.3g us, pinned to one "
                "CPU %.3g)", x->perf_value, p1);
        else if (perf_at == 2)
            say(x, "placement: perf's figure is a two-CPU one (unpinned %.3g us, our two-CPU "
                "round trip %.3g; perf pinned to one CPU %.3g)", x->perf_value, two, p1);
        else if (!isnan(p1))
            say(x, "perf unpinned %.3g us: neither its one-CPU figure %.3g nor our two-CPU %.3g",
                x->perf_value, p1, two);
        if (!isnan(share))
            say(x, "ours had both on one CPU in %.0f%% of its windows (pinned: one CPU %.3g us, "
                "two CPUs %.3g)", 100 * share, one, two);
        explained = perf_at && !isnan(share) && perf_at != ours_at;
    }
    if ((!strcmp(x->ours_id, "getppid_stream") || x->pinned_cpu >= 0) && x->perf_on_cpu < 0.95) {
        /* syscall basic's loop never sleeps, and of sched pipe's two processes pinned to one
         * CPU one is always runnable: time off a CPU is time other tasks (or the host) took */
        double on = x->perf_value * x->perf_on_cpu;
        say(x, "perf was on a CPU for %.0f%% of its wall time (its rusage): on a CPU it took "
            "%.3g %s, ours %+.1f%% from that", 100 * x->perf_on_cpu, on, x->unit,
            100 * rel(x->ours_value, on));
        explained |= fabs(rel(x->ours_value, on)) <= 0.10;
    }
    if (fabs(x->gap_all) <= 0.10) {
        say(x, "over every window (interrupts and stolen time in, as in perf's wall time) ours "
            "is %.3g, %+.1f%%", x->ours_all_value, 100 * x->gap_all);
        explained = 1;
    }
    if (x->perf_runs > 1 && spread >= fabs(x->gap) / 2) {
        say(x, "perf's own %d runs ranged %.3g to %.3g (%.0f%% apart): the load moved that much",
            x->perf_runs, x->perf_lo, x->perf_hi, 100 * spread);
        explained = 1;
    }
    if (!explained)
        say(x, "not explained by what this run measured (perf's %d runs within %.0f%%, every "
            "window counted %+.0f%%)", x->perf_runs, 100 * spread, 100 * x->gap_all);
}

