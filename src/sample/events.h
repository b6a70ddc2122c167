/* SPDX-License-Identifier: MIT */
/* events.h: event counters (perf_event) read around the measured windows, never inside them: a
 * set of named events opened in groups for the calling thread, read together (with rdpmc in user
 * space where the kernel allows it, else one read() per group), what a read costs in events of
 * its own, and why an event could not be counted (no PMU, perf_event_paranoid, a container's
 * policy, an unknown name), as coded diagnostics. The benchmark runner and the regions use it. */
#ifndef TKS_SAMPLE_EVENTS_H
#define TKS_SAMPLE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "tickscope/diag.h"

#define TKS__EVENTS_MAX 8
#define TKS__EVENT_NAME_MAX 48

/* Why an event is not counted. */
enum tks__event_refusal {
    TKS__EVENT_COUNTED = 0,
    TKS__EVENT_UNKNOWN,       /* not a name tickscope or the kernel's sysfs knows */
    TKS__EVENT_NO_PMU,        /* no PMU for it (errno ENOENT/EOPNOTSUPP, no cpu PMU in sysfs) */
    TKS__EVENT_PARANOID,      /* EACCES/EPERM with perf_event_paranoid above 2 */
    TKS__EVENT_NOT_PERMITTED, /* EACCES/EPERM although the level allows it: a container, seccomp */
    TKS__EVENT_UNSUPPORTED,   /* any other refusal of perf_event_open */
    TKS__EVENT_REFUSAL_COUNT
};

/* What a name stands for: perf_event_attr's type and configs, and whether it is a software
 * event (counted on any machine). */
struct tks__event_code {
    uint32_t type;
    uint64_t config, config1, config2;
    int software;
};

struct tks__event {
    char name[TKS__EVENT_NAME_MAX]; /* as asked */
    struct tks__event_code code;
    enum tks__event_refusal refusal;
    int err;                        /* perf_event_open's errno when refused */
    int fd;                         /* -1 when refused */
    int group, slot;                /* its group (index into groups) and place in the group's read */
    volatile struct perf_event_mmap_page *page;
    size_t page_size;
    tks__counter_read_fn *rdpmc;    /* the user-space read, NULL: read() */
    const char *rdpmc_why;          /* why there is none (a static string), NULL when there is */
};

struct tks__event_set {
    struct tks__event ev[TKS__EVENTS_MAX];
    size_t n;
    int leader[TKS__EVENTS_MAX];    /* each group's leader: an index into ev */
    size_t members[TKS__EVENTS_MAX];
    size_t n_groups;
    int paranoid;                   /* /proc/sys/kernel/perf_event_paranoid (-9: unread) */
    int hypervisor;                 /* CPUID says a hypervisor runs us */
    int pmu;                        /* the kernel lists a core PMU under /sys/bus/event_source */
    uint64_t enabled, running;      /* time the events were enabled and on the PMU, summed over
                                     * read() group reads (equal unless multiplexed) */
};

/* The names in list ("cycles,page-faults", commas between, case and '-'/'_' alike) into set,
 * each opened for the calling thread (exclude_kernel and exclude_hv where the PMU takes them),
 * in as few groups as the kernel accepts; a name that cannot be counted is kept with its
 * refusal. root ("" or NULL: "/") is where /sys and /proc are read (tests use fixture trees).
 * 0; TKS_EINVAL for a list that is empty, has an empty name, a name of TKS__EVENT_NAME_MAX
 * characters or more, or more than TKS__EVENTS_MAX names (err says which). */
int tks__events_open(struct tks__event_set *set, const char *list, const char *root, char *err,
                     size_t errlen);
/* The syntax check of tks__events_open alone, for option parsers: 0 or TKS_EINVAL with err. */
int tks__events_check_list(const char *list, char *err, size_t errlen);
void tks__events_close(struct tks__event_set *set);
/* How many events of the set count. */
size_t tks__events_counted(const struct tks__event_set *set);
/* Every counted event's running count into v[0..set->n) (0 for a refused one), outside any
 * window: rdpmc where every member of a group has it, else one read() of the group. 0, or -1
 * when a read failed. */
int tks__events_read(struct tks__event_set *set, uint64_t *v);
/* The events a pair of back-to-back reads counts itself (the read's own instructions, its
 * system call's time): the median over reps pairs, per event, into cost[0..set->n). */
void tks__events_read_cost(struct tks__event_set *set, unsigned reps, double *cost);
/* Why perf_event_open's errno err refused an event: EACCES or EPERM is perf_event_paranoid's
 * refusal above level 2, a container's or seccomp's at or below it; ENOENT, EOPNOTSUPP or ENODEV
 * for a hardware event where sysfs lists no core PMU (pmu 0) is the missing PMU; anything else
 * is the PMU's own refusal. */
enum tks__event_refusal tks__event_refusal_of(int err, int software, int paranoid, int pmu);
/* The refusals as coded diagnostics, one per reason, naming every event it refused. */
void tks__events_diagnose(const struct tks__event_set *set, tks_diags *ds);
/* The diagnostic that says why event i was refused (-1 when it counts). */
int tks__events_refusal_code(const struct tks__event_set *set, size_t i);

/* A name into what it stands for: the generic hardware and software events, rHEX (a raw event)
 * and PMU/TERMS/ or a name the kernel lists in /sys/bus/event_source/devices/cpu/events/, its
 * terms encoded by the PMU's format/ files. 0 or TKS_EINVAL (unknown). */
int tks__event_resolve(const char *name, const char *root, struct tks__event_code *out);

#endif
