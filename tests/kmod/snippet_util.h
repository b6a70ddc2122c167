/* SPDX-License-Identifier: MIT */
/* snippet_util.h: what the programs that run snippets through /dev/tickscope in the test VM
 * share (kmod_hazards.c, kmod_contain.c): a snippet request, a harmless one that must still run,
 * the clock. Include once per program, after abuse_util.h. */
#ifndef TKS_TESTS_KMOD_SNIPPET_UTIL_H
#define TKS_TESTS_KMOD_SNIPPET_UTIL_H

#include "abuse_util.h"

#define SNIPPET_CPU 1 /* the module's thread; the heartbeat runs on CPU 0 */

static unsigned method; /* the clock method of every request: lfence, or cpuid */

/* A snippet request of 4 copies of code (4 loops, 64 bytes of scratch), one ensemble of 20
 * samples, on CPU 1 where there is one. */
static inline struct tks_kmod_run snippet(struct tks_kmod_snippet *sn, const void *code,
                                          uint32_t len, const void *init, uint32_t init_len,
                                          unsigned own)
{
    struct tks_kmod_run r = base_run(method);
    memset(sn, 0, sizeof(*sn));
    sn->code = (uintptr_t)code;
    sn->code_len = len;
    sn->init = init_len ? (uintptr_t)init : 0;
    sn->init_len = init_len;
    sn->loops = 4;
    sn->scratch_bytes = 64;
    r.own = own;
    r.workload = TKS_KWORK_SNIPPET;
    r.snippet = (uintptr_t)sn;
    r.work_start = 4;
    r.ensembles = 1;
    r.samples = 20;
    r.cpu = (int)info.nr_cpu_ids > SNIPPET_CPU ? SNIPPET_CPU : -1;
    return r;
}

static inline const char *own_name(unsigned own)
{
    return own == TKS_KOWN_IRQ_OFF ? "irq-off" : "preempt-off";
}

/* A harmless snippet runs: the device still works. */
static inline void still_works(int fd, const char *after)
{
    static const unsigned char nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = snippet(&sn, nop, 1, NULL, 0, TKS_KOWN_IRQ_OFF);
    char what[200];
    snprintf(what, sizeof(what), "a nop snippet after %s", after);
    good_run(fd, r, what, NULL);
}

static inline double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

#endif
