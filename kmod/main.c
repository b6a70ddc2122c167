// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* main.c: tickscope.ko's device /dev/tickscope: one open at a time, the four ioctls of
 * include/tickscope/kmod.h with every field checked, and the sample buffer's lifetime. */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include "internal.h"

/* The oldest kernel the module is built and booted against (kmod/README.md, "Kernels"). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "tickscope.ko needs Linux 6.1 or later"
#endif

/* Per open file (there is only ever one). The mutex serialises ioctls from several threads. */
struct tks_file {
	struct mutex lock;
	u64 *buf;      /* the last run's samples, or NULL */
	u64 count;     /* how many */
};

static unsigned long tks_busy;         /* bit 0: the device is open */
atomic64_t tks_bytes = ATOMIC64_INIT(0); /* sample memory not yet freed, module-wide */
static u32 tks_methods;                /* what this CPU can run, fixed at load (cr0 included) */

/* The methods that may run now, and why cr0 is not among them (0: it is); lockdown can come
 * after load. */
static u32 tks_methods_now(u32 *cr0_why)
{
	*cr0_why = tks_cr0_refused();
	return *cr0_why ? tks_methods & ~BIT(TKS_METHOD_CR0) : tks_methods;
}

static u32 tks_work_max(u32 workload)
{
	switch (workload) {
	case TKS_KWORK_ADDS:  return TKS_KMOD_ADDS_MAX;
	case TKS_KWORK_LOOP:  return TKS_KMOD_LOOP_MAX;
	case TKS_KWORK_PROBE: return TKS_KPROBE_COUNT - 1;
	case TKS_KWORK_SNIPPET: return TKS_KMOD_SNIPPET_COPIES_MAX;
	default:              return 0;
	}
}

static void tks_free_samples(struct tks_file *f)
{
	if (f->buf) {
		kvfree(f->buf);
		atomic64_sub(f->count * sizeof(u64), &tks_bytes);
	}
	f->buf = NULL;
	f->count = 0;
}

static int tks_ioc_info(void __user *argp)
{
	struct tks_kmod_info info;
	u32 w;

	memset(&info, 0, sizeof(info));
	info.abi = TKS_KMOD_ABI;
	info.methods = tks_methods_now(&info.cr0_refused);
	info.snippet_refused = tks_snippet_refusal(false);
	info.total_max = TKS_KMOD_TOTAL_MAX;
	info.ensembles_max = TKS_KMOD_TOTAL_MAX / 2; /* samples >= 2 */
	info.samples_max = TKS_KMOD_TOTAL_MAX;       /* ensembles >= 1 */
	for (w = 0; w < TKS_KWORK_COUNT; w++)
		info.work_max[w] = tks_work_max(w);
	info.section_us = tks_section_us();
	info.nr_cpu_ids = nr_cpu_ids;
	info.tsc_khz = boot_cpu_has(X86_FEATURE_TSC) ? tsc_khz : 0;
	info.max_run_ms = tks_max_run_ms();
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

/* Every input field, in the order of the structure; -EPROTO first so an old caller learns why. */
static int tks_check_run(const struct tks_kmod_run *r, int *cpu)
{
	u32 i, methods, cr0_why;
	u64 last;

	if (r->abi != TKS_KMOD_ABI)
		return -EPROTO;
	if (r->flags || r->fault_vector || r->fault_where || r->fault_offset)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(r->reserved); i++)
		if (r->reserved[i])
			return -EINVAL;
	if (r->method >= TKS_METHOD_COUNT)
		return -EINVAL;
	methods = tks_methods_now(&cr0_why);
	if (!(methods & BIT(array_index_nospec(r->method, TKS_METHOD_COUNT))))
		return r->method == TKS_METHOD_CR0 && cr0_why == 3 ? -EPERM : -EOPNOTSUPP;
	if (r->workload >= TKS_KWORK_COUNT || r->own >= TKS_KOWN_COUNT)
		return -EINVAL;
	/* A privileged end sequence (the CR0 write-back) only with interrupts off: nothing may run
	 * on this CPU between its read and its write. */
	if ((tks_method_info((enum tks_method)r->method)->flags & TKS_MF_RING0) &&
	    r->own != TKS_KOWN_IRQ_OFF)
		return -EINVAL;
	if (r->ensembles < 1 || r->samples < 2)
		return -EINVAL;
	if ((u64)r->ensembles * r->samples > TKS_KMOD_TOTAL_MAX) /* 32 x 32 bits: no overflow */
		return -EINVAL;
	if (r->workload == TKS_KWORK_PROBE && r->work_step)
		return -EINVAL;
	if (!r->snippet != (r->workload != TKS_KWORK_SNIPPET)) /* its code, and only for it */
		return -EINVAL;
	last = r->work_start + (u64)(r->ensembles - 1) * r->work_step; /* < 2^64 */
	if (last > tks_work_max(r->workload))
		return -EINVAL;
	if (r->cpu == -1) {
		*cpu = raw_smp_processor_id(); /* where the caller is now; it may move, we will not */
	} else {
		if (r->cpu < 0 || (unsigned int)r->cpu >= nr_cpu_ids || !cpu_online(r->cpu))
			return -EINVAL;
		*cpu = r->cpu;
	}
	return 0;
}

