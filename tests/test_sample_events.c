/* SPDX-License-Identifier: MIT */
/* test_sample_events.c: event counters below the runner: names into perf_event_attr codes (the
 * generic events, rHEX, and sysfs names and terms, on a fixture tree whose formats scatter bits),
 * the lists options accept, why the kernel's answers refuse an event and the diagnostic each
 * gives, the per-execution arithmetic, and a group of software events read around known work
 * (the group-read path: every machine has these): 64 fresh pages read 64 page faults; the
 * user-space read's set-up on a software event says why it falls back to read(). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/diag.h"
#include "sample/events.h"
#include "stats/event_rates.h"

#include "check.h"
#include "cpu_truth.h"
#include "fixture_util.h"

static void names(const char *root)
{
    struct tks__event_code c;
    CHECK(tks__event_resolve("instructions", root, &c) == 0 && c.type == PERF_TYPE_HARDWARE &&
          c.config == PERF_COUNT_HW_INSTRUCTIONS && !c.software);
    CHECK(tks__event_resolve("BRANCH_MISSES", root, &c) == 0 &&
          c.config == PERF_COUNT_HW_BRANCH_MISSES);
    CHECK(tks__event_resolve("Page-Faults", root, &c) == 0 && c.type == PERF_TYPE_SOFTWARE &&
          c.config == PERF_COUNT_SW_PAGE_FAULTS && c.software);
    CHECK(tks__event_resolve("cs", root, &c) == 0 && c.config == PERF_COUNT_SW_CONTEXT_SWITCHES);
    CHECK(tks__event_resolve("r01c2", root, &c) == 0 && c.type == PERF_TYPE_RAW && c.config == 0x1c2);
    CHECK(tks__event_resolve("r", root, &c) != 0 && tks__event_resolve("r12g", root, &c) != 0);
    CHECK(tks__event_resolve("no-such-event", root, &c) != 0);
    /* sysfs: event=0x1d4 over config:0-7,32-35 puts 0xd4 low and 1 at bit 32 */
    CHECK(tks__event_resolve("cpu/event=0x1d4,umask=0x2/", root, &c) == 0 && c.type == 4 &&
          c.config == (0xd4u | 0x200u | (1ull << 32)));
    CHECK(tks__event_resolve("cpu/mem-loads/", root, &c) == 0 && c.config == 0x1cd &&
          c.config1 == 3);
    CHECK(tks__event_resolve("mem-loads", root, &c) == 0 && c.type == 4 && c.config == 0x1cd);
    CHECK(tks__event_resolve("cpu/needs-value/", root, &c) != 0); /* umask=? */
    CHECK(tks__event_resolve("cpu/umask=0x100/", root, &c) != 0); /* 9 bits in 8 */
    CHECK(tks__event_resolve("cpu/nosuchterm=1/", root, &c) != 0);
    CHECK(tks__event_resolve("nopmu/x/", root, &c) != 0);
    CHECK(tks__event_resolve("cpu/../x/", root, &c) != 0);
    CHECK(tks__event_resolve("event=1", root, &c) != 0);
}

static void lists(void)
{
    char err[200];
    CHECK(tks__events_check_list("cycles", err, sizeof err) == 0);
    CHECK(tks__events_check_list("cpu/event=0x3c,umask=0/,page-faults", err, sizeof err) == 0);
    CHECK(tks__events_check_list("a,b,c,d,e,f,g,h", err, sizeof err) == 0);
    CHECK(tks__events_check_list("a,b,c,d,e,f,g,h,i", err, sizeof err) != 0 &&
          strstr(err, "more than 8 events"));
    CHECK(tks__events_check_list("", err, sizeof err) != 0 && strstr(err, "empty event name"));
    CHECK(tks__events_check_list("cycles,", err, sizeof err) != 0);
    CHECK(tks__events_check_list("cycles,,page-faults", err, sizeof err) != 0);
    CHECK(tks__events_check_list(",cycles", err, sizeof err) != 0);
    CHECK(tks__events_check_list("x123456789012345678901234567890123456789012345678", err,
                                 sizeof err) != 0);
}

