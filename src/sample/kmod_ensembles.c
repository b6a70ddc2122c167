/* SPDX-License-Identifier: MIT */
/* kmod_ensembles.c: the user side of the kernel module's protocol (include/tickscope/kmod.h): open the
 * device, ask for one ensemble at a time, and copy its samples out in chunks. */
#include "sample/kmod_ensembles.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tickscope/kmod.h"

#define READ_CHUNK 65536u /* samples per TKS_IOC_READ: 512 KiB */

static int from_errno(int e)
{
    switch (e) {
    case ENOENT: case ENODEV: case ENXIO: return TKS_ENODEV;
    case EACCES: case EPERM:              return TKS_EPERM;
    case EBUSY:                           return TKS_EBUSY;
    case EPROTO:                          return TKS_EPROTO;
    case EOPNOTSUPP:                      return TKS_EUNAVAIL;
    case ENOMEM:                          return TKS_ENOMEM;
    case ERANGE:                          return TKS_ERANGE;
    case EINVAL: case ENOTTY:             return TKS_EINVAL;
    case EIO:                             return TKS_EDISCARD; /* the module's one EIO (kmod.h) */
    case EINTR:                           return TKS_EINTR;
    case ETIME:                           return TKS_ETIME;
    default:                              return TKS_EIO;
    }
}

