/* kernel.h: ensembles taken by the kernel module through /dev/tickscope, one ensemble per
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
};

/* Open the device (NULL: /dev/tickscope) and check the module's protocol version. */
int tks__kernel_open(struct tks__kernel_session *s, const char *device, enum tks_where where,
                    enum tks_method method, int cpu);
/* One ensemble of `samples` windows carrying `work` dependent adds (0: the empty window) into
 * out; the module warms up and drops the first sample as user space does. */
int tks__kernel_ensemble(struct tks__kernel_session *s, uint64_t *out, uint32_t samples,
                        uint32_t work, struct tks__ensemble_counts *counts);
void tks__kernel_close(struct tks__kernel_session *s);

#endif