static void refusals(void)
{
    struct tks__event_set s;
    tks_diags ds = {0};
    char *m;
    CHECK(tks__event_refusal_of(EACCES, 0, 3, 1) == TKS__EVENT_PARANOID);
    CHECK(tks__event_refusal_of(EPERM, 1, 4, 0) == TKS__EVENT_PARANOID);
    CHECK(tks__event_refusal_of(EACCES, 0, 2, 1) == TKS__EVENT_NOT_PERMITTED);
    CHECK(tks__event_refusal_of(EPERM, 1, -1, 1) == TKS__EVENT_NOT_PERMITTED);
    CHECK(tks__event_refusal_of(ENOENT, 0, 2, 0) == TKS__EVENT_NO_PMU);
    CHECK(tks__event_refusal_of(EOPNOTSUPP, 0, 2, 0) == TKS__EVENT_NO_PMU);
    CHECK(tks__event_refusal_of(ENOENT, 0, 2, 1) == TKS__EVENT_UNSUPPORTED); /* a PMU without it */
    CHECK(tks__event_refusal_of(ENOENT, 1, 2, 0) == TKS__EVENT_UNSUPPORTED);
    CHECK(tks__event_refusal_of(EINVAL, 0, 2, 1) == TKS__EVENT_UNSUPPORTED);

    /* One diagnostic per reason, naming every event it refused. */
    memset(&s, 0, sizeof s);
    s.n = 5;
    s.paranoid = 3;
    s.hypervisor = 1;
    snprintf(s.ev[0].name, sizeof s.ev[0].name, "instructions");
    s.ev[0].refusal = TKS__EVENT_NO_PMU;
    snprintf(s.ev[1].name, sizeof s.ev[1].name, "page-faults");
    snprintf(s.ev[2].name, sizeof s.ev[2].name, "cycles");
    s.ev[2].refusal = TKS__EVENT_NO_PMU;
    snprintf(s.ev[3].name, sizeof s.ev[3].name, "bogus");
    s.ev[3].refusal = TKS__EVENT_UNKNOWN;
    snprintf(s.ev[4].name, sizeof s.ev[4].name, "cache-misses");
    s.ev[4].refusal = TKS__EVENT_PARANOID;
    s.ev[4].err = EACCES;
    tks__events_diagnose(&s, &ds);
    CHECK_EQ_U64(ds.n, 3);
    CHECK_EQ_U64(tks__events_counted(&s), 1);
    CHECK(tks__events_refusal_code(&s, 1) == -1);
    CHECK(tks__events_refusal_code(&s, 0) == TKS_DIAG_EVENTS_NO_PMU_VM);
    if (ds.n == 3) {
        CHECK(ds.items[0].code == TKS_DIAG_EVENTS_UNKNOWN);
        CHECK_STR(ds.items[0].values[0].str, "bogus");
        CHECK(ds.items[1].code == TKS_DIAG_EVENTS_NO_PMU_VM);
        m = tks_diag_message(&ds.items[1]);
        CHECK_STR(m, "instructions, cycles not counted: no PMU in this virtual machine (the "
                     "hypervisor exposes none); software events still count: give the guest a "
                     "virtual PMU (QEMU/KVM: -cpu host,pmu=on) or run on bare metal");
        free(m);
        CHECK(ds.items[2].code == TKS_DIAG_EVENTS_PARANOID);
        m = tks_diag_message(&ds.items[2]);
        CHECK(m && strstr(m, "cache-misses not counted: perf_event_paranoid is 3: sysctl "
                             "kernel.perf_event_paranoid=2, or give the program CAP_PERFMON"));
        free(m);
    }
    tks_diags_free(&ds);
    s.hypervisor = 0; /* bare metal without a PMU driver */
    tks__events_diagnose(&s, &ds);
    CHECK(ds.n == 3 && ds.items[1].code == TKS_DIAG_EVENTS_NO_PMU);
    tks_diags_free(&ds);
}

