// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* snippet.c: the caller's machine code in ring 0 (TKS_KWORK_SNIPPET). No kernel from 5.8 on lets
 * a module allocate executable memory (vmap and __vmalloc force NX; module_alloc, execmem_alloc,
 * set_memory_x and text_poke are not exported), so the module carries its own: a page-aligned
 * area of its text, reserved at build time and filled with INT3. A run claims it; each layout
 * maps its pages a second time (writable, never executable), writes, unmaps and flushes that
 * mapping before anything runs. Every byte of the area has an exception-table entry, so a fault in
 * the snippet returns through the harness instead of oopsing; a call that does not return is
 * ended by an NMI that another CPU sends (interrupts are off in the call); INT3 and single steps
 * in the area are taken by a die notifier. kmod/README.md, "The snippet workload", says why. */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/debugreg.h>
#include <asm/irq_vectors.h>
#include <asm/irqflags.h>
#include <asm/kdebug.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>
#include <asm/smap.h>
#include <asm/traps.h>

#include "internal.h"

/* Another CPU looks every 10 ms; a call still inside the snippet TKS_KMOD_ESCAPE_MS (100 ms)
 * after its stretch began is ended by an NMI: a hundredth of the hard-lockup detector's 10 s, and
 * past the 30-50 ms stalls of a CPU seen under TCG on a loaded host (kmod/README.md). */
#define TKS_WATCH_PERIOD_NS (10 * NSEC_PER_MSEC)
#define TKS_WATCH_LIMIT_NS ((u64)TKS_KMOD_ESCAPE_MS * NSEC_PER_MSEC)

/* Fixed places in the area (area.c): the entry, the escape (restores RSP, the registers and
 * RFLAGS, returns) and the body (init and loop); what is not written is INT3. */
#define TKS_OFF_ESCAPE 64
#define TKS_OFF_BODY 128
#define TKS_RFLAGS_KEPT (X86_EFLAGS_AC | X86_EFLAGS_TF | X86_EFLAGS_NT | X86_EFLAGS_DF | X86_EFLAGS_IF)

static unsigned long tks_rsp_slot;     /* RSP after the harness's pushes */
static unsigned long tks_area_busy;    /* bit 0: a run holds the area (one at a time) */
static int tks_active_cpu = -1;        /* the CPU a snippet runs on, while it may */
static struct tks_snippet *tks_active; /* and its snippet */

/* The function's return: a jump here returns through the kernel's return thunk (the module
 * loader patches this function's return as every other). */
static noinline notrace void tks_snippet_ret(void)
{
}

struct tks_snippet {
	u8 code[TKS_KMOD_SNIPPET_CODE_MAX];
	u8 init[TKS_KMOD_SNIPPET_INIT_MAX];
	u32 code_len, init_len, loops, align, scratch_bytes;
	u32 copies;          /* laid out now (U32_MAX: nothing yet) */
	u32 top;             /* offset of the loop's first copy */
	void *scratch;       /* kvzalloc'd, R14 */
	int cpu;             /* where it runs */
	struct hrtimer watchdog; /* on another CPU */
	u64 watch_since;     /* ktime of the watched stretch's start, 0: none */
	u64 watch_tsc;       /* the TSC then */
	u64 stuck_ticks;     /* from then to the NMI's step in */
	int kick;            /* the watchdog sent an NMI for this stretch */
	int escaped;
};

static size_t tks_snippet_bound(u32 init_len, u32 align, u32 copies, u32 code_len)
{
	return TKS_OFF_BODY + init_len + align + (size_t)copies * code_len + 16;
}

/* Which refusal applies now (enum tks_kmod_refusal); read at every INFO and RUN. */
u32 tks_snippet_refusal(void)
{
	if (tks_locked_down())
		return TKS_KREFUSE_LOCKDOWN;
	if (!tks_allow_snippets())
		return TKS_KREFUSE_PARAM;
	if (num_online_cpus() < 2)
		return TKS_KREFUSE_ONE_CPU;
#if !defined(TKS_HAVE_EXTABLE_TYPES)
	return TKS_KREFUSE_KERNEL;
#else
	return TKS_KREFUSE_NONE;
#endif
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

/* Write bytes over the whole area through a mapping that lives only for this call: mapped
 * writable (vmap makes it non-executable), written, unmapped, and its translations flushed from
 * every CPU (vunmap alone flushes lazily) before anything runs from the area. */
static int tks_area_write(void (*fill)(u8 *p, const struct tks_snippet *s),
			  const struct tks_snippet *s)
{
	struct page *pages[TKS_AREA_BYTES / PAGE_SIZE];
	unsigned int i;
	u8 *alias;

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		pages[i] = vmalloc_to_page((void *)(tks_area() + i * PAGE_SIZE));
		if (!pages[i])
			return -EOPNOTSUPP;
	}
	alias = vmap(pages, ARRAY_SIZE(pages), VM_MAP, PAGE_KERNEL);
	if (!alias)
		return -ENOMEM;
	fill(alias, s);
	vunmap(alias);
	vm_unmap_aliases();
	return 0;
}

