// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* snippet.c: the caller's machine code in ring 0 (TKS_KWORK_SNIPPET). No kernel from 5.8 on lets
 * a module allocate executable memory (vmap and __vmalloc force NX; module_alloc, execmem_alloc,
 * set_memory_x and text_poke are not exported), so the module carries its own: a page-aligned
 * area of its text, reserved at build time and filled with INT3. A run claims it, writes the
 * harness and the snippet through a second, writable and non-executable mapping of the same
 * pages (vmap of the pages vmalloc_to_page finds), runs them from the text, fills the area with
 * INT3 again and drops the mapping. No mapping is ever both writable and executable. A watchdog
 * timer takes a snippet that does not return out of it, where interrupts are on. */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/irq_regs.h>
#include <asm/msr.h>
#include <asm/ptrace.h>

#include "internal.h"

/* The watchdog looks every 10 ms; a call still inside the snippet 20 ms after it began (twenty
 * times the interrupts-off bound) does not return and is taken out. */
#define TKS_WATCH_PERIOD_NS (10 * NSEC_PER_MSEC)
#define TKS_WATCH_LIMIT_NS (20 * NSEC_PER_MSEC)

/* The area: TKS_AREA_PAGES pages (the .fill below says the same in bytes). To objtool it is a
 * function that stops at once: ENDBR64 (its address is taken, IBT wants one there), UD2, then
 * INT3s, which is also what it holds between runs. */
#define TKS_AREA_PAGES 6
#define TKS_AREA_IDLE "\xf3\x0f\x1e\xfa\x0f\x0b" /* endbr64; ud2 */
asm(".pushsection .text.tks_snippet_area, \"ax\", @progbits\n"
    ".balign 4096\n"
    ".type tks_snippet_area, @function\n"
    "tks_snippet_area:\n"
    ".byte 0xf3, 0x0f, 0x1e, 0xfa, 0x0f, 0x0b\n"
    ".fill 6 * 4096 - 6, 1, 0xcc\n"
    ".size tks_snippet_area, 6 * 4096\n"
    ".popsection\n");
extern u8 tks_snippet_area[];
static unsigned long tks_area_busy; /* bit 0: a run holds the area */

struct tks_snippet {
	u8 code[TKS_KMOD_SNIPPET_CODE_MAX];
	u8 init[TKS_KMOD_SNIPPET_INIT_MAX];
	u32 code_len, init_len, loops, align, scratch_bytes;
	u32 copies;          /* laid out now (U32_MAX: nothing yet) */
	void *scratch;       /* kvzalloc'd, R14 */
	u8 *linear;          /* the area's writable, non-executable alias: where code is written */
	u8 *exec;            /* the area in the module's text (read-only, executable): where it runs */
	size_t size;         /* bytes of the area */
	size_t body_off;     /* the init code and the loop: where the watchdog may step in */
	size_t escape_off;   /* restores RSP and the saved registers, returns */
	u64 rsp_slot;        /* RSP after the pushes, written by the generated code */
	struct hrtimer watchdog;
	u64 watch_since;     /* ktime of the watched stretch's start, 0: none */
	u64 watch_tsc;       /* the TSC then */
	u64 stuck_ticks;     /* from then to the watchdog's step in */
	int escaped;
};