static void rates(void)
{
    /* {count, executions} pairs, as the runner keeps them */
    double b[][2] = {{1600, 100}, {3200, 200}, {1600, 100}};
    double u[][2] = {{1000, 100}, {2200, 200}, {900, 100}};
    tks_interval r, h, d;
    CHECK(tks__event_rate(&b[0][0], 2, &b[0][1], 3, &r) == 0);
    CHECK(r.value == 16 && r.lo == 16 && r.hi == 16); /* exact counts: no width */
    CHECK(tks__event_rate(&u[0][0], 2, &u[0][1], 3, &h) == 0);
    CHECK_NEAR(h.value, 4100.0 / 400, 1e-12); /* the ratio of the sums, not the mean of ratios */
    CHECK(h.lo < h.value && h.hi > h.value);
    /* se: residuals -25, 150, -125 -> sqrt(38750 / 2 / 3) / (400 / 3); t(2) = 4.303 */
    CHECK_NEAR(h.hi - h.value, 4.302652729911275 * sqrt(38750.0 / 6) / (400.0 / 3), 1e-6);
    CHECK(tks__event_rate(&b[0][0], 2, &b[0][1], 1, &r) == 0 && isinf(r.hi));
    CHECK(tks__event_rate(&b[0][0], 2, &b[0][1], 0, &r) != 0 && isnan(r.value));
    d = tks__interval_less(&(tks_interval){10, 7, 13}, &(tks_interval){4, 0, 8});
    CHECK(d.value == 6 && d.hi - d.value == 5 && d.value - d.lo == 5);
}

/* The group read with software events, which every Linux counts: 64 fresh pages are 64 page
 * faults and 64 minor faults, read at the same instant; a read pair costs no fault. */
/* One store to each of n pages, not instrumented: AddressSanitizer's shadow checks would fault in
 * shadow pages of their own and add to the count. */
#if defined(__GNUC__)
__attribute__((no_sanitize_address))
#endif
static void touch_pages(void *p, size_t n, size_t page)
{
    for (size_t i = 0; i < n; i++)
        ((volatile char *)p)[i * page] = 1;
}

