// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* snippet.c: the caller's machine code in ring 0 (TKS_KWORK_SNIPPET): whether snippets may run
 * now, the request copied and checked, the area claimed and given back, and what a stretch of
 * calls left behind (a fault, changed flags) reported in the caller's terms. layout.c writes the
 * function, escape.c ends a call that does not come back by itself; kmod/README.md, "The snippet
 * workload", says why each is so. */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <asm/irqflags.h>
#include <asm/processor-flags.h>

#include "snippet.h"

#define TKS_RFLAGS_KEPT (X86_EFLAGS_AC | X86_EFLAGS_TF | X86_EFLAGS_NT | X86_EFLAGS_DF | X86_EFLAGS_IF)

static unsigned long tks_area_busy;    /* bit 0: a run holds the area (one at a time) */

/* The end of the function for copies copies: the loop's top, the copies, dec/jnz and jmp. */
static size_t tks_snippet_bound(u32 init_len, u32 align, u32 copies, u32 code_len)
{
	return tks_snippet_top(init_len, align) + (size_t)copies * code_len + 16;
}

/* Which refusal applies now to the calling process (enum tks_kmod_refusal); read at every INFO
 * and RUN (run: the capability is checked as the kernel checks it, audited; INFO only asks).
 * Code in ring 0 is what loading a module gives, so it takes what loading one takes:
 * CAP_SYS_MODULE (besides the device's CAP_SYS_RAWIO) and kernel.modules_disabled unset. */
u32 tks_snippet_refusal(bool run)
{
	if (tks_locked_down())
		return TKS_KREFUSE_LOCKDOWN;
	if (!tks_allow_snippets())
		return TKS_KREFUSE_PARAM;
	if (tks_modules_disabled())
		return TKS_KREFUSE_MODULES;
	if (run ? !capable(CAP_SYS_MODULE) : !ns_capable_noaudit(&init_user_ns, CAP_SYS_MODULE))
		return TKS_KREFUSE_CAP;
	if (num_online_cpus() < 2)
		return TKS_KREFUSE_ONE_CPU;
	return TKS_KREFUSE_NONE;
}

/* The caller's struct tks_kmod_snippet, every field checked; largest is the run's largest n. */
static int tks_snippet_copy(const struct tks_kmod_run *r, u32 largest, struct tks_snippet *s)
{
	struct tks_kmod_snippet u;

	if (copy_from_user(&u, u64_to_user_ptr(r->snippet), sizeof(u)))
		return -EFAULT;
	if (u.flags || u.reserved[0] || u.reserved[1])
		return -EINVAL;
	if (!u.code || u.code_len < 1 || u.code_len > TKS_KMOD_SNIPPET_CODE_MAX)
		return -EINVAL;
	if (u.init_len > TKS_KMOD_SNIPPET_INIT_MAX || !u.init != !u.init_len)
		return -EINVAL;
	if ((u64)largest * u.code_len > TKS_KMOD_SNIPPET_BODY_MAX)
		return -EINVAL;
	if (u.loops < 1 || u.loops > TKS_KMOD_SNIPPET_LOOPS_MAX)
		return -EINVAL;
	if (u.scratch_bytes < 1 || u.scratch_bytes > TKS_KMOD_SCRATCH_MAX)
		return -EINVAL;
	if (u.align > 4096 || (u.align && !is_power_of_2(u.align)))
		return -EINVAL;
	if (copy_from_user(s->code, u64_to_user_ptr(u.code), u.code_len))
		return -EFAULT;
	if (u.init_len && copy_from_user(s->init, u64_to_user_ptr(u.init), u.init_len))
		return -EFAULT;
	s->code_len = u.code_len;
	s->init_len = u.init_len;
	s->loops = u.loops;
	s->align = u.align ? u.align : 64;
	s->scratch_bytes = u.scratch_bytes;
	return 0;
}

