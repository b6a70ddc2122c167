/* SPDX-License-Identifier: MIT */
/* test_sys_perf_reason.c: the reason a perf row gives for a gap over 10%, on hand-made rows:
 * only what was measured is named, and a gap nothing measured explains says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sys/sys_internal.h"

static tks_sys_perf_row row(const char *id, int like, int cpu, double perf, double ours)
{
    tks_sys_perf_row x;
    memset(&x, 0, sizeof x);
    snprintf(x.ours_id, sizeof x.ours_id, "%s", id);
    snprintf(x.unit, sizeof x.unit, "us/op");
    x.like_for_like = like;
    x.pinned_cpu = cpu;
    x.perf_value = perf;
    x.perf_lo = x.perf_hi = perf; /* perf's runs agree: its spread explains nothing */
    x.perf_runs = 5;
    x.perf_on_cpu = 1;
    x.ours_value = ours;
    x.ours_all_value = ours;
    x.gap_all = ours / perf - 1;
    return x;
}

static const struct tks__sys_perf_facts none = {NAN, NAN, NAN, NAN};

/* The reason as a report shows it: the messages of the row's diagnostics, "; " between them
 * (and the diagnostics released). */
static char reason[1024];

static void explain(tks_sys_perf_row *x, const struct tks__sys_perf_facts *f)
{
    size_t len = 0;
    reason[0] = 0;
    tks__sys_perf_reason(x, f);
    for (size_t i = 0; i < x->diags.n; i++) {
        char *msg = tks_diag_message(&x->diags.items[i]);
        CHECK(msg != NULL);
        CHECK(!strncmp(tks_diag_info_of(x->diags.items[i].code)->id, "sys.perf.", 9));
        len += (size_t)snprintf(reason + len, sizeof reason - len, "%s%s", i ? "; " : "",
                                msg ? msg : "");
        free(msg);
    }
    tks_sys_perf_rows_free(x, 1);
}

/* Within 10%: no reason. */
static void close_enough(void)
{
    tks_sys_perf_row x = row("getppid_stream", 1, -1, 0.120, 0.113);
    explain(&x, &none);
    CHECK_NEAR(x.gap, 0.113 / 0.120 - 1, 1e-12);
    CHECK(reason[0] == 0);
}

/* syscall basic under load: perf was on a CPU 46% of its wall time; 0.237 x 0.46 = 0.109,
 * ours 0.114 is +4.6% from that: explained, and said. */
static void off_cpu(void)
{
    tks_sys_perf_row x = row("getppid_stream", 1, -1, 0.237, 0.114);
    x.perf_on_cpu = 0.46;
    x.ours_all_value = 0.215; /* every window: -9.3%, within 10% too */
    x.gap_all = 0.215 / 0.237 - 1;
    explain(&x, &none);
    CHECK(strstr(reason, "perf was on a CPU for 46% of its wall time") != NULL);
    CHECK(strstr(reason, "on a CPU it took 0.109 us/op, ours +4.6% from that") != NULL);
    CHECK(strstr(reason, "over every window") != NULL);
    CHECK(strstr(reason, "not explained") == NULL);
    /* the unpinned pipe's processes may sleep: its time off a CPU says nothing */
    x = row("pipe_rt_proc", 0, -1, 40, 4);
    x.perf_on_cpu = 0.5;
    explain(&x, &none);
    CHECK(strstr(reason, "on a CPU for") == NULL);
}

/* Nothing measured explains it: said so, with the figures. */
static void unexplained(void)
{
    tks_sys_perf_row x = row("pipe_rt_proc_1cpu", 1, 0, 6.0, 4.2);
    explain(&x, &none);
    CHECK(strstr(reason, "not explained by what this run measured (perf's 5 runs within 0%, "
                           "every window counted -30%)") != NULL);
    /* perf's own runs 4.2 to 7.2 apart: the load, said */
    x = row("pipe_rt_proc_1cpu", 1, 0, 6.0, 4.2);
    x.perf_lo = 4.2;
    x.perf_hi = 7.2;
    explain(&x, &none);
    CHECK(strstr(reason, "perf's own 5 runs ranged 4.2 to 7.2 (50% apart)") != NULL);
    CHECK(strstr(reason, "not explained") == NULL);
}

/* The unpinned pipe: perf's figure beside our two-CPU row, ours on one CPU: placement. */
static void placement(void)
{
    struct tks__sys_perf_facts f = {4.03, 1.0, 4.03, 36.6};
    tks_sys_perf_row x = row("pipe_rt_proc", 0, -1, 37.7, 4.07);
    explain(&x, &f);
    CHECK(strstr(reason, "placement: perf's figure is a two-CPU one (unpinned 37.7 us, our "
                           "two-CPU round trip 36.6; perf pinned to one CPU 4.03)") != NULL);
    CHECK(strstr(reason, "ours had both on one CPU in 100% of its windows") != NULL);
    CHECK(strstr(reason, "not explained") == NULL);
    /* ours a mix (46%) and perf two-CPU: still placement */
    f.ours_share = 0.46;
    x = row("pipe_rt_proc", 0, -1, 37.7, 26.4);
    explain(&x, &f);
    CHECK(strstr(reason, "in 46% of its windows") && !strstr(reason, "not explained"));
    /* both on one CPU and still 12% apart: placement is no reason */
    f.ours_share = 1;
    x = row("pipe_rt_proc", 0, -1, 4.4, 3.9);
    explain(&x, &f);
    CHECK(strstr(reason, "perf's figure is a one-CPU one") != NULL);
    CHECK(strstr(reason, "not explained") != NULL);
}

int main(void)
{
    close_enough();
    off_cpu();
    unexplained();
    placement();
    CHECK_DONE();
}