static size_t tks_snippet_bound(u32 init_len, u32 align, u32 copies, u32 code_len)
{
	return 64 + init_len + align + (size_t)copies * code_len + 64;
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

/* Claim the area and map it a second time, writable (vmap makes it non-executable). */
static int tks_snippet_map(struct tks_snippet *s, size_t bytes)
{
	struct page *pages[TKS_AREA_PAGES];
	unsigned int i;

	BUILD_BUG_ON(TKS_AREA_PAGES * 4096 < 64 + TKS_KMOD_SNIPPET_INIT_MAX + 4096 +
		     TKS_KMOD_SNIPPET_BODY_MAX + 64);
	if (bytes > TKS_AREA_PAGES * PAGE_SIZE)
		return -EINVAL;
	if (test_and_set_bit(0, &tks_area_busy))
		return -EBUSY; /* a run of a caller that gave up is still finishing */
	for (i = 0; i < TKS_AREA_PAGES; i++) {
		pages[i] = vmalloc_to_page(tks_snippet_area + (size_t)i * PAGE_SIZE);
		if (!pages[i])
			break;
	}
	s->linear = i == TKS_AREA_PAGES ? vmap(pages, TKS_AREA_PAGES, VM_MAP, PAGE_KERNEL) : NULL;
	if (!s->linear) {
		clear_bit(0, &tks_area_busy);
		return i == TKS_AREA_PAGES ? -ENOMEM : -EOPNOTSUPP;
	}
	s->exec = tks_snippet_area;
	s->size = TKS_AREA_PAGES * PAGE_SIZE;
	return 0;
}

static enum hrtimer_restart tks_watchdog(struct hrtimer *t)
{
	struct tks_snippet *s = container_of(t, struct tks_snippet, watchdog);
	struct pt_regs *regs = get_irq_regs();
	u64 since = READ_ONCE(s->watch_since);
	unsigned long ip;

	if (since && regs && !user_mode(regs) && ktime_get_ns() - since > TKS_WATCH_LIMIT_NS) {
		ip = regs->ip;
		/* Only from the init code or the loop: the harness around them is ours and returns. */
		if (ip >= (unsigned long)s->exec + s->body_off &&
		    ip < (unsigned long)s->exec + s->escape_off) {
			regs->ip = (unsigned long)s->exec + s->escape_off;
			if (!s->escaped)
				s->stuck_ticks = rdtsc() - s->watch_tsc;
			WRITE_ONCE(s->escaped, 1);
		}
	}
	hrtimer_forward_now(t, ns_to_ktime(TKS_WATCH_PERIOD_NS));
	return HRTIMER_RESTART;
}

int tks_snippet_new(const struct tks_kmod_run *r, u32 largest, struct tks_snippet **out)
{
	struct tks_snippet *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int ret;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	ret = tks_snippet_copy(r, largest, s);
	if (!ret) {
		s->scratch = kvzalloc(s->scratch_bytes, GFP_KERNEL_ACCOUNT);
		ret = s->scratch ? 0 : -ENOMEM;
	}
	if (!ret)
		ret = tks_snippet_map(s, tks_snippet_bound(s->init_len, s->align, largest, s->code_len));
	if (ret) {
		kvfree(s->scratch);
		kfree(s);
		return ret;
	}
	s->copies = U32_MAX;
	atomic64_add(s->scratch_bytes, &tks_bytes);
#if defined(TKS_HAVE_HRTIMER_SETUP) /* kmod/Kbuild looks it up: 6.13 on */
	hrtimer_setup(&s->watchdog, tks_watchdog, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
#else
	hrtimer_init(&s->watchdog, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->watchdog.function = tks_watchdog;
#endif
	*out = s;
	return 0;
}

void tks_snippet_free(struct tks_snippet *s)
{
	if (!s)
		return;
	/* Nothing of the caller's stays in the kernel's text. */
	memset(s->linear, 0xcc, s->size);
	memcpy(s->linear, TKS_AREA_IDLE, sizeof(TKS_AREA_IDLE) - 1);
	vunmap(s->linear);
	/* vunmap flushes the TLB lazily: no writable translation of the text may outlive it. */
	vm_unmap_aliases();
	clear_bit(0, &tks_area_busy);
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

/* The function for n copies (see include/tickscope/kmod.h); called on the CPU that runs it,
 * with nothing running it, which then serialises before its first call. */
static void tks_snippet_layout(struct tks_snippet *s, u32 copies)
{
	u64 slot = (u64)(uintptr_t)&s->rsp_slot;
	u8 *p = s->linear;
	size_t at = 0, top;
	s32 rel;
	u32 i;

	memset(p, 0xcc, s->size);
	at = TKS_PUT(p, at, "\xf3\x0f\x1e\xfa");                  /* endbr64: an IBT call target */
	at = TKS_PUT(p, at, "\x53\x55\x41\x54\x41\x55\x41\x56\x41\x57"); /* push rbx .. r15 */
	at = TKS_PUT(p, at, "\x48\xb8");                          /* movabs rax, &rsp_slot */
	at = tks_put(p, at, &slot, 8);
	at = TKS_PUT(p, at, "\x48\x89\x20");                      /* mov [rax], rsp */
	at = TKS_PUT(p, at, "\x49\x89\xfe\x49\x89\xf7");          /* mov r14, rdi; mov r15, rsi */
	s->body_off = at;
	at = tks_put(p, at, s->init, s->init_len);
	while (at % s->align)
		at = TKS_PUT(p, at, "\x90");
	top = at;
	for (i = 0; i < copies; i++)
		at = tks_put(p, at, s->code, s->code_len);
	at = TKS_PUT(p, at, "\x49\xff\xcf\x0f\x85");              /* dec r15; jnz top */
	rel = (s32)((long)top - (long)(at + 4));
	at = tks_put(p, at, &rel, 4);
	s->escape_off = at;
	at = TKS_PUT(p, at, "\x48\xb8");                          /* movabs rax, &rsp_slot */
	at = tks_put(p, at, &slot, 8);
	at = TKS_PUT(p, at, "\x48\x8b\x20");                      /* mov rsp, [rax] */
	at = TKS_PUT(p, at, "\x41\x5f\x41\x5e\x41\x5d\x41\x5c\x5d\x5b"); /* pop r15 .. rbx */
	TKS_PUT(p, at, "\xfc\xc3\xcc");                           /* cld; ret; int3 */
	s->copies = copies;
}

/* CPUID serialises: the instructions just written through the other mapping are the ones
 * fetched (SDM 3A, "Handling Self- and Cross-Modifying Code"). */
static void tks_serialize(void)
{
	unsigned int a = 0, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}

bool tks_snippet_use(struct tks_snippet *s, u32 copies, struct tks_batch *b)
{
	bool fresh = s->copies != copies;

	if (fresh) {
		tks_snippet_layout(s, copies);
		tks_serialize();
	}
	b->snip_fn = s->exec;
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

void tks_snippet_watchdog(struct tks_snippet *s, bool on)
{
	if (on)
		hrtimer_start(&s->watchdog, ns_to_ktime(TKS_WATCH_PERIOD_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	else
		hrtimer_cancel(&s->watchdog);
}
