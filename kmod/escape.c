// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* escape.c: the ways out of a snippet's call that does not come back by itself, each of which
 * lands on the escape (layout.c), which restores what the entry saved: the fault sled (area.c:
 * the exception table, for a fault in the area), a die notifier (INT3, single steps, and every
 * exception the kernel would otherwise report and kill the thread for: DIE_TRAP, DIE_GPF,
 * DIE_OOPS), and an NMI that a watchdog on another CPU sends to a call that outlives the
 * interrupts-off bound. Also the module-owned stack every call runs on, and the cool-down that
 * follows a call that had to be stopped. kmod/README.md, "The snippet workload", says why. */
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/debugreg.h>
#include <asm/irq_vectors.h>
#include <asm/kdebug.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

#include "snippet.h"

/* The watchdog gives up on a call this long after its stretch began: only a call stuck outside
 * the area's reach (a loop in kernel text it jumped to) gets here, and the NMIs it would go on
 * sending could not end it. It says so once; the module then stays loaded until reboot. */
#define TKS_GIVE_UP_NS (5ULL * NSEC_PER_SEC)
/* After a call that had to be stopped, the next snippet waits this many times as long as the
 * call was let run: a loop of such snippets keeps its CPU's interrupts off a tenth of the time
 * at most. */
#define TKS_COOL_FACTOR 9

struct tks_saved tks_saved;
u32 tks_fault_outside, tks_fault_oops;

static void *tks_stack;                /* TKS_STACK_BYTES, vmalloc'd at load */
static int tks_active_cpu = -1;        /* the CPU a snippet runs on, while it may */
static struct tks_snippet *tks_active; /* and its snippet */
static u64 tks_cool_until;             /* ktime before which no snippet starts */

unsigned long tks_stack_top(void)
{
	return (unsigned long)tks_stack + TKS_STACK_SPARE + TKS_STACK_REACH;
}

bool tks_on_stack(unsigned long sp)
{
	unsigned long base = (unsigned long)tks_stack;

	return sp >= base && sp < base + TKS_STACK_BYTES;
}

/* How long a stretch of calls may run before the watchdog ends it: the interrupts-off bound
 * (section_us); under a hypervisor at least TKS_KMOD_ESCAPE_MS, since the module cannot tell a
 * call that spins from a virtual CPU its host stopped for a while (kmod/README.md). */
