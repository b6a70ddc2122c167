/* SPDX-License-Identifier: MIT */
/* tickscope/sample.h: taking samples: E ensembles of S samples of one method's window, in this
 * process or by the kernel module, into a buffer allocated before the first sample. */
#ifndef TICKSCOPE_SAMPLE_H
#define TICKSCOPE_SAMPLE_H

#include "clock.h"
#include "common.h"
#include "method.h"

#ifdef __cplusplus
extern "C" {
#endif

/* * E ensembles of S samples of one method's empty (or working) window, into a buffer allocated
 * before the first sample. The window of ensemble e holds work_start + e * work_step dependent
 * register adds (add %reg,%reg: add-immediate chains are folded at rename on recent Intel cores). */

#define TKS_WORK_MAX 200u          /* most dependent adds one window can carry */
#define TKS_SAMPLES_MAX 100000000u /* per ensemble */
#define TKS_ENSEMBLES_MAX 100000u

typedef void (*tks_progress_fn)(void *ctx, uint64_t done, uint64_t total);


typedef struct tks_sample_plan {
    enum tks_method method;
    uint32_t ensembles;      /* E >= 1 */
    uint32_t samples;        /* S >= 2 per ensemble (upper bound when budget_s > 0) */
    uint32_t work_start;     /* dependent adds in ensemble 0 */
    uint32_t work_step;      /* added for each later ensemble */
    double budget_s;         /* > 0: fewer samples per ensemble (never below min_samples) so the run fits */
    uint32_t min_samples;    /* floor for the budget (0: 100) */
    int pin_cpu;             /* >= 0: pin to this CPU for the run; -1: leave the affinity alone */
    int fifo;                /* run ensembles under SCHED_FIFO, paced to stay clear of RT throttling */
    const char *root;        /* where /proc lives (NULL or "" for "/"): tests use fixture trees */
    tks_progress_fn progress;/* called between ensembles, never inside one */
    void *progress_ctx;
    enum tks_where where;    /* TKS_WHERE_USER, or a kernel mode: pin_cpu then names the CPU the
                                module runs on, and fifo does not apply */
    const char *kernel_device; /* NULL: /dev/tickscope */
} tks_sample_plan;

typedef struct tks_sample_run {
    uint64_t *ticks;            /* ensembles x samples, row-major: ticks[e * samples + s] */
    uint32_t ensembles, samples;/* as taken (samples may be fewer than planned under a budget) */
    uint64_t discarded_migrated;/* begin and end TSC_AUX differed: the thread changed CPU */
    uint64_t discarded_negative;/* end reading before begin reading */
    uint64_t warmup_discarded;  /* first sample of each ensemble, taken and dropped */
    int aux_checked;            /* migrations could be detected (RDTSCP present) */
    int budget_limited;         /* samples were reduced to fit budget_s */
    double seconds_per_sample;  /* from the pilot run, wall clock */
    int pin_status;             /* 0 pinned or not asked; else an errno-style code */
    int fifo_status;            /* 0 under SCHED_FIFO or not asked; else an errno-style code */
    uint32_t rt_pauses;         /* pauses taken between ensembles to avoid RT throttling */
    double seconds;             /* wall time of the whole run */
    /* Kernel runs only: how the CPU was owned. */
    uint64_t kernel_sections;   /* stretches with interrupts (or preemption) off */
    uint64_t kernel_section_max_ticks; /* the longest of them */
    int kernel_cpu;             /* the CPU the module ran on (-1 in user space) */
} tks_sample_run;

/* Fill plan with defaults for method: 100 x 10000, no work, no pinning. */
TKS_API void tks_sample_plan_init(tks_sample_plan *plan, enum tks_method method);
/* Take the samples. On success run->ticks must be released with tks_sample_run_free. */
TKS_API int tks_sample_take(const tks_sample_plan *plan, tks_sample_run *run);
TKS_API void tks_sample_run_free(tks_sample_run *run);
/* Deltas between n+1 consecutive begin readings of a method, back to back. */
TKS_API int tks_sample_read_deltas(enum tks_method method, uint64_t *deltas, size_t n);
/* The same with a varying amount of work before each reading, so that the deltas vary and the
 * timer's step is the only divisor they share (see tks_quantum_from_deltas). */
TKS_API int tks_sample_read_spread_deltas(enum tks_method method, uint64_t *deltas, size_t n);
/* 1 if samples can be taken with method m where; for the kernel, as its module says. */
TKS_API int tks_method_available_where(enum tks_method m, enum tks_where where, const char *kernel_device);

/* What the kernel module offers (TKS_ENODEV when it is not loaded, TKS_EPERM without the
 * right to open its device, TKS_EBUSY when another process has it open). */
typedef struct tks_kernel_info {
    uint32_t abi;          /* the module's protocol version */
    uint32_t methods;      /* bit m: method m runs in the kernel (cr0 among them) */
    uint32_t total_max;    /* ensembles x samples per run */
    uint32_t section_us;   /* bound on one stretch with interrupts off */
    uint64_t tsc_khz;      /* the kernel's TSC rate */
} tks_kernel_info;
TKS_API int tks_kernel_probe(const char *device, tks_kernel_info *info);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_SAMPLE_H */
