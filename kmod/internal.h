/* internal.h: what the files of tickscope.ko share. The user/kernel protocol itself is
 * include/tickscope/kmod.h; this is only the module's inside. */
#ifndef TKS_KMOD_INTERNAL_H
#define TKS_KMOD_INTERNAL_H

#include <linux/completion.h>
#include <linux/types.h>
#include <tickscope/clock.h>
#include <tickscope/kmod.h>

/* One validated run, handed from the ioctl (main.c) to the CPU it runs on (run.c, sample.c). */
struct tks_job {
	/* in: already checked against the limits */
	u64 *buf;            /* ensembles x samples readings */
	u32 method;          /* enum tks_method, available on this CPU */
	u32 workload;        /* enum tks_kmod_workload */
	u32 own;             /* enum tks_kmod_own */
	u32 ensembles;
	u32 samples;
	u32 work_start;
	u32 work_step;
	int cpu;             /* the CPU the samples must come from */
	u64 bound_ticks;     /* end a section once it has lasted this many TSC ticks */
	bool check_aux;      /* RDTSCP exists: compare TSC_AUX around every sample */

	/* out */
	u64 migrated;
	u64 negative;
	u64 sections;
	u64 section_max_ticks;
	int cpu_used;
	int ret;             /* 0, or a negative errno */

	/* control: the caller sets abort when it has to give up (fatal signal) */
	int abort;
	struct completion done;
};

/* The state one batch of samples carries between sections of an ensemble (loops.c). */
struct tks_batch {
	u64 *out;            /* this ensemble's row: out[0..samples) */
	u32 samples;
	u32 next;            /* next sample to take; 0 is the one that is dropped */
	u32 workload;
	u32 work;            /* n for this ensemble */
	bool warm;           /* warm up (three begin/end pairs) before the next sample */
	bool check_aux;
	u64 start;           /* TSC at the start of the current section */
	u64 bound;           /* leave the batch once a reading is this far past start */
	u64 limit;           /* more retakes than this in one ensemble: give up */
	u64 migrated;        /* retakes in this ensemble */
	u64 negative;
};

/* A batch function takes samples of b->workload with one method until the ensemble is complete
 * (returns 0), one more sample would end the section past b->bound ticks (returns 1), or too
 * many samples had to be retaken (returns -EIO). Called with preemption (and perhaps interrupts) off; never sleeps. */
typedef int (*tks_batch_fn)(struct tks_batch *b);

/* loops.c */
tks_batch_fn tks_batch_for(u32 method);

/* sample.c */
u32 tks_methods_available(void);
u64 tks_section_bound_ticks(void);
void tks_sample_job(struct tks_job *job);

/* run.c */
int tks_run_job_on_cpu(struct tks_job *job);

#endif