int tks_snippet_new(const struct tks_kmod_run *r, u32 largest, struct tks_snippet **out)
{
	struct tks_snippet *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int ret;

	BUILD_BUG_ON(TKS_AREA_BYTES < TKS_OFF_BODY + TKS_KMOD_SNIPPET_INIT_MAX + 14 + 4096 +
		     TKS_KMOD_SNIPPET_BODY_MAX + 16);
	*out = NULL;
	if (!s)
		return -ENOMEM;
	ret = tks_snippet_copy(r, largest, s);
	if (!ret && tks_snippet_bound(s->init_len, s->align, largest, s->code_len) > TKS_AREA_BYTES)
		ret = -EINVAL;
	if (!ret) {
		s->scratch = kvzalloc(s->scratch_bytes, GFP_KERNEL_ACCOUNT);
		ret = s->scratch ? 0 : -ENOMEM;
	}
	/* Two callers never share the area: the second waits for nothing and gets EBUSY (a run of
	 * a caller that gave up is still finishing). */
	if (!ret && test_and_set_bit(0, &tks_area_busy))
		ret = -EBUSY;
	if (ret) {
		kvfree(s->scratch);
		kfree(s);
		return ret;
	}
	s->copies = U32_MAX;
	s->cpu = -1;
	atomic64_add(s->scratch_bytes, &tks_bytes);
	*out = s;
	return 0;
}

void tks_snippet_free(struct tks_snippet *s)
{
	if (!s)
		return;
	/* Nothing of the caller's stays in the kernel's text; if even the mapping cannot be had,
	 * the area stays claimed (no one runs stale code) and the unload message says so. */
	if (s->copies == U32_MAX || !tks_area_fill_idle())
		clear_bit(0, &tks_area_busy);
	else
		pr_warn("tickscope: the snippet area could not be cleared: no snippet runs until reload\n");
	kvfree(s->scratch);
	atomic64_sub(s->scratch_bytes, &tks_bytes);
	kfree(s);
}

/* Where a fault at offset off of the area lies, in the caller's terms. */
static void tks_fault_place(const struct tks_snippet *s, u32 off, struct tks_job *job)
{
	u32 body_end = s->top + s->copies * s->code_len;

	if (READ_ONCE(tks_fault_outside)) {
		job->fault_where = TKS_KFAULT_OUTSIDE;
		job->fault_offset = 0;
	} else if (off >= TKS_OFF_BODY && off < TKS_OFF_BODY + s->init_len) {
		job->fault_where = TKS_KFAULT_INIT;
		job->fault_offset = off - TKS_OFF_BODY;
	} else if (off >= s->top && off < body_end) {
		job->fault_where = TKS_KFAULT_CODE;
		job->fault_offset = (off - s->top) % s->code_len;
	} else {
		job->fault_where = TKS_KFAULT_HARNESS;
		job->fault_offset = off;
	}
}

/* After a stretch of calls, on their CPU, before interrupts come back: RFLAGS as the harness
 * must have left them (it restores them after every call; a snippet could still overwrite its
 * saved copy on the stack), repaired if not, and a fault caught in the stretch. -ENOEXEC, with
 * job->fault_*, for either. */
int tks_snippet_check(struct tks_snippet *s, bool irqs_on, struct tks_job *job)
{
	unsigned long fl = native_save_fl(), want = irqs_on ? X86_EFLAGS_IF : 0;
	unsigned long bad = (fl ^ want) & TKS_RFLAGS_KEPT;

	if (bad) {
		fl = (fl & ~TKS_RFLAGS_KEPT) | want;
		asm volatile("push %0\n\tpopfq" : : "g"(fl) : "memory", "cc");
	}
	if (READ_ONCE(tks_fault_hit)) {
		job->fault_vector = READ_ONCE(tks_fault_vector);
		tks_fault_place(s, TKS_AREA_BYTES - READ_ONCE(tks_fault_left), job);
		job->fault_oops = READ_ONCE(tks_fault_oops);
		WRITE_ONCE(tks_fault_outside, 0);
		WRITE_ONCE(tks_fault_oops, 0);
		WRITE_ONCE(tks_fault_hit, 0);
		return -ENOEXEC;
	}
	if (bad) {
		job->fault_where = TKS_KFAULT_FLAGS;
		job->fault_offset = (u32)bad;
		return -ENOEXEC;
	}
	return 0;
}

