// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* layout.c: the function a snippet's calls run, written into the module's area (area.c). No
 * kernel from 5.8 on lets a module allocate executable memory (vmap and __vmalloc force NX;
 * module_alloc, execmem_alloc, set_memory_x and text_poke are not exported), so the area is
 * part of the module's text; each layout maps its pages a second time (writable, never
 * executable), writes, unmaps and flushes that mapping before anything runs. */
#include <linux/align.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/tlbflush.h>

#include "snippet.h"

/* The function's return: a jump here returns through the kernel's return thunk (the module
 * loader patches this function's return as every other). */
static noinline notrace void tks_snippet_ret(void)
{
}

/* Write bytes over the whole area through a mapping that lives only for this call: mapped
 * writable (vmap makes it non-executable), written, unmapped (vunmap clears the page-table
 * entries at once and leaves the TLB flush to the next lazy purge, which flushes every CPU
 * before the addresses are used again), and its translations flushed from this CPU, the only
 * one that used them: the snippet's thread, bound to its CPU, is the only writer. Not
 * vm_unmap_aliases(), which sent a TLB-flush IPI to every CPU at each of a run's layouts. */
static int tks_area_write(int (*fill)(u8 *p, const struct tks_snippet *s),
			  const struct tks_snippet *s)
{
	struct page *pages[TKS_AREA_BYTES / PAGE_SIZE];
	unsigned int i;
	u8 *alias;
	int ret;

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		pages[i] = vmalloc_to_page((void *)(tks_area() + i * PAGE_SIZE));
		if (!pages[i])
			return -EOPNOTSUPP;
	}
	alias = vmap(pages, ARRAY_SIZE(pages), VM_MAP, PAGE_KERNEL);
	if (!alias)
		return -ENOMEM;
	ret = fill(alias, s);
	vunmap(alias);
	preempt_disable();
	__flush_tlb_all();
	preempt_enable();
	return ret;
}

/* Between runs: what the module was built with. */
static int tks_fill_idle(u8 *p, const struct tks_snippet *s)
{
	memset(p, 0xcc, TKS_AREA_BYTES);
	memcpy(p, "\xf3\x0f\x1e\xfa", 4);
	return 0;
}

int tks_area_fill_idle(void)
{
	return tks_area_write(tks_fill_idle, NULL);
}

/* A layout in progress: the alias it writes through, and whether a displacement did not fit. */
struct tks_out {
	u8 *p;
	bool bad;
};

static size_t tks_put(struct tks_out *o, size_t at, const void *bytes, size_t n)
{
	memcpy(o->p + at, bytes, n);
	return at + n;
}
#define TKS_PUT(o, at, lit) tks_put(o, at, lit, sizeof(lit) - 1)

/* A rel32 operand at at, for an instruction ending at at + 4 + tail, to target. The module's
 * text and data lie within 2 GiB of each other (modules are linked so); if not, the layout is
 * refused rather than written with a wrong displacement. */
static size_t tks_put_rel(struct tks_out *o, size_t at, size_t tail, const void *target)
{
	unsigned long to = (unsigned long)target;
	long rel;
	s32 r32;

	OPTIMIZER_HIDE_VAR(to); /* as tks_area() */
	rel = (long)to - (long)(tks_area() + at + 4 + tail);
	r32 = (s32)rel;
	if (rel != r32)
		o->bad = true;
	return tks_put(o, at, &r32, 4);
}

/* A 7-byte "op [rip + rel32]" whose first three bytes are given, against a saved slot. */
static size_t tks_put_slot(struct tks_out *o, size_t at, const char *op3, const void *slot)
{
	at = tks_put(o, at, op3, 3);
	return tks_put_rel(o, at, 0, slot);
}

/* The function for s->copies copies (see include/tickscope/kmod.h): the entry saves RFLAGS and
 * the callee-saved registers in module data (tks_saved), then moves to the module's stack. */
