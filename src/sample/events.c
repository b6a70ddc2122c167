/* SPDX-License-Identifier: MIT */
/* events.c: a set of event counters for the calling thread, opened in groups so that one read
 * gives every member at the same instant, read around batches of windows (never inside one):
 * rdpmc in user space where the kernel maps every member of a group on a hardware counter
 * (arch/arch.h, the core clock's read), else one read() of the group. Why an event is not
 * counted is found from what the kernel says: perf_event_open's errno, whether sysfs lists a core
 * PMU, /proc/sys/kernel/perf_event_paranoid, and whether a hypervisor runs us. */
#include "sample/events.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/procfs.h"
#include "stats/sort.h"
#include "tickscope.h"

#define READ_HEAD 3 /* a group read: nr, time enabled, time running, then the values */
#define COST_REPS_MAX 64u

/* The list's names one by one: commas separate them, except inside PMU/TERMS/ (whose terms
 * have commas of their own). *p moves past the name; 0 at the end, -1 for a bad name. */
static int next_name(const char **p, char *name, size_t size)
{
    const char *s = *p;
    size_t n = 0, slashes = 0;
    if (!*s)
        return 0;
    for (; *s && !(*s == ',' && slashes % 2 == 0); s++, n++) {
        slashes += *s == '/';
        if (n + 1 < size)
            name[n] = *s;
    }
    if (n == 0 || n >= size)
        return -1;
    name[n] = 0;
    *p = *s ? s + 1 : s;
    return **p || !*s ? 1 : -1; /* a trailing comma is an empty name */
}

int tks__events_check_list(const char *list, char *err, size_t errlen)
{
    char name[TKS__EVENT_NAME_MAX];
    const char *p = list ? list : "";
    size_t n = 0;
    int rc = 1;
    while (*p && (rc = next_name(&p, name, sizeof name)) > 0)
        n++;
    if (rc >= 0 && n >= 1 && n <= TKS__EVENTS_MAX)
        return 0;
    if (err && errlen)
        snprintf(err, errlen, rc < 0 || n == 0
                                  ? "'%s': an empty event name, or one of %d characters or more"
                                  : "'%s': more than %d events",
                 list ? list : "", rc < 0 || n == 0 ? TKS__EVENT_NAME_MAX : TKS__EVENTS_MAX);
    return TKS_EINVAL;
}

