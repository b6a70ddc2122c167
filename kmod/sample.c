// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* sample.c: owning a CPU in bounded sections. Interrupts (or only preemption) go off for one
 * section, a batch of samples runs until a reading passes the bound, then they come back on and
 * the scheduler gets its chance (cond_resched) before the next section. */
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/limits.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#include "internal.h"

/* The methods this kernel can run: bit m for enum tks_method m. The kernel's own view of the
 * CPU's features (it may have turned some off) feeds the same availability rule user space uses,
 * for every method of the one list. */
u32 tks_methods_available(void)
{
	struct tks_cpu_features f = {};
	u32 mask = 0;

	f.tsc = boot_cpu_has(X86_FEATURE_TSC);
	f.rdtscp = boot_cpu_has(X86_FEATURE_RDTSCP);
	f.sse2 = boot_cpu_has(X86_FEATURE_XMM2);
#ifdef X86_FEATURE_SERIALIZE
	f.serialize = boot_cpu_has(X86_FEATURE_SERIALIZE);
#endif
	/* (Whether cr0 may run in this guest is cr0.c's to say.) */
#define TKS_AVAILABLE_BIT(m, M, flags)                                                   \
	if (tks_method_available(TKS_METHOD_##M, &f))                                    \
		mask |= BIT(TKS_METHOD_##M);
	TKS_METHOD_EACH_HERE(TKS_AVAILABLE_BIT)
	return mask;
}

/* The section bound (tks_section_us) in TSC ticks. Without a known rate, assume a slow TSC (100 MHz): every
 * real one is faster, so the sections only get shorter. */
u64 tks_section_bound_ticks(void)
{
	u64 khz = tsc_khz ? tsc_khz : 100000;

	return khz * tks_section_us() / 1000;
}

/* A snippet may use the SSE and AVX registers: the kernel's own use of them is bracketed so. And
 * the watchdog on another CPU looks at every stretch of its calls. */
static void tks_snippet_enter(struct tks_job *job)
{
	if (!job->snippet)
		return;
	kernel_fpu_begin();
	tks_snippet_watch(job->snippet, true);
}

static void tks_snippet_leave(struct tks_job *job)
{
	if (!job->snippet)
		return;
	tks_snippet_watch(job->snippet, false);
	kernel_fpu_end();
}

/* After a stretch of a snippet's calls, still on its CPU: its flags and faults (snippet.c). */
static int tks_snippet_after(struct tks_job *job, bool irqs_on, int r)
{
	int f = job->snippet ? tks_snippet_check(job->snippet, irqs_on, job) : 0;

	return f && r >= 0 ? f : r;
}

/* One section: own the CPU, take samples until the ensemble is done or the bound is reached,
 * give the CPU back. Returns what the batch returned, or -EAGAIN when the thread is no longer on
 * its CPU (it went offline and the scheduler moved us). */
static int tks_section(struct tks_job *job, tks_batch_fn fn, struct tks_batch *b)
{
	unsigned long flags = 0;
	u64 t_end = 0;
	int r = -EAGAIN;

	preempt_disable();
	tks_snippet_enter(job);
	/* Not the raw variant: the irqsoff tracer and lockdep see the section. */
	if (job->own == TKS_KOWN_IRQ_OFF)
		local_irq_save(flags);
	if (smp_processor_id() == job->cpu) {
		b->start = rdtsc_ordered();
		r = fn(b);
		t_end = rdtsc_ordered();
		r = tks_snippet_after(job, job->own != TKS_KOWN_IRQ_OFF, r);
	}
	if (job->own == TKS_KOWN_IRQ_OFF)
		local_irq_restore(flags);
	tks_snippet_leave(job);
	preempt_enable();

	if (r != -EAGAIN) {
		job->sections++;
		if (t_end - b->start > job->section_max_ticks)
			job->section_max_ticks = t_end - b->start;
	}
	return r;
}

/* One sample of `work`, with preemption off but interrupts on: the shortest of three, so that an
 * interrupt does not refuse a workload that fits, into job->sample_ticks. A ring-0 method (cr0)
 * takes it with interrupts off, as it runs: nothing may change CR0 between its read and its
 * write; a snippet's calls turn them off themselves. The probe before the run takes the largest
 * work; a snippet also takes each ensemble's n after laying it out (cold code; under TCG, its
 * translation), watched as the probe is. Returns 0, -EAGAIN when the thread is not on its CPU,
 * -ENOEXEC when the snippet faulted, or a layout's error. */
static int tks_probe(struct tks_job *job, tks_batch_fn fn, u32 work)
{
	bool ring0 = tks_method_info((enum tks_method)job->method)->flags & TKS_MF_RING0;
	struct tks_batch b = { 0 };
	u64 out[2], best = U64_MAX;
	unsigned long flags = 0;
	int i, r = 0;

	b.out = out;
	b.samples = 1;
	b.workload = job->workload;
	b.work = work;
	b.check_aux = false;
	b.bound = U64_MAX;
	b.limit = 1000;
	if (job->snippet) {
		r = tks_snippet_use(job->snippet, b.work, &b);
		if (r < 0)
			return r;
		r = 0;
	}
	for (i = 0; i < 3 && !r; i++) {
		b.next = 0;
		b.warm = true;
		preempt_disable();
		tks_snippet_enter(job);
		if (ring0)
			local_irq_save(flags);
		if (smp_processor_id() != job->cpu) {
			r = -EAGAIN;
		} else {
			b.start = rdtsc_ordered();
			r = tks_snippet_after(job, !ring0, fn(&b));
		}
		if (ring0)
			local_irq_restore(flags);
		tks_snippet_leave(job);
		preempt_enable();
		if (!r && out[0] < best)
			best = out[0];
		/* Taken out by the watchdog: it did not return. What it ran until then is the
		 * sample (the window after it may be cut short by the timer's next step). */
		if (job->snippet && tks_snippet_escaped(job->snippet)) {
			best = max_t(u64, tks_snippet_escaped(job->snippet), job->bound_ticks + 1);
			break;
		}
	}
	job->sample_ticks = best == U64_MAX ? 0 : best;
	return r < 0 ? r : 0;
}

/* Between sections: the caller's abort, the deadline, and lockdown, which root can raise while a
 * run of code in ring 0 (a snippet, the cr0 method) is going on. */
static bool tks_should_stop(struct tks_job *job)
{
	if ((job->snippet || job->method == TKS_METHOD_CR0) && tks_locked_down()) {
		job->ret = -EPERM;
		return true;
	}
	if (READ_ONCE(job->abort)) {
		job->ret = -EINTR;
		return true;
	}
	if (ktime_get_ns() > job->deadline_ns) {
		job->ret = -ETIME;
		return true;
	}
	return false;
}

/* Runs in a thread bound to job->cpu (run.c). The probe first: a workload one sample of which
 * would keep interrupts off past the bound is refused. Then ensembles in order, each as many
 * sections as it needs, warmed up again at the start of every section (the gap with interrupts
 * on may have evicted what the first warm-up loaded); between sections the scheduler may run,
 * and the caller may abort us. */
static void tks_sample_ensembles(struct tks_job *job)
{
	tks_batch_fn fn = tks_batch_for(job->method);
	u64 largest;
	struct tks_batch b = { 0 };
	u32 e;
	int r;

	job->cpu_used = raw_smp_processor_id();
	job->ret = 0;
	if (!fn) {
		job->ret = -EOPNOTSUPP;
		return;
	}
	r = tks_probe(job, fn, job->work_start + (job->ensembles - 1) * job->work_step);
	if (r < 0) {
		job->ret = r;
		return;
	}
	if (job->sample_ticks > job->bound_ticks) {
		job->ret = -EINVAL;
		return;
	}
	largest = job->sample_ticks;
	b.samples = job->samples;
	b.workload = job->workload;
	b.check_aux = job->check_aux;
	b.bound = job->bound_ticks;
	b.limit = (u64)job->samples * 10 + 1000; /* as user space: more retakes is not a clock */
	for (e = 0; e < job->ensembles; e++) {
		b.out = job->buf + (size_t)e * job->samples;
		b.next = 0;
		b.longest = 0;
		b.work = job->work_start + e * job->work_step;
		b.migrated = 0;
		b.negative = 0;
		r = job->snippet ? tks_snippet_use(job->snippet, b.work, &b) : 0;
		if (r < 0) {
			job->ret = r;
			return;
		}
		if (r) {
			r = tks_probe(job, fn, b.work);
			if (!r && job->sample_ticks > job->bound_ticks)
				r = -EINVAL; /* a smaller n longer than the largest: refused as well */
			else
				job->sample_ticks = largest;
			if (r < 0) {
				job->ret = r;
				return;
			}
		}
		do {
			if (tks_should_stop(job))
				return;
			b.warm = true;
			r = tks_section(job, fn, &b);
			cond_resched();
			if (r >= 0 && job->snippet && tks_snippet_escaped(job->snippet))
				r = -ETIME; /* a call that did not return, taken out by the watchdog */
		} while (r == 1);
		job->migrated += b.migrated;
		job->negative += b.negative;
		if (r < 0) {
			job->ret = r;
			return;
		}
	}
}

/* The ensembles, with the snippet's watchdog (on another CPU) running for as long as they do. */
void tks_sample_job(struct tks_job *job)
{
	if (job->snippet) {
		job->ret = tks_snippet_watchdog(job->snippet, true);
		if (job->ret)
			return;
	}
	tks_sample_ensembles(job);
	if (!job->snippet)
		return;
	tks_snippet_watchdog(job->snippet, false);
	if (job->ret == -ENOEXEC && job->fault_oops)
		pr_warn("tickscope: the oops above (vector %u) was a snippet's, on CPU %d: contained, the module ended the run\n",
			job->fault_vector, job->cpu);
}
