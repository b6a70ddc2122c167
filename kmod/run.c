// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* run.c: running a job on the CPU it asks for, in a kernel thread bound to that CPU, while the
 * caller waits killably: a fatal signal stops the job between two sections. */
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/topology.h>

#include "internal.h"

/* The thread samples, reports, then waits to be stopped: kthread_stop() returning means it has
 * left this module's code, so the module can be unloaded safely afterwards. */
static int tks_thread(void *arg)
{
	struct tks_job *job = arg;

	tks_sample_job(job);
	complete(&job->done);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

int tks_run_job_on_cpu(struct tks_job *job)
{
	struct task_struct *t;
	int ret = 0;

	init_completion(&job->done);
	WRITE_ONCE(job->abort, 0);
	t = kthread_create_on_node(tks_thread, job, cpu_to_node(job->cpu), "tickscope/%d", job->cpu);
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, job->cpu);
	wake_up_process(t);

	/* Killable, not interruptible: a handled signal must not throw away a long run; and not
	 * uninterruptible, so a long run neither blocks SIGKILL nor looks like a hung task. */
	if (wait_for_completion_killable(&job->done)) {
		WRITE_ONCE(job->abort, 1);
		wait_for_completion(&job->done); /* at most one section and one reschedule away */
		ret = -EINTR;
	}
	kthread_stop(t);
	if (!ret)
		ret = job->ret;
	return ret;
}