static u64 tks_escape_ns(void)
{
	u64 ns = (u64)tks_section_us() * NSEC_PER_USEC;

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		ns = max_t(u64, ns, (u64)TKS_KMOD_ESCAPE_MS * NSEC_PER_MSEC);
	return ns;
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

/* Whether regs is a snippet's context: this CPU is inside a call, and the context runs in the
 * area or on the module's stack (after a jump out of the area). */
static bool tks_snippet_context(struct pt_regs *regs)
{
	unsigned long area = tks_area();

	if (!regs || user_mode(regs) || READ_ONCE(tks_active_cpu) != raw_smp_processor_id() ||
	    !READ_ONCE(tks_saved.in_call))
		return false;
	return (regs->ip >= area && regs->ip < area + TKS_AREA_BYTES) || tks_on_stack(regs->sp);
}

/* Record the exception at ip (in the area, or outside it) and send the context to the escape. */
static void tks_take(struct pt_regs *regs, unsigned long ip, u32 vector, bool oops)
{
	unsigned long area = tks_area();
	bool inside = ip >= area && ip < area + TKS_AREA_BYTES;

	WRITE_ONCE(tks_fault_vector, vector);
	WRITE_ONCE(tks_fault_left, inside ? TKS_AREA_BYTES - (u32)(ip - area) : 0);
	WRITE_ONCE(tks_fault_outside, !inside);
	if (oops)
		WRITE_ONCE(tks_fault_oops, 1);
	WRITE_ONCE(tks_fault_hit, 1);
	regs->ip = area + TKS_OFF_ESCAPE;
	regs->flags &= ~X86_EFLAGS_TF; /* a single step does not follow it there */
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

/* The NMI the watchdog sent (it sends one at a time, and only after setting kick): taken once,
 * by the first NMI on the snippet's CPU after the send, as the kernel's own NMI IPIs are
 * (nmi_cpu_backtrace); any other NMI is left to the other handlers. A call inside the init code,
 * the loop or the filler leaves through the escape; one elsewhere (the kernel reporting an
 * exception of the snippet's on the module's stack, which the die notifier will take) goes on,
 * and the watchdog's next look decides. */
static int tks_nmi(unsigned int type, struct pt_regs *regs)
{
	unsigned long area = tks_area();
	struct tks_snippet *s;

	if (READ_ONCE(tks_active_cpu) != raw_smp_processor_id())
		return NMI_DONE;
	s = READ_ONCE(tks_active);
	if (!s || !xchg(&s->kick, 0))
		return NMI_DONE;
	if (!user_mode(regs) && READ_ONCE(tks_saved.in_call) &&
	    regs->ip >= area + TKS_OFF_BODY && regs->ip < area + TKS_AREA_BYTES &&
	    tks_nmi_redirect(regs, area + TKS_OFF_ESCAPE)) {
		regs->flags &= ~X86_EFLAGS_TF;
		if (!s->escaped)
			s->stuck_ticks = rdtsc() - s->watch_tsc;
		WRITE_ONCE(s->escaped, 1);
	}
	return NMI_HANDLED;
}

/* Every exception of a snippet's call that the fault sled does not take. INT3 in the area (the
 * snippet's own, or a jump into the filler) and a single step (a snippet that set TF, stopped
 * where it starts) before the kernel says anything. DIE_TRAP and DIE_GPF (asked before the
 * kernel reports #DE, #UD, #GP, ... that no fixup takes) for a context outside the area's body
 * (a jump out of it: the area's own go to the sled, which knows the byte). DIE_OOPS last: what
 * the kernel reports as an oops and would kill the thread for (a user address with SMAP on, an
 * instruction fetch from one, #CP, #NM with XFD, ...): the report is printed by then,
 * the thread goes on through the escape (kmod/README.md). */
static int tks_die(struct notifier_block *nb, unsigned long val, void *data)
{
	unsigned long area = tks_area();
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	if (!tks_snippet_context(regs))
		return NOTIFY_DONE;
	switch (val) {
	case DIE_INT3:
		if (regs->ip - 1 < area + 4 || regs->ip - 1 >= area + TKS_AREA_BYTES)
			return NOTIFY_DONE; /* its report and DIE_OOPS follow */
		tks_take(regs, regs->ip - 1, X86_TRAP_BP, false);
		return NOTIFY_STOP;
	case DIE_DEBUG:
		/* (For DIE_DEBUG, err carries a pointer to DR6: arch/x86/kernel/traps.c.) */
		if (!(*(unsigned long *)a->err & DR_STEP) || !(regs->flags & X86_EFLAGS_TF))
			return NOTIFY_DONE;
		regs->flags &= ~X86_EFLAGS_TF;
		return NOTIFY_STOP;
	case DIE_TRAP:
	case DIE_GPF:
		if (regs->ip >= area + TKS_OFF_BODY && regs->ip < area + TKS_AREA_BYTES)
			return NOTIFY_DONE; /* the exception table's */
		tks_take(regs, regs->ip, a->trapnr, false);
		return NOTIFY_STOP;
	case DIE_OOPS:
		/* page_fault_oops() dies with "Oops" and no trap number of its own */
		tks_take(regs, regs->ip, strcmp(a->str, "Oops") ? a->trapnr : X86_TRAP_PF, true);
		return NOTIFY_STOP;
	default:
		return NOTIFY_DONE;
	}
}

static struct notifier_block tks_die_nb = { .notifier_call = tks_die };

/* On another CPU: a stretch watched for longer than the limit gets an NMI on the snippet's. */
static enum hrtimer_restart tks_watchdog(struct hrtimer *t)
{
	struct tks_snippet *s = container_of(t, struct tks_snippet, watchdog);
	u64 since = READ_ONCE(s->watch_since), now = ktime_get_ns();

	if (since && now - since > TKS_GIVE_UP_NS) {
		WRITE_ONCE(s->gave_up, true);
		pr_warn("tickscope: a snippet's call on CPU %d has not come back in %llu s (a loop outside the module's area?); the watchdog stops\n",
			s->cpu, TKS_GIVE_UP_NS / NSEC_PER_SEC);
		return HRTIMER_NORESTART;
	}
	if (since && now - since > s->limit_ns && !READ_ONCE(s->kick)) {
		WRITE_ONCE(s->kick, 1);
		apic->send_IPI(s->cpu, NMI_VECTOR);
	}
	hrtimer_forward_now(t, ns_to_ktime(s->period_ns));
	return HRTIMER_RESTART;
}

static void tks_watchdog_start(void *arg)
{
	struct tks_snippet *s = arg;

	hrtimer_start(&s->watchdog, ns_to_ktime(s->period_ns), HRTIMER_MODE_REL_PINNED_HARD);
}

/* Called on the snippet's CPU, before its first call and after its last. A run whose call had
 * to be stopped starts the cool-down. */
int tks_snippet_watchdog(struct tks_snippet *s, bool on)
{
	unsigned int other;

	if (!on) {
		hrtimer_cancel(&s->watchdog);
		WRITE_ONCE(tks_active_cpu, -1);
		WRITE_ONCE(tks_active, NULL);
		if (READ_ONCE(s->escaped))
			WRITE_ONCE(tks_cool_until, ktime_get_ns() +
				   TKS_COOL_FACTOR * (s->limit_ns + s->period_ns));
		return 0;
	}
	s->cpu = raw_smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, s->cpu);
	if (other >= nr_cpu_ids)
		return -EOPNOTSUPP; /* one CPU left: nobody could end a call that hangs */
	s->limit_ns = tks_escape_ns();
	s->period_ns = clamp_t(u64, s->limit_ns / 4, 50 * NSEC_PER_USEC, 10 * NSEC_PER_MSEC);
#if defined(TKS_HAVE_HRTIMER_SETUP) /* kmod/Kbuild looks it up: 6.13 on */
	hrtimer_setup(&s->watchdog, tks_watchdog, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
#else
	hrtimer_init(&s->watchdog, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->watchdog.function = tks_watchdog;
#endif
	WRITE_ONCE(tks_fault_hit, 0); /* a run that ended early may have left one unread */
	WRITE_ONCE(tks_fault_oops, 0);
	WRITE_ONCE(tks_active, s);
	WRITE_ONCE(tks_active_cpu, s->cpu);
	if (smp_call_function_single(other, tks_watchdog_start, s, 1)) {
		WRITE_ONCE(tks_active_cpu, -1);
		WRITE_ONCE(tks_active, NULL);
		return -EAGAIN; /* that CPU went offline meanwhile */
	}
	return 0;
}

/* Before a snippet's run claims the area: wait out the cool-down, killably (-EINTR). */
int tks_snippet_cool_down(void)
{
	u64 until = READ_ONCE(tks_cool_until), now;

	while ((now = ktime_get_ns()) < until) {
		schedule_timeout_killable(nsecs_to_jiffies(until - now) + 1);
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	return 0;
}

int tks_snippet_init(void)
{
	int ret;

	tks_stack = vzalloc(TKS_STACK_BYTES);
	if (!tks_stack)
		return -ENOMEM;
	ret = register_nmi_handler(NMI_LOCAL, tks_nmi, 0, "tickscope");
	if (ret)
		goto out_stack;
	ret = register_die_notifier(&tks_die_nb);
	if (ret)
		goto out_nmi;
	return 0;
out_nmi:
	unregister_nmi_handler(NMI_LOCAL, "tickscope");
out_stack:
	vfree(tks_stack);
	return ret;
}

void tks_snippet_exit(void)
{
	unregister_die_notifier(&tks_die_nb);
	unregister_nmi_handler(NMI_LOCAL, "tickscope");
	vfree(tks_stack);
}
