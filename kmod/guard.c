// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* guard.c: what the module asks of the kernel before it runs code of the caller's or writes a
 * control register, as the msr driver (arch/x86/kernel/msr.c) does for MSR writes: no lockdown,
 * and a taint plus a rate-limited line naming the process for every such run; for code, also
 * what loading a module asks (kernel.modules_disabled unset). */
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/path.h>
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/security.h>

#include "internal.h"

/* LOCKDOWN_MSR is what the msr driver refuses writes for, at both lockdown levels (integrity
 * and confidentiality): a snippet can WRMSR, and the cr0 method writes CR0. Asked at every
 * request, since root can raise lockdown at any time (never lower it). */
bool tks_locked_down(void)
{
	return security_locked_down(LOCKDOWN_MSR) != 0;
}

/* kernel.modules_disabled, which the kernel does not export to modules: read from
 * /proc/sys/kernel/modules_disabled as init's root sees it (as kernel_read_file_from_path_initns
 * opens a file, which cannot read this one: procfs gives it no size), so that a caller cannot
 * mount a file of its own over it in a namespace of its own. Once set it cannot be unset; a file
 * that cannot be read counts as set. */
bool tks_modules_disabled(void)
{
	struct path root;
	struct file *f;
	loff_t pos = 0;
	char c = '1';

	task_lock(&init_task);
	get_fs_root(init_task.fs, &root);
	task_unlock(&init_task);
	f = file_open_root(&root, "/proc/sys/kernel/modules_disabled", O_RDONLY, 0);
	path_put(&root);
	if (IS_ERR(f))
		return true;
	if (kernel_read(f, &c, 1, &pos) != 1)
		c = '1';
	filp_close(f, NULL);
	return c != '0';
}

/* TAINT_CPU_OUT_OF_SPEC ('S') is the msr driver's taint for writes it cannot vouch for; a
 * snippet can do what such a write does (and more), the cr0 method writes a control register.
 * The line is rate-limited as the msr driver's (a run of `tickscope asm --kernel` makes many
 * requests): ten lines every 30 s for snippets, ten for cr0, so that neither hides the other;
 * the taint is set every time. */
void tks_note_ring0_run(bool snippet, int cpu)
{
	static DEFINE_RATELIMIT_STATE(rs_snippet, 30 * HZ, 10);
	static DEFINE_RATELIMIT_STATE(rs_cr0, 30 * HZ, 10);

	add_taint(TAINT_CPU_OUT_OF_SPEC, LOCKDEP_STILL_OK);
	if (__ratelimit(snippet ? &rs_snippet : &rs_cr0))
		pr_warn("tickscope: %s run by %s (pid %d) on CPU %d, tainting CPU_OUT_OF_SPEC\n",
			snippet ? "a snippet" : "the cr0 method", current->comm,
			task_pid_nr(current), cpu);
}