/* Between runs: what the module was built with. */
static void tks_fill_idle(u8 *p, const struct tks_snippet *s)
{
	memset(p, 0xcc, TKS_AREA_BYTES);
	memcpy(p, "\xf3\x0f\x1e\xfa", 4);
}

int tks_snippet_new(const struct tks_kmod_run *r, u32 largest, struct tks_snippet **out)
{
	struct tks_snippet *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int ret;

	BUILD_BUG_ON(TKS_AREA_BYTES < TKS_OFF_BODY + TKS_KMOD_SNIPPET_INIT_MAX + 4096 +
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
	if (s->copies == U32_MAX || !tks_area_write(tks_fill_idle, s))
		clear_bit(0, &tks_area_busy);
	else
		pr_warn("tickscope: the snippet area could not be cleared: no snippet runs until reload\n");
	kvfree(s->scratch);
	atomic64_sub(s->scratch_bytes, &tks_bytes);
	kfree(s);
}

static size_t tks_put(u8 *p, size_t at, const void *bytes, size_t n)
{
	memcpy(p + at, bytes, n);
	return at + n;
}
#define TKS_PUT(p, at, lit) tks_put(p, at, lit, sizeof(lit) - 1)

/* A rel32 operand at p + at, for an instruction ending at at + 4 + tail, to target. The module's
 * text and data lie within 2 GiB of each other and of the kernel's text (they are linked so). */
static size_t tks_put_rel(u8 *p, size_t at, size_t tail, const void *target)
{
	unsigned long to = (unsigned long)target;
	long rel;
	s32 r32;

	OPTIMIZER_HIDE_VAR(to); /* as tks_area() */
	rel = (long)to - (long)(tks_area() + at + 4 + tail);
	r32 = (s32)rel;

	WARN_ON_ONCE(rel != r32);
	return tks_put(p, at, &r32, 4);
}

/* The function for s->copies copies (see include/tickscope/kmod.h). */
static void tks_fill_function(u8 *p, const struct tks_snippet *s)
{
	size_t at = 0, top;
	s32 rel;
	u32 i;

	memset(p, 0xcc, TKS_AREA_BYTES);
	at = TKS_PUT(p, at, "\xf3\x0f\x1e\xfa");                  /* endbr64: an IBT call target */
	at = TKS_PUT(p, at, "\x9c\xfa");                          /* pushfq; cli */
	if (boot_cpu_has(X86_FEATURE_SMAP))
		at = TKS_PUT(p, at, "\x0f\x01\xcb");              /* stac: see kmod/README.md */
	at = TKS_PUT(p, at, "\x53\x55\x41\x54\x41\x55\x41\x56\x41\x57"); /* push rbx .. r15 */
	at = TKS_PUT(p, at, "\x48\x89\x25");                      /* mov [rip + slot], rsp */
	at = tks_put_rel(p, at, 0, &tks_rsp_slot);
	at = TKS_PUT(p, at, "\x49\x89\xfe\x49\x89\xf7");          /* mov r14, rdi; mov r15, rsi */
	at = TKS_PUT(p, at, "\xe9");                              /* jmp body */
	tks_put_rel(p, at, 0, (void *)(tks_area() + TKS_OFF_BODY));

	at = TKS_OFF_ESCAPE;
	at = TKS_PUT(p, at, "\x48\x8b\x25");                      /* mov rsp, [rip + slot] */
	at = tks_put_rel(p, at, 0, &tks_rsp_slot);
	at = TKS_PUT(p, at, "\x41\x5f\x41\x5e\x41\x5d\x41\x5c\x5d\x5b"); /* pop r15 .. rbx */
	at = TKS_PUT(p, at, "\x9d\xe9");                          /* popfq; jmp tks_snippet_ret */
	tks_put_rel(p, at, 0, tks_snippet_ret);

	at = TKS_OFF_BODY;
	at = tks_put(p, at, s->init, s->init_len);
	while (at % s->align)
		at = TKS_PUT(p, at, "\x90");
	top = at;
	for (i = 0; i < s->copies; i++)
		at = tks_put(p, at, s->code, s->code_len);
	at = TKS_PUT(p, at, "\x49\xff\xcf\x0f\x85");              /* dec r15; jnz top */
	rel = (s32)((long)top - (long)(at + 4));
	at = tks_put(p, at, &rel, 4);
	at = TKS_PUT(p, at, "\xe9");                              /* jmp escape */
	tks_put_rel(p, at, 0, (void *)(tks_area() + TKS_OFF_ESCAPE));
}

/* CPUID serialises: the instructions just written through the other mapping are the ones
 * fetched (SDM 3A, "Handling Self- and Cross-Modifying Code"). */
static void tks_serialize(void)
{
	unsigned int a = 0, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}

int tks_snippet_use(struct tks_snippet *s, u32 copies, struct tks_batch *b)
{
	bool fresh = s->copies != copies;
	int ret;

	if (fresh) {
		s->copies = copies;
		s->top = TKS_OFF_BODY + s->init_len;
		s->top = ALIGN(s->top, s->align);
		ret = tks_area_write(tks_fill_function, s);
		if (ret)
			return ret;
		tks_serialize();
	}
	b->snip_fn = (void *)tks_area();
	b->snip_scratch = s->scratch;
	b->snip_loops = s->loops;
	return fresh;
}

void tks_snippet_watch(struct tks_snippet *s, bool on)
{
	s->watch_tsc = rdtsc();
	WRITE_ONCE(s->watch_since, on ? ktime_get_ns() : 0);
}

u64 tks_snippet_escaped(const struct tks_snippet *s)
{
	return READ_ONCE(s->escaped) ? max_t(u64, s->stuck_ticks, 1) : 0;
}

/* Where a fault at offset off of the area lies, in the caller's terms. */
static void tks_fault_place(const struct tks_snippet *s, u32 off, struct tks_job *job)
{
	u32 body_end = s->top + s->copies * s->code_len;

	if (off >= TKS_OFF_BODY && off < TKS_OFF_BODY + s->init_len) {
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

/* Return from a kernel-mode NMI to another place. The entry code returns through a copy of the
 * interrupted context's frame made before the handlers ran (the "iret" frame just above pt_regs,
 * arch/x86/entry/entry_64.S, nested NMIs), so regs alone would not do: that copy is changed too,
 * after checking that it is one. With FRED the handler's regs are the frame returned through. */
static bool tks_nmi_redirect(struct pt_regs *regs, unsigned long to)
{
	unsigned long *iret = (unsigned long *)(regs + 1);

#if defined(X86_FEATURE_FRED)
	if (cpu_feature_enabled(X86_FEATURE_FRED)) {
		regs->ip = to;
		return true;
	}
#endif
	if (iret[0] != regs->ip || iret[1] != regs->cs || iret[3] != regs->sp)
		return false;
	iret[0] = to;
	regs->ip = to;
	return true;
}

/* On the snippet's CPU, when the watchdog asked: a call inside the init code or the loop (or
 * the INT3s after it) leaves through the escape. Anything else goes on: the next look decides. */
static int tks_nmi(unsigned int type, struct pt_regs *regs)
{
	unsigned long area = tks_area();
	struct tks_snippet *s;

	if (READ_ONCE(tks_active_cpu) != raw_smp_processor_id())
		return NMI_DONE;
	s = READ_ONCE(tks_active);
	if (!s || !xchg(&s->kick, 0))
		return NMI_DONE;
	if (!user_mode(regs) && regs->ip >= area + TKS_OFF_BODY && regs->ip < area + TKS_AREA_BYTES &&
	    tks_nmi_redirect(regs, area + TKS_OFF_ESCAPE)) {
		if (!s->escaped)
			s->stuck_ticks = rdtsc() - s->watch_tsc;
		WRITE_ONCE(s->escaped, 1);
	}
	return NMI_HANDLED;
}

/* INT3 in the area (the snippet's own, or a jump into the filler) is a fault like the others;
 * a single step (a snippet that set TF) is stopped where it starts. */
static int tks_die(struct notifier_block *nb, unsigned long val, void *data)
{
	unsigned long area = tks_area();
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	if (READ_ONCE(tks_active_cpu) != raw_smp_processor_id() || !regs || user_mode(regs))
		return NOTIFY_DONE;
	if (val == DIE_INT3 && regs->ip - 1 >= area + 4 && regs->ip - 1 < area + TKS_AREA_BYTES) {
		WRITE_ONCE(tks_fault_vector, X86_TRAP_BP);
		WRITE_ONCE(tks_fault_left, TKS_AREA_BYTES - (u32)(regs->ip - 1 - area));
		WRITE_ONCE(tks_fault_hit, 1);
		regs->ip = area + TKS_OFF_ESCAPE;
		return NOTIFY_STOP;
	}
	/* (For DIE_DEBUG, err carries a pointer to DR6: arch/x86/kernel/traps.c, notify_debug.) */
	if (val == DIE_DEBUG && (*(unsigned long *)a->err & DR_STEP) &&
	    (regs->flags & X86_EFLAGS_TF) && regs->ip >= area && regs->ip < area + TKS_AREA_BYTES) {
		regs->flags &= ~X86_EFLAGS_TF;
		return NOTIFY_STOP;
	}
	return NOTIFY_DONE;
}

static struct notifier_block tks_die_nb = { .notifier_call = tks_die };

/* On another CPU: a stretch watched for longer than the limit gets an NMI on the snippet's. */
static enum hrtimer_restart tks_watchdog(struct hrtimer *t)
{
	struct tks_snippet *s = container_of(t, struct tks_snippet, watchdog);
	u64 since = READ_ONCE(s->watch_since);

	if (since && ktime_get_ns() - since > TKS_WATCH_LIMIT_NS && !READ_ONCE(s->kick)) {
		WRITE_ONCE(s->kick, 1);
		apic->send_IPI(s->cpu, NMI_VECTOR);
	}
	hrtimer_forward_now(t, ns_to_ktime(TKS_WATCH_PERIOD_NS));
	return HRTIMER_RESTART;
}

static void tks_watchdog_start(void *arg)
{
	struct tks_snippet *s = arg;

	hrtimer_start(&s->watchdog, ns_to_ktime(TKS_WATCH_PERIOD_NS), HRTIMER_MODE_REL_PINNED_HARD);
}

/* Called on the snippet's CPU, before its first call and after its last. */
int tks_snippet_watchdog(struct tks_snippet *s, bool on)
{
	unsigned int other;

	if (!on) {
		hrtimer_cancel(&s->watchdog);
		WRITE_ONCE(tks_active_cpu, -1);
		WRITE_ONCE(tks_active, NULL);
		return 0;
	}
	s->cpu = raw_smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, s->cpu);
	if (other >= nr_cpu_ids)
		return -EOPNOTSUPP; /* one CPU left: nobody could end a call that hangs */
#if defined(TKS_HAVE_HRTIMER_SETUP) /* kmod/Kbuild looks it up: 6.13 on */
	hrtimer_setup(&s->watchdog, tks_watchdog, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
#else
	hrtimer_init(&s->watchdog, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->watchdog.function = tks_watchdog;
#endif
	WRITE_ONCE(tks_fault_hit, 0); /* a run that ended early may have left one unread */
	WRITE_ONCE(tks_active, s);
	WRITE_ONCE(tks_active_cpu, s->cpu);
	if (smp_call_function_single(other, tks_watchdog_start, s, 1)) {
		WRITE_ONCE(tks_active_cpu, -1);
		WRITE_ONCE(tks_active, NULL);
		return -EAGAIN; /* that CPU went offline meanwhile */
	}
	return 0;
}

int tks_snippet_init(void)
{
	int ret = register_nmi_handler(NMI_LOCAL, tks_nmi, 0, "tickscope");

	if (ret)
		return ret;
	ret = register_die_notifier(&tks_die_nb);
	if (ret)
		unregister_nmi_handler(NMI_LOCAL, "tickscope");
	return ret;
}

void tks_snippet_exit(void)
{
	unregister_die_notifier(&tks_die_nb);
	unregister_nmi_handler(NMI_LOCAL, "tickscope");
}