static long sys_open(struct perf_event_attr *a, int group)
{
    return syscall(SYS_perf_event_open, a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* sysfs lists a core PMU: cpu (x86), cpu_core or cpu_atom (hybrid x86), armv8_* (arm64). */
static int core_pmu_listed(const char *root)
{
    char path[512];
    struct dirent *d;
    DIR *dir;
    int found = 0;
    if (tks__proc_path(path, sizeof path, root, "/sys/bus/event_source/devices") != 0 ||
        !(dir = opendir(path)))
        return 0;
    while (!found && (d = readdir(dir)) != NULL)
        found = !strcmp(d->d_name, "cpu") || !strncmp(d->d_name, "cpu_", 4) ||
                !strncmp(d->d_name, "armv8", 5) || !strncmp(d->d_name, "arm_", 4);
    closedir(dir);
    return found;
}

enum tks__event_refusal tks__event_refusal_of(int err, int software, int paranoid, int pmu)
{
    if (err == EACCES || err == EPERM)
        return paranoid > 2 ? TKS__EVENT_PARANOID : TKS__EVENT_NOT_PERMITTED;
    if ((err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && !software && !pmu)
        return TKS__EVENT_NO_PMU;
    return TKS__EVENT_UNSUPPORTED;
}

/* Open e in an existing group if the kernel takes it there (a group spans one PMU and the
 * software events), else as the leader of a new group; first excluding the kernel and the
 * hypervisor, then (for a PMU that refuses exclusions, as msr's) not. */
static void open_event(struct tks__event_set *s, struct tks__event *e, size_t index)
{
    struct perf_event_attr a;
    int first_err = 0;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = e->code.type;
    a.config = e->code.config;
    a.config1 = e->code.config1;
    a.config2 = e->code.config2;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                    PERF_FORMAT_TOTAL_TIME_RUNNING;
    for (int exclude = 1; exclude >= 0; exclude--) {
        long fd;
        a.exclude_kernel = a.exclude_hv = (unsigned)exclude;
        for (size_t g = 0; g < s->n_groups; g++)
            if ((fd = sys_open(&a, s->ev[s->leader[g]].fd)) >= 0) {
                e->fd = (int)fd;
                e->group = (int)g;
                e->slot = (int)s->members[g]++;
                return;
            }
        if ((fd = sys_open(&a, -1)) >= 0) {
            e->fd = (int)fd;
            e->group = (int)s->n_groups;
            e->slot = 0;
            s->leader[s->n_groups] = (int)index;
            s->members[s->n_groups++] = 1;
            return;
        }
        if (!first_err)
            first_err = errno;
        if (errno != EINVAL)
            break;
    }
    e->err = first_err != EINVAL ? first_err : errno;
    e->refusal = tks__event_refusal_of(e->err, e->code.software, s->paranoid, s->pmu);
}

int tks__events_open(struct tks__event_set *s, const char *list, const char *root, char *err,
                     size_t errlen)
{
    char name[TKS__EVENT_NAME_MAX];
    const char *p = list;
    long paranoid;
    int rc;
    memset(s, 0, sizeof *s);
    if ((rc = tks__events_check_list(list, err, errlen)) != 0)
        return rc;
    s->paranoid = tks__proc_read_long(root, "/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0
                      ? (int)paranoid : -9;
    s->hypervisor = tks_cpu_features_get()->hypervisor;
    s->pmu = core_pmu_listed(root);
    while (next_name(&p, name, sizeof name) > 0) {
        struct tks__event *e = &s->ev[s->n];
        memcpy(e->name, name, sizeof name);
        e->fd = -1;
        if (tks__event_resolve(name, root, &e->code) != 0)
            e->refusal = TKS__EVENT_UNKNOWN;
        s->n++;
    }
    /* The PMUs' events lead the groups, the software events join them: a software leader
     * takes a hardware member, but an msr member of one opens and never counts. */
    for (int software = 0; software <= 1; software++)
        for (size_t i = 0; i < s->n; i++)
            if (s->ev[i].refusal == TKS__EVENT_COUNTED && s->ev[i].code.software == software)
                open_event(s, &s->ev[i], i);
    /* The user-space read, where the kernel maps the counter (every member of a group must have
     * it for the group to be read so). */
    for (size_t i = 0; i < s->n; i++) {
        struct tks__event *e = &s->ev[i];
        e->rdpmc_why = "a software event has no hardware counter";
        if (e->fd >= 0 && !e->code.software)
            e->rdpmc = tks__arch_counter_open(e->fd, &e->page, &e->page_size, &e->rdpmc_why);
        if (e->rdpmc)
            e->rdpmc_why = NULL;
    }
    return 0;
}

void tks__events_close(struct tks__event_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->ev[i].page)
            munmap((void *)s->ev[i].page, s->ev[i].page_size);
        s->ev[i].page = NULL;
    }
    /* Members before leaders. */
    for (size_t i = s->n; i-- > 0;)
        if (s->ev[i].fd >= 0 && s->ev[i].slot) {
            close(s->ev[i].fd);
            s->ev[i].fd = -1;
        }
    for (size_t i = 0; i < s->n; i++)
        if (s->ev[i].fd >= 0) {
            close(s->ev[i].fd);
            s->ev[i].fd = -1;
        }
    s->n_groups = 0;
}

size_t tks__events_counted(const struct tks__event_set *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += s->ev[i].refusal == TKS__EVENT_COUNTED;
    return n;
}

static int group_rdpmc(const struct tks__event_set *s, size_t g)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->ev[i].fd >= 0 && (size_t)s->ev[i].group == g && !s->ev[i].rdpmc)
            return 0;
    return 1;
}

