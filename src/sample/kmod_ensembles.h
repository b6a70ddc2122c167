/* SPDX-License-Identifier: MIT */
/* kmod_ensembles.h: ensembles taken by the kernel module through /dev/tickscope, one ensemble per
 * request, so that user space keeps its progress, budget and summaries unchanged. */
#ifndef TKS_SAMPLE_KERNEL_H
#define TKS_SAMPLE_KERNEL_H

#include "sample/ensemble.h"

struct tks__kernel_session {
    int fd;
    enum tks_where where;
    enum tks_method method;
    int cpu;                    /* -1: the caller's CPU */
    uint32_t total_max;         /* the module's limit on one request */
    uint64_t sections, section_max_ticks;
    int cpu_used;
    uint32_t snippet_refused;   /* enum tks_kmod_refusal, as the module said at open (and again
                                   after a snippet request got TKS_EPERM) */
    uint32_t fault_where;       /* the last snippet request's fault (enum tks_kmod_fault_where, */
    uint32_t fault_vector;      /* the exception, and the byte): set when it returned TKS_EIO */
    uint32_t fault_offset;      /* with fault_where != 0 */
};

/* Open the device (NULL: /dev/tickscope) and check the module's protocol version. */
int tks__kernel_open(struct tks__kernel_session *s, const char *device, enum tks_where where,
                    enum tks_method method, int cpu);
/* One ensemble of `samples` windows carrying `work` dependent adds (0: the empty window) into
 * out; the module warms up and drops the first sample as user space does. */
int tks__kernel_ensemble(struct tks__kernel_session *s, uint64_t *out, uint32_t samples,
                        uint32_t work, struct tks__ensemble_counts *counts);

/* The snippet workload (TKS_KWORK_SNIPPET in tickscope/kmod.h): the caller's machine code in
 * ring 0, ensemble e calling a loop of `loops` iterations of copies_start + e * copies_step copies
 * of it, R14 pointing at a zeroed scratch area of scratch_bytes. */
struct tks__kernel_snippet {
    const unsigned char *code;
    uint32_t code_len;
    const unsigned char *init; /* run before the loop, in every window (NULL: none) */
    uint32_t init_len;
    uint32_t loops, scratch_bytes, align;
    uint32_t copies_start, copies_step, ensembles, samples;
};

/* One request: ensembles x samples windows into out[e * samples + s]. TKS_ERANGE when the
 * module's probe refused it because one window is longer than the interrupts-off bound (or did
 * not return): *sample_ticks says how long it took; TKS_EIO with s->fault_where set when the
 * snippet raised an exception the module caught (s->fault_*); TKS_EPERM with s->snippet_refused
 * saying why when the module refuses snippets (0: the capability); other errors as
 * tks__kernel_ensemble. */
int tks__kernel_snippet(struct tks__kernel_session *s, const struct tks__kernel_snippet *q,
                        uint64_t *out, struct tks__ensemble_counts *counts,
                        uint64_t *sample_ticks);
void tks__kernel_close(struct tks__kernel_session *s);
/* Why the module does not offer cr0 now (tks_kmod_info.cr0_refused: 3 is lockdown), 0 when it
 * does or cannot be asked. */
uint32_t tks__kernel_cr0_refused(const char *device);

#endif