static int tks_ioc_run(struct tks_file *f, void __user *argp)
{
	struct tks_snippet *snippet = NULL;
	struct tks_kmod_run r;
	struct tks_job *job;
	u64 count, t0;
	int cpu = 0, ret;

	/* At every run, not only at open: a descriptor may have been passed to, or kept by, a
	 * process without the privilege. */
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	if (copy_from_user(&r, argp, sizeof(r)))
		return -EFAULT;
	ret = tks_check_run(&r, &cpu);
	if (ret)
		return ret;
	/* Snippets: only when allowed at load, not locked down, with modules loadable and a caller
	 * who could load one (EPERM), and with a second CPU to watch them (EOPNOTSUPP). After the
	 * cool-down of a run whose call had to be stopped, the snippet's own fields, before
	 * anything is replaced, as the run's are. */
	if (r.workload == TKS_KWORK_SNIPPET) {
		switch (tks_snippet_refusal(true)) {
		case TKS_KREFUSE_NONE:
			break;
		case TKS_KREFUSE_ONE_CPU:
			return -EOPNOTSUPP;
		default:
			return -EPERM;
		}
		ret = tks_snippet_cool_down();
		if (ret)
			return ret;
		ret = tks_snippet_new(&r, r.work_start + (r.ensembles - 1) * r.work_step, &snippet);
		if (ret)
			return ret;
		tks_note_ring0_run(true, cpu);
	} else if (r.method == TKS_METHOD_CR0) {
		tks_note_ring0_run(false, cpu);
	}

	tks_free_samples(f); /* a new run replaces the last one, even if it fails */
	count = (u64)r.ensembles * r.samples;
	job = tks_job_new(count);
	if (!job) {
		tks_snippet_free(snippet);
		return -ENOMEM;
	}
	job->snippet = snippet;
	job->method = r.method;
	job->workload = r.workload;
	job->own = r.own;
	job->ensembles = r.ensembles;
	job->samples = r.samples;
	job->work_start = r.work_start;
	job->work_step = r.work_step;
	job->cpu = cpu;
	job->bound_ticks = tks_section_bound_ticks();
	job->check_aux = boot_cpu_has(X86_FEATURE_RDTSCP);

	t0 = ktime_get_ns();
	job->deadline_ns = t0 + tks_max_run_ns();
	ret = tks_run_job_on_cpu(job);
	r.elapsed_ns = ktime_get_ns() - t0;
	r.sample_ticks = job->sample_ticks;
	if (ret == -ENOEXEC) {
		r.fault_where = job->fault_where;
		r.fault_vector = job->fault_vector;
		r.fault_offset = job->fault_offset;
	}
	if (!ret) {
		r.migrated = job->migrated;
		r.negative = job->negative;
		r.sections = job->sections;
		r.section_max_ticks = job->section_max_ticks;
		r.cpu_used = job->cpu_used;
		/* The thread is done with the buffer: the file keeps it for READ. */
		f->buf = job->buf;
		f->count = count;
		job->buf = NULL;
	}
	tks_job_put(job);

	/* Back to the caller on success, when the probe refused the workload, so that it can say
	 * by how much, and when a snippet faulted, so that it can say where. */
	if ((!ret || (ret == -EINVAL && r.sample_ticks) || ret == -ENOEXEC) &&
	    copy_to_user(argp, &r, sizeof(r)))
		ret = -EFAULT;
	return ret;
}

static int tks_ioc_read(struct tks_file *f, void __user *argp)
{
	struct tks_kmod_read rd;
	u64 n;

	if (copy_from_user(&rd, argp, sizeof(rd)))
		return -EFAULT;
	if (rd.reserved)
		return -EINVAL;
	if (!f->buf)
		return -ENODATA;
	if (rd.first > f->count)
		return -EINVAL;
	rd.first = array_index_nospec(rd.first, f->count + 1); /* no speculative read past it */
	n = min_t(u64, rd.count, f->count - rd.first); /* 0 at the end, as read(2) */
	if (n && copy_to_user(u64_to_user_ptr(rd.buf), f->buf + rd.first, n * sizeof(u64)))
		return -EFAULT;
	rd.count = (u32)n;
	return copy_to_user(argp, &rd, sizeof(rd)) ? -EFAULT : 0;
}