int tks__events_read(struct tks__event_set *s, uint64_t *v)
{
    uint64_t buf[READ_HEAD + TKS__EVENTS_MAX];
    int rc = 0;
    for (size_t i = 0; i < s->n; i++)
        v[i] = 0;
    for (size_t g = 0; g < s->n_groups; g++) {
        size_t bytes = (READ_HEAD + s->members[g]) * sizeof buf[0];
        if (group_rdpmc(s, g)) {
            for (size_t i = 0; i < s->n; i++)
                if (s->ev[i].fd >= 0 && (size_t)s->ev[i].group == g)
                    v[i] = s->ev[i].rdpmc(s->ev[i].page);
            continue;
        }
        if (read(s->ev[s->leader[g]].fd, buf, bytes) != (ssize_t)bytes ||
            buf[0] != s->members[g]) {
            rc = -1;
            continue;
        }
        if (g == 0) { /* the first group stands for the set's share of time on the PMU */
            s->enabled = buf[1];
            s->running = buf[2];
        }
        for (size_t i = 0; i < s->n; i++)
            if (s->ev[i].fd >= 0 && (size_t)s->ev[i].group == g)
                v[i] = buf[READ_HEAD + s->ev[i].slot];
    }
    return rc;
}

void tks__events_read_cost(struct tks__event_set *s, unsigned reps, double *cost)
{
    uint64_t a[TKS__EVENTS_MAX], b[TKS__EVENTS_MAX], d[TKS__EVENTS_MAX][COST_REPS_MAX];
    unsigned got = 0;
    if (reps > COST_REPS_MAX)
        reps = COST_REPS_MAX;
    for (unsigned r = 0; r < reps; r++) {
        if (tks__events_read(s, a) != 0 || tks__events_read(s, b) != 0)
            continue;
        for (size_t i = 0; i < s->n; i++)
            d[i][got] = b[i] - a[i];
        got++;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (!got) {
            cost[i] = 0;
            continue;
        }
        tks__sort_u64(d[i], got);
        cost[i] = got % 2 ? (double)d[i][got / 2]
                          : ((double)d[i][got / 2 - 1] + (double)d[i][got / 2]) / 2;
    }
}

/* The diagnostic of each refusal. */
int tks__events_refusal_code(const struct tks__event_set *s, size_t i)
{
    switch (s->ev[i].refusal) {
    case TKS__EVENT_UNKNOWN: return TKS_DIAG_EVENTS_UNKNOWN;
    case TKS__EVENT_NO_PMU: return s->hypervisor ? TKS_DIAG_EVENTS_NO_PMU_VM : TKS_DIAG_EVENTS_NO_PMU;
    case TKS__EVENT_PARANOID: return TKS_DIAG_EVENTS_PARANOID;
    case TKS__EVENT_NOT_PERMITTED: return TKS_DIAG_EVENTS_NOT_PERMITTED;
    case TKS__EVENT_UNSUPPORTED: return TKS_DIAG_EVENTS_UNSUPPORTED;
    default: return -1;
    }
}

void tks__events_diagnose(const struct tks__event_set *s, tks_diags *ds)
{
    for (int r = TKS__EVENT_UNKNOWN; r < TKS__EVENT_REFUSAL_COUNT; r++) {
        char names[TKS__EVENTS_MAX * (TKS__EVENT_NAME_MAX + 2)] = "";
        size_t first = s->n, len = 0;
        for (size_t i = 0; i < s->n; i++)
            if ((int)s->ev[i].refusal == r) {
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                        first < s->n ? ", " : "", s->ev[i].name);
                if (first == s->n)
                    first = i;
            }
        if (first == s->n)
            continue;
        switch ((enum tks__event_refusal)r) {
        case TKS__EVENT_PARANOID:
            tks__diag(ds, TKS_DIAG_EVENTS_PARANOID, TKS__DS(names), TKS__DN(s->paranoid));
            break;
        case TKS__EVENT_NOT_PERMITTED:
            tks__diag(ds, TKS_DIAG_EVENTS_NOT_PERMITTED, TKS__DS(names), TKS__DN(s->paranoid),
                      TKS__DN(s->ev[first].err));
            break;
        case TKS__EVENT_UNSUPPORTED:
            tks__diag(ds, TKS_DIAG_EVENTS_UNSUPPORTED, TKS__DS(names), TKS__DN(s->ev[first].err));
            break;
        default:
            tks__diag(ds, (enum tks_diag_code)tks__events_refusal_code(s, first), TKS__DS(names));
            break;
        }
    }
}