static int open_device(const char *device, int *fd, struct tks_kmod_info *info)
{
    *fd = open(device ? device : TKS_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
    if (*fd < 0)
        return from_errno(errno);
    memset(info, 0, sizeof *info);
    if (ioctl(*fd, TKS_IOC_INFO, info) != 0) {
        int rc = errno == ENOTTY ? TKS_EPROTO : from_errno(errno); /* not our module */
        close(*fd);
        *fd = -1;
        return rc;
    }
    if (info->abi != TKS_KMOD_ABI) {
        close(*fd);
        *fd = -1;
        return TKS_EPROTO;
    }
    return 0;
}

int tks_kernel_probe(const char *device, tks_kernel_info *out)
{
    struct tks_kmod_info info;
    int fd, rc;
    if (!out)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    if ((rc = open_device(device, &fd, &info)) != 0)
        return rc;
    close(fd);
    out->abi = info.abi;
    out->methods = info.methods;
    out->total_max = info.total_max;
    out->section_us = info.section_us;
    out->tsc_khz = info.tsc_khz;
    return 0;
}

uint32_t tks__kernel_cr0_refused(const char *device)
{
    struct tks_kmod_info info;
    int fd;
    if (open_device(device, &fd, &info) != 0)
        return 0;
    close(fd);
    return info.cr0_refused;
}

int tks__kernel_open(struct tks__kernel_session *s, const char *device, enum tks_where where,
                    enum tks_method method, int cpu)
{
    struct tks_kmod_info info;
    int rc;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->where = where;
    s->method = method;
    s->cpu = cpu;
    s->cpu_used = -1;
    if ((rc = open_device(device, &s->fd, &info)) != 0)
        return rc;
    if (!(info.methods & (1u << method))) {
        tks__kernel_close(s);
        return TKS_EUNAVAIL;
    }
    s->total_max = info.total_max;
    s->snippet_refused = info.snippet_refused;
    return 0;
}

/* What a run says about the session: its sections and its CPU. */
static void note_run(struct tks__kernel_session *s, const struct tks_kmod_run *r)
{
    s->sections += r->sections;
    if (r->section_max_ticks > s->section_max_ticks)
        s->section_max_ticks = r->section_max_ticks;
    s->cpu_used = r->cpu_used;
}

/* The last run's samples, in chunks. */
static int read_samples(struct tks__kernel_session *s, uint64_t *out, uint64_t total)
{
    uint64_t first;
    for (first = 0; first < total;) {
        struct tks_kmod_read rd;
        memset(&rd, 0, sizeof rd);
        rd.buf = (__u64)(uintptr_t)(out + first);
        rd.first = first;
        rd.count = total - first < READ_CHUNK ? (uint32_t)(total - first) : READ_CHUNK;
        if (ioctl(s->fd, TKS_IOC_READ, &rd) != 0)
            return from_errno(errno);
        if (rd.count == 0)
            return TKS_EIO; /* the module holds fewer samples than it said it took */
        first += rd.count;
    }
    return 0;
}

int tks__kernel_ensemble(struct tks__kernel_session *s, uint64_t *out, uint32_t samples,
                        uint32_t work, struct tks__ensemble_counts *counts)
{
    struct tks_kmod_run r;
    if (samples > s->total_max)
        return TKS_ERANGE;
    memset(&r, 0, sizeof r);
    r.abi = TKS_KMOD_ABI;
    r.method = (__u32)s->method;
    r.workload = work ? TKS_KWORK_ADDS : TKS_KWORK_EMPTY;
    r.own = s->where == TKS_WHERE_KERNEL_PREEMPT_OFF ? TKS_KOWN_PREEMPT_OFF : TKS_KOWN_IRQ_OFF;
    r.ensembles = 1;
    r.samples = samples;
    r.work_start = work;
    r.cpu = s->cpu;
    if (ioctl(s->fd, TKS_IOC_RUN, &r) != 0) {
        /* Refused by the module's probe: one sample would keep interrupts off too long. */
        if (errno == EINVAL && r.sample_ticks)
            return TKS_ERANGE;
        return from_errno(errno);
    }
    counts->migrated += r.migrated;
    counts->negative += r.negative;
    note_run(s, &r);
    return read_samples(s, out, samples);
}

int tks__kernel_snippet(struct tks__kernel_session *s, const struct tks__kernel_snippet *q,
                        uint64_t *out, struct tks__ensemble_counts *counts,
                        uint64_t *sample_ticks)
{
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    uint64_t total = (uint64_t)q->ensembles * q->samples;
    *sample_ticks = 0;
    if (total > s->total_max)
        return TKS_ERANGE;
    memset(&sn, 0, sizeof sn);
    sn.code = (__u64)(uintptr_t)q->code;
    sn.code_len = q->code_len;
    sn.init = q->init_len ? (__u64)(uintptr_t)q->init : 0;
    sn.init_len = q->init_len;
    sn.loops = q->loops;
    sn.scratch_bytes = q->scratch_bytes;
    sn.align = q->align;
    memset(&r, 0, sizeof r);
    r.abi = TKS_KMOD_ABI;
    r.method = (__u32)s->method;
    r.workload = TKS_KWORK_SNIPPET;
    r.own = s->where == TKS_WHERE_KERNEL_PREEMPT_OFF ? TKS_KOWN_PREEMPT_OFF : TKS_KOWN_IRQ_OFF;
    r.ensembles = q->ensembles;
    r.samples = q->samples;
    r.work_start = q->copies_start;
    r.work_step = q->copies_step;
    r.cpu = s->cpu;
    r.snippet = (__u64)(uintptr_t)&sn;
    s->fault_where = 0;
    if (ioctl(s->fd, TKS_IOC_RUN, &r) != 0) {
        int e = errno;
        struct tks_kmod_info info;
        *sample_ticks = r.sample_ticks;
        if (e == ENOEXEC && r.fault_where) {
            s->fault_where = r.fault_where;
            s->fault_vector = r.fault_vector;
            s->fault_offset = r.fault_offset;
            return TKS_EIO;
        }
        /* Lockdown may have been raised since the session opened: ask again why. */
        memset(&info, 0, sizeof info);
        if (e == EPERM && ioctl(s->fd, TKS_IOC_INFO, &info) == 0)
            s->snippet_refused = info.snippet_refused;
        return e == EINVAL && r.sample_ticks ? TKS_ERANGE : from_errno(e);
    }
    counts->migrated += r.migrated;
    counts->negative += r.negative;
    note_run(s, &r);
    return read_samples(s, out, total);
}

void tks__kernel_close(struct tks__kernel_session *s)
{
    if (s->fd >= 0)
        close(s->fd); /* the module frees the samples on release */
    s->fd = -1;
}