static long tks_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tks_file *f = file->private_data;
	void __user *argp = (void __user *)arg;
	long ret;

	switch (cmd) {
	case TKS_IOC_INFO:
	case TKS_IOC_RUN:
	case TKS_IOC_READ:
	case TKS_IOC_FREE:
		break;
	default:
		return -ENOTTY;
	}
	/* Killable: a run can take long, and another thread waiting here must stay killable. */
	if (mutex_lock_killable(&f->lock))
		return -EINTR;
	switch (cmd) {
	case TKS_IOC_INFO:
		ret = tks_ioc_info(argp);
		break;
	case TKS_IOC_RUN:
		ret = tks_ioc_run(f, argp);
		break;
	case TKS_IOC_READ:
		ret = tks_ioc_read(f, argp);
		break;
	default: /* TKS_IOC_FREE */
		tks_free_samples(f);
		ret = 0;
		break;
	}
	mutex_unlock(&f->lock);
	return ret;
}

static int tks_open(struct inode *inode, struct file *file)
{
	struct tks_file *f;

	/* As the msr driver: keeping interrupts off on a chosen CPU is raw access to the machine. */
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	if (!(file->f_mode & FMODE_WRITE))
		return -EACCES;
	if (test_and_set_bit(0, &tks_busy))
		return -EBUSY;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		clear_bit(0, &tks_busy);
		return -ENOMEM;
	}
	mutex_init(&f->lock);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int tks_release(struct inode *inode, struct file *file)
{
	struct tks_file *f = file->private_data;

	tks_free_samples(f);
	mutex_destroy(&f->lock);
	kfree(f);
	clear_bit(0, &tks_busy);
	return 0;
}

static const struct file_operations tks_fops = {
	.owner = THIS_MODULE, /* no unload while open */
	.open = tks_open,
	.release = tks_release,
	.unlocked_ioctl = tks_ioctl,
	.compat_ioctl = compat_ptr_ioctl, /* the layouts have no implicit padding */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
	/* Gone in 6.12 (commit cb787f4ac0c2); since 6.0 NULL means the same for a file opened
	 * with nonseekable_open. */
	.llseek = no_llseek,
#endif
};

static struct miscdevice tks_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tickscope",
	.fops = &tks_fops,
	.mode = 0600, /* root only, and CAP_SYS_RAWIO checked at open and at every run */
};

static int __init tks_init(void)
{
	u32 cr0_why;
	int ret;

	/* 32-bit callers share these layouts only while nothing is padded. */
	BUILD_BUG_ON(sizeof(struct tks_kmod_info) != 88);
	BUILD_BUG_ON(sizeof(struct tks_kmod_run) != 120);
	BUILD_BUG_ON(sizeof(struct tks_kmod_read) != 24);
	BUILD_BUG_ON(sizeof(struct tks_kmod_snippet) != 56);
	BUILD_BUG_ON(offsetof(struct tks_kmod_info, tsc_khz) % 8 != 0);

	tks_methods = tks_methods_available();
	ret = tks_snippet_init();
	if (ret)
		return ret;
	ret = misc_register(&tks_misc);
	if (ret) {
		tks_snippet_exit();
		return ret;
	}
	pr_info("tickscope: loaded, version %s, methods 0x%x%s, tsc_khz %u, sections of at most %u us, runs of at most %u ms, snippets %s\n",
		TKS_KMOD_MODULE_VERSION, tks_methods_now(&cr0_why),
		cr0_why == 1 ? " (no cr0: no CR0 access in a Xen PV guest)" :
		cr0_why == 2 ? " (no cr0: a confidential-computing guest)" :
		cr0_why == 3 ? " (no cr0: the kernel is locked down)" : "",
		boot_cpu_has(X86_FEATURE_TSC) ? tsc_khz : 0, tks_section_us(),
		tks_max_run_ms(), tks_allow_snippets() ? "allowed (allow_snippets=1)" : "off");
	return 0;
}

static void __exit tks_exit(void)
{
	s64 left;

	misc_deregister(&tks_misc);
	tks_snippet_exit();
	left = atomic64_read(&tks_bytes);
	if (left)
		pr_warn("tickscope: unloaded, %lld bytes outstanding (leak)\n", left);
	else
		pr_info("tickscope: unloaded, 0 bytes outstanding\n");
}

module_init(tks_init);
module_exit(tks_exit);

MODULE_LICENSE("Dual MIT/GPL");
MODULE_AUTHOR("tickscope");
MODULE_DESCRIPTION("tickscope: clock-cycle samples with preemption and interrupts off");
MODULE_VERSION(TKS_KMOD_MODULE_VERSION);