static int tks_fill_function(u8 *p, const struct tks_snippet *s)
{
	struct tks_out o = { .p = p };
	unsigned long stack = tks_stack_top();
	size_t at = 0;
	s32 rel;
	u32 i;

	memset(p, 0xcc, TKS_AREA_BYTES);
	at = TKS_PUT(&o, at, "\xf3\x0f\x1e\xfa");                 /* endbr64: an IBT call target */
	at = TKS_PUT(&o, at, "\x9c\xfa\x8f\x05");                 /* pushfq; cli; pop [rip + ..] */
	at = tks_put_rel(&o, at, 0, &tks_saved.rflags);
	at = tks_put_slot(&o, at, "\x48\x89\x1d", &tks_saved.rbx); /* mov [rip + ..], rbx */
	at = tks_put_slot(&o, at, "\x48\x89\x2d", &tks_saved.rbp);
	at = tks_put_slot(&o, at, "\x4c\x89\x25", &tks_saved.r12);
	at = tks_put_slot(&o, at, "\x4c\x89\x2d", &tks_saved.r13);
	at = tks_put_slot(&o, at, "\x4c\x89\x35", &tks_saved.r14);
	at = tks_put_slot(&o, at, "\x4c\x89\x3d", &tks_saved.r15);
	at = tks_put_slot(&o, at, "\x48\x89\x25", &tks_saved.rsp);
	at = TKS_PUT(&o, at, "\xc6\x05");                         /* mov byte [rip + ..], 1 */
	at = tks_put_rel(&o, at, 1, &tks_saved.in_call);
	at = TKS_PUT(&o, at, "\x01");
	at = TKS_PUT(&o, at, "\x49\x89\xfe\x49\x89\xf7");         /* mov r14, rdi; mov r15, rsi */
	at = TKS_PUT(&o, at, "\x48\xbc");                         /* mov rsp, the module's stack */
	at = tks_put(&o, at, &stack, 8);
	at = TKS_PUT(&o, at, "\xe9");                             /* jmp body */
	at = tks_put_rel(&o, at, 0, (void *)(tks_area() + TKS_OFF_BODY));
	o.bad |= at > TKS_OFF_ESCAPE;

	at = TKS_OFF_ESCAPE;
	at = TKS_PUT(&o, at, "\xc6\x05");                         /* mov byte [rip + ..], 0 */
	at = tks_put_rel(&o, at, 1, &tks_saved.in_call);
	at = TKS_PUT(&o, at, "\x00");
	at = tks_put_slot(&o, at, "\x48\x8b\x25", &tks_saved.rsp); /* mov rsp, [rip + ..] */
	at = tks_put_slot(&o, at, "\x48\x8b\x1d", &tks_saved.rbx);
	at = tks_put_slot(&o, at, "\x48\x8b\x2d", &tks_saved.rbp);
	at = tks_put_slot(&o, at, "\x4c\x8b\x25", &tks_saved.r12);
	at = tks_put_slot(&o, at, "\x4c\x8b\x2d", &tks_saved.r13);
	at = tks_put_slot(&o, at, "\x4c\x8b\x35", &tks_saved.r14);
	at = tks_put_slot(&o, at, "\x4c\x8b\x3d", &tks_saved.r15);
	at = TKS_PUT(&o, at, "\xff\x35");                         /* push [rip + ..]; popfq */
	at = tks_put_rel(&o, at, 0, &tks_saved.rflags);
	at = TKS_PUT(&o, at, "\x9d\xe9");                         /* jmp tks_snippet_ret */
	at = tks_put_rel(&o, at, 0, tks_snippet_ret);
	o.bad |= at > TKS_OFF_BODY;

	at = TKS_OFF_BODY;
	at = tks_put(&o, at, s->init, s->init_len);
	at = tks_put_slot(&o, at, "\x48\x89\x25", &tks_saved.loop_rsp); /* mov [rip + ..], rsp */
	while (at < s->top - 7)
		at = TKS_PUT(&o, at, "\x90");
	/* top - 7: every iteration starts from the same RSP (mov rsp, [rip + ..]) */
	at = tks_put_slot(&o, at, "\x48\x8b\x25", &tks_saved.loop_rsp);
	for (i = 0; i < s->copies; i++)
		at = tks_put(&o, at, s->code, s->code_len);
	at = TKS_PUT(&o, at, "\x49\xff\xcf\x0f\x85");             /* dec r15; jnz top - 7 */
	rel = (s32)((long)s->top - 7 - (long)(at + 4));
	at = tks_put(&o, at, &rel, 4);
	at = TKS_PUT(&o, at, "\xe9");                             /* jmp escape */
	tks_put_rel(&o, at, 0, (void *)(tks_area() + TKS_OFF_ESCAPE));
	if (o.bad) {
		tks_fill_idle(p, s);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Where the loop's first copy goes: after the init code and the two RSP moves, aligned. */
u32 tks_snippet_top(u32 init_len, u32 align)
{
	return ALIGN(TKS_OFF_BODY + init_len + 14, align);
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
		s->top = tks_snippet_top(s->init_len, s->align);
		ret = tks_area_write(tks_fill_function, s);
		if (ret)
			return ret; /* (the run ends; freeing the snippet writes the INT3s back) */
		tks_serialize();
	}
	b->snip_fn = (void *)tks_area();
	b->snip_scratch = s->scratch;
	b->snip_loops = s->loops;
	return fresh;
}
