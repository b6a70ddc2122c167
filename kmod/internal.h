/* SPDX-License-Identifier: (GPL-2.0 OR MIT) */
/* internal.h: what the files of tickscope.ko share. The user/kernel protocol itself is
 * include/tickscope/kmod.h; this is only the module's inside. */
#ifndef TKS_KMOD_INTERNAL_H
#define TKS_KMOD_INTERNAL_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <tickscope/clock.h>
#include <tickscope/kmod.h>

/* The module's version, as DKMS and modinfo show it (kmod/dkms.conf says the same). */
#define TKS_KMOD_MODULE_VERSION "0.1.0"

struct tks_snippet; /* snippet.c */

/* One validated run, handed from the ioctl (main.c) to the CPU it runs on (run.c, sample.c).
 * Two references: the caller's and the kernel thread's. The last one frees the job and its
 * buffer, so a caller that had to give up (a fatal signal, a freeze) need not wait for a thread
 * that cannot get its CPU. */
struct tks_job {
	refcount_t refs;
	/* in: already checked against the limits */
	u64 *buf;            /* ensembles x samples readings (the job owns it until handed over) */
	u64 buf_bytes;
	u32 method;          /* enum tks_method, available on this CPU */
	u32 workload;        /* enum tks_kmod_workload */
	u32 own;             /* enum tks_kmod_own */
	u32 ensembles;
	u32 samples;
	u32 work_start;
	u32 work_step;
	int cpu;             /* the CPU the samples must come from */
	u64 bound_ticks;     /* no section may last longer than this many TSC ticks */
	u64 deadline_ns;     /* ktime_get_ns() past which the run stops with -ETIME */
	bool check_aux;      /* RDTSCP exists: compare TSC_AUX around every sample */
	struct tks_snippet *snippet; /* TKS_KWORK_SNIPPET: the code and its pages (the job owns it) */

	/* out */
	u64 migrated;
	u64 negative;
	u64 sections;
	u64 section_max_ticks;
	u64 sample_ticks;    /* one sample of the largest work, interrupts on (the probe) */
	int cpu_used;
	int ret;             /* 0, or a negative errno */
	u32 fault_where;     /* -ENOEXEC: enum tks_kmod_fault_where, */
	u32 fault_vector;    /* the exception */
	u32 fault_offset;    /* and where (see tks_kmod_run) */
	bool fault_oops;     /* the kernel reported it as an oops before the module took it */

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
	u64 bound;           /* the section may not end later than start + bound */
	u64 longest;         /* the longest sample (with its loop) seen: what the next may cost */
	u64 limit;           /* more retakes than this in one ensemble: give up */
	u64 migrated;        /* retakes in this ensemble */
	u64 negative;
	void *snip_fn;       /* TKS_KWORK_SNIPPET: the function for this ensemble's n copies, */
	void *snip_scratch;  /* its R14 */
	u64 snip_loops;      /* and its R15 */
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
/* cr0.c: why cr0 cannot run now (0: it can; see tks_kmod_info.cr0_refused; 3, lockdown, can
 * appear after load), and the one out-of-line CR0 write-back every cr0 loop calls. */
u32 tks_cr0_refused(void);

/* snippet.c, layout.c, escape.c (their own header: snippet.h): the caller's code
 * (TKS_KWORK_SNIPPET). refusal says whether snippets may run now for the calling process
 * (enum tks_kmod_refusal; run: for a RUN, the capability checked as the kernel checks it, with
 * an audit record; for INFO, only asked); cool_down waits, killably, until a run may claim the area after one
 * whose call had to be stopped. new copies and checks run->snippet (largest: the run's largest n) and
 * claims the module's area: 0, -EFAULT, -EINVAL, -EBUSY or -ENOMEM; free gives it back, filled
 * with INT3 again (NULL is fine). use lays out the function for n copies if it is not the one in
 * place (then 1; 0 if it was; or a negative errno), on the CPU that will run it, and points the
 * batch at it. watch marks a stretch of calls (a probe sample, a section) that the watchdog, on
 * another CPU, ends with an NMI when a call stays TKS_KMOD_ESCAPE_MS in the snippet (escaped then says so: the
 * ticks from the stretch's start to that moment, 0 when it never happened); watchdog starts and
 * stops it, on the snippet's CPU (-EOPNOTSUPP with no other CPU online). check, after a stretch
 * and before interrupts come back, repairs RFLAGS and reports a fault or changed flags
 * (-ENOEXEC, job->fault_*). init/exit allocate the module's stack and register the NMI handler
 * and the die notifier. top is where the loop's first copy goes. */
u32 tks_snippet_refusal(bool run);
int tks_snippet_cool_down(void);
int tks_snippet_new(const struct tks_kmod_run *r, u32 largest, struct tks_snippet **out);
void tks_snippet_free(struct tks_snippet *s);
int tks_snippet_use(struct tks_snippet *s, u32 copies, struct tks_batch *b);
void tks_snippet_watch(struct tks_snippet *s, bool on);
u64 tks_snippet_escaped(const struct tks_snippet *s);
int tks_snippet_watchdog(struct tks_snippet *s, bool on);
int tks_snippet_check(struct tks_snippet *s, bool irqs_on, struct tks_job *job);
int tks_snippet_init(void);
void tks_snippet_exit(void);
u32 tks_snippet_top(u32 init_len, u32 align);

/* area.c: the snippet area's address (hidden from the compiler), and the last fault the sled or
 * the die notifier recorded (vector, TKS_AREA_BYTES - byte, whether one happened). The area's
 * exception-table entries start at TKS_OFF_BODY (the init code and the loop; before it, the
 * module's own entry and escape). */
#define TKS_AREA_BYTES (6 * 4096)
#define TKS_OFF_BODY 256
unsigned long tks_area(void);
extern u32 tks_fault_vector, tks_fault_left, tks_fault_hit;

/* guard.c: whether the kernel is locked down (LOCKDOWN_MSR, as the msr driver), whether
 * kernel.modules_disabled is set (or cannot be read); the taint and the rate-limited line of
 * every run of a snippet (or else of the cr0 method), on which CPU. */
bool tks_locked_down(void);
bool tks_modules_disabled(void);
void tks_note_ring0_run(bool snippet, int cpu);

/* run.c */
/* A job with a buffer of count samples and one reference (the caller's); NULL without memory. */
struct tks_job *tks_job_new(u64 count);
void tks_job_put(struct tks_job *job);
/* Run job on job->cpu in a kernel thread: 0 or a negative errno. The caller keeps its reference.
 * On 0 the thread has finished with the job, so its buffer may be taken; on an error the thread
 * may still be finishing and the buffer must stay with the job. */
int tks_run_job_on_cpu(struct tks_job *job);

/* main.c: sample memory not yet freed, module-wide (reported at unload). */
extern atomic64_t tks_bytes;

/* params.c: the interrupts-off bound in force (section_us), the longest a run may last
 * (max_run_ms, clamped, in ns and ms), whether snippets were allowed at load (allow_snippets). */
unsigned int tks_section_us(void);
u64 tks_max_run_ns(void);
unsigned int tks_max_run_ms(void);
bool tks_allow_snippets(void);

#endif
