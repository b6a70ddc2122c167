/* SPDX-License-Identifier: MIT */
/* perf_reason.c: why our figure and perf bench's differ by more than 10%, from figures the run
 * measured (a cause nobody measured is not named), each clause a sys.perf.* diagnostic. Pure
 * but for the diagnostics' memory. */
#include <math.h>
#include <string.h>

#include "sys/sys_internal.h"

static double rel(double a, double b) { return a / b - 1; }

void tks__sys_perf_reason(tks_sys_perf_row *x, const struct tks__sys_perf_facts *f)
{
    double spread = (x->perf_hi - x->perf_lo) / x->perf_value;
    tks_diags *ds = &x->diags;
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
            tks__diag(ds, TKS_DIAG_SYS_PERF_ONE_CPU, TKS__DN(x->perf_value), TKS__DN(p1));
        else if (perf_at == 2)
            tks__diag(ds, TKS_DIAG_SYS_PERF_TWO_CPUS, TKS__DN(x->perf_value), TKS__DN(two),
                      TKS__DN(p1));
        else if (!isnan(p1))
            tks__diag(ds, TKS_DIAG_SYS_PERF_PLACEMENT_UNKNOWN, TKS__DN(x->perf_value), TKS__DN(p1),
                      TKS__DN(two));
        if (!isnan(share))
            tks__diag(ds, TKS_DIAG_SYS_PERF_OURS_SHARE, TKS__DN(100 * share), TKS__DN(one),
                      TKS__DN(two));
        explained = perf_at && !isnan(share) && perf_at != ours_at;
    }
    if ((!strcmp(x->ours_id, "getppid_stream") || x->pinned_cpu >= 0) && x->perf_on_cpu < 0.95) {
        /* syscall basic's loop never sleeps, and of sched pipe's two processes pinned to one
         * CPU one is always runnable: time off a CPU is time other tasks (or the host) took */
        double on = x->perf_value * x->perf_on_cpu;
        tks__diag(ds, TKS_DIAG_SYS_PERF_OFF_CPU, TKS__DN(100 * x->perf_on_cpu), TKS__DN(on),
                  TKS__DS(x->unit), TKS__DN(100 * rel(x->ours_value, on)));
        explained |= fabs(rel(x->ours_value, on)) <= 0.10;
    }
    if (fabs(x->gap_all) <= 0.10) {
        tks__diag(ds, TKS_DIAG_SYS_PERF_EVERY_WINDOW, TKS__DN(x->ours_all_value),
                  TKS__DN(100 * x->gap_all));
        explained = 1;
    }
    if (x->perf_runs > 1 && spread >= fabs(x->gap) / 2) {
        tks__diag(ds, TKS_DIAG_SYS_PERF_SPREAD, TKS__DN(x->perf_runs), TKS__DN(x->perf_lo),
                  TKS__DN(x->perf_hi), TKS__DN(100 * spread));
        explained = 1;
    }
    if (!explained)
        tks__diag(ds, TKS_DIAG_SYS_PERF_UNEXPLAINED, TKS__DN(x->perf_runs), TKS__DN(100 * spread),
                  TKS__DN(100 * x->gap_all));
}

