// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* run.c: running a job on the CPU it asks for, in a kernel thread bound to that CPU. The caller
 * waits killably and in bounded steps: a fatal signal, a system freeze (suspend) or a thread that
 * never gets its CPU ends the wait at once, and the job, shared by reference, outlives whichever
 * side lets go first. */
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/freezer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "internal.h"

/* How often the waiting caller looks at the freezer and the deadline, and how long it gives the
 * thread to notice an abort (one section is 1 ms) before leaving it to finish alone. */
#define TKS_POLL_MS 20
#define TKS_ABORT_WAIT_MS 50
/* A thread that has not finished this long after the run's deadline cannot get its CPU. */
#define TKS_LATE_MS 1000

struct tks_job *tks_job_new(u64 count)
{
	struct tks_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	job->buf = kvmalloc_array(count, sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!job->buf) {
		kfree(job);
		return NULL;
	}
	job->buf_bytes = count * sizeof(u64);
	atomic64_add(job->buf_bytes, &tks_bytes);
	refcount_set(&job->refs, 1);
	init_completion(&job->done);
	return job;
}

void tks_job_put(struct tks_job *job)
{
	if (!refcount_dec_and_test(&job->refs))
		return;
	if (job->buf) {
		kvfree(job->buf);
		atomic64_sub(job->buf_bytes, &tks_bytes);
	}
	tks_snippet_free(job->snippet);
	kfree(job);
}

/* The thread holds a reference to the job and one to the module: the module cannot be unloaded
 * while a thread of a caller that gave up is still finishing. */
static int tks_thread(void *arg)
{
	struct tks_job *job = arg;

	tks_sample_job(job);
	/* The snippet's area goes back before the caller hears of the end: its next run may
	 * follow at once. */
	tks_snippet_free(job->snippet);
	job->snippet = NULL;
	complete(&job->done);
	tks_job_put(job);
	module_put_and_kthread_exit(0);
}

int tks_run_job_on_cpu(struct tks_job *job)
{
	u64 late = job->deadline_ns + (u64)TKS_LATE_MS * NSEC_PER_MSEC;
	struct task_struct *t;
	int why;

	WRITE_ONCE(job->abort, 0);
	__module_get(THIS_MODULE); /* we run inside an ioctl of an open file: the module is held */
	refcount_inc(&job->refs);
	t = kthread_create_on_node(tks_thread, job, cpu_to_node(job->cpu), "tickscope/%d", job->cpu);
	if (IS_ERR(t)) {
		refcount_dec(&job->refs);
		module_put(THIS_MODULE);
		return PTR_ERR(t);
	}
	kthread_bind(t, job->cpu);
	wake_up_process(t);

	/* Killable, not interruptible: a handled signal must not throw away a long run; and in
	 * steps, because the freezer's wake-up does not reach a killable sleep. */
	for (;;) {
		long left = wait_for_completion_killable_timeout(&job->done,
								 msecs_to_jiffies(TKS_POLL_MS));
		if (left > 0)
			return job->ret;
		if (left < 0) {
			why = -EINTR; /* a fatal signal */
			break;
		}
		if (freezing(current)) {
			why = -EINTR; /* suspend: give the CPU back, report the run as interrupted */
			break;
		}
		if (ktime_get_ns() > late) {
			why = -ETIME; /* the thread never got its CPU (a real-time hog on it) */
			break;
		}
	}
	WRITE_ONCE(job->abort, 1);
	/* Usually the thread stops within a section; if not, it finishes alone and the last
	 * reference frees the job. Either way the caller leaves now. */
	if (wait_for_completion_timeout(&job->done, msecs_to_jiffies(TKS_ABORT_WAIT_MS)))
		return job->ret ? job->ret : why;
	return why;
}