static void software_group(void)
{
    struct tks__event_set s;
    uint64_t a[TKS__EVENTS_MAX], b[TKS__EVENTS_MAX];
    double cost[TKS__EVENTS_MAX];
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char err[200], *p;
    /* Whether this machine counts software events at all, asked of the kernel directly (not
     * through the code under test): where it does, the library must count them too. */
    const char *machine = cpu_truth_perf_software();
    if (tks__events_open(&s, "page-faults,minor-faults,task-clock,context-switches,bogus", NULL,
                         err, sizeof err) != 0) {
        CHECK(0);
        return;
    }
    if (strcmp(machine, "ok") != 0) {
        /* perf_event_open itself refused: no system call at all (QEMU user mode, a kernel
         * without it), or a policy (a container's seccomp, perf_event_paranoid) */
        CHECK(s.ev[0].refusal != TKS__EVENT_COUNTED);
        if (strcmp(machine, "ENOSYS") == 0)
            CHECK_SKIP("hardware: perf_event_open does not exist here (ENOSYS): no event counts");
        else {
            CHECK(s.ev[0].refusal == TKS__EVENT_NOT_PERMITTED || s.ev[0].refusal == TKS__EVENT_PARANOID);
            CHECK_SKIP("perf_event_open refused software events here (%s)", machine);
        }
        tks__events_close(&s);
        return;
    }
    if (s.ev[0].refusal != TKS__EVENT_COUNTED) {
        fprintf(stderr, "the kernel counts page faults for this process, the library refused (errno %d)\n",
                s.ev[0].err);
        CHECK(s.ev[0].refusal == TKS__EVENT_COUNTED);
        tks__events_close(&s);
        return;
    }
    CHECK_EQ_U64(s.n, 5);
    CHECK_EQ_U64(tks__events_counted(&s), 4);
    CHECK_EQ_U64(s.n_groups, 1); /* software events share one group */
    CHECK(s.ev[4].refusal == TKS__EVENT_UNKNOWN && s.ev[4].fd == -1);
    CHECK(!s.ev[0].rdpmc && s.ev[0].rdpmc_why); /* a software event has no hardware counter */
    {
        /* The user-space read's set-up on a software event: the page maps, and the kernel
         * says (index 0, or cap_user_rdpmc 0) that there is no counter to rdpmc, so the group
         * is read with read(). */
        volatile struct perf_event_mmap_page *pg = NULL;
        size_t pgsize = 0;
        const char *why = NULL;
        CHECK(tks__arch_counter_open(s.ev[0].fd, &pg, &pgsize, &why) == NULL && why);
#if defined(__x86_64__) || defined(__i386__)
        CHECK(pg != NULL && pg->index == 0);
#endif
        if (pg)
            munmap((void *)pg, pgsize);
    }
    tks__events_read_cost(&s, 15, cost);
    CHECK(cost[0] == 0 && cost[1] == 0 && cost[2] > 0); /* a read's own time, no fault */
    p = mmap(NULL, 64 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED)
        return;
    CHECK(tks__events_read(&s, a) == 0);
    touch_pages(p, 64, page);
    CHECK(tks__events_read(&s, b) == 0);
    CHECK_EQ_U64(b[0] - a[0], 64);
    CHECK_EQ_U64(b[1] - a[1], 64);
    CHECK(b[2] > a[2] && b[4] == 0);
    CHECK(s.enabled > 0 && s.running == s.enabled);
    munmap(p, 64 * page);
    tks__events_close(&s);
    CHECK(s.ev[0].fd == -1 && s.ev[1].fd == -1);
}

/* A raw event by the name the kernel lists (msr/tsc/ where the msr PMU is there): it leads the
 * group, which the software event joins (the other way round it would open and never count),
 * and counts. */
static void sysfs_event(void)
{
    struct tks__event_set s;
    uint64_t a[TKS__EVENTS_MAX], b[TKS__EVENTS_MAX];
    char err[200];
    struct tks__event_code c;
    if (strcmp(cpu_truth_perf_software(), "ok") != 0)
        return; /* no event opens here: software_group said why, and the test is a skip */
    /* Whether the kernel lists the event is the machine's word (its sysfs file), not the
     * resolver's: where it is listed the resolver must find it. x86 kernels have the msr PMU;
     * other architectures none. */
    if (access("/sys/bus/event_source/devices/msr/events/tsc", F_OK) != 0) {
        CHECK(tks__event_resolve("msr/tsc/", NULL, &c) != 0);
        CHECK_SKIP("hardware: no msr PMU with a tsc event here (/sys/bus/event_source/devices/msr/events/tsc): "
                   "the live sysfs event is not tried");
        return;
    }
    CHECK(tks__event_resolve("msr/tsc/", NULL, &c) == 0);
    CHECK(tks__events_open(&s, "page-faults,msr/tsc/", NULL, err, sizeof err) == 0);
    if (s.ev[0].refusal == TKS__EVENT_COUNTED && s.ev[1].refusal == TKS__EVENT_COUNTED) {
        CHECK(s.ev[1].slot == 0 && s.ev[0].group == s.ev[1].group); /* it leads, software joins */
        CHECK(tks__events_read(&s, a) == 0 && tks__events_read(&s, b) == 0 && b[1] > a[1]);
    } else {
        CHECK_SKIP("the live sysfs event: msr/tsc/ is listed but refused (errno %d)", s.ev[1].err);
    }
    tks__events_close(&s);
}

int main(void)
{
    char root[1024];
    fixture("events_sysfs", root, sizeof root);
    names(root);
    lists();
    refusals();
    rates();
    software_group();
    sysfs_event();
    CHECK_DONE();
}
