/* SPDX-License-Identifier: (GPL-2.0 OR MIT) */
/* snippet.h: what the three files of the snippet workload share: snippet.c (the request, its
 * checks, the area's claim, the report of a fault), layout.c (the function written into the
 * area) and escape.c (the ways out of a call that does not come back by itself: the fault sled's
 * tail, the die notifier, the NMI the watchdog sends). internal.h has the rest of the module. */
#ifndef TKS_KMOD_SNIPPET_H
#define TKS_KMOD_SNIPPET_H

#include <linux/hrtimer.h>
#include <linux/types.h>
#include <asm/page.h>

#include "internal.h"

/* The escape (restores RSP, the registers and RFLAGS from tks_saved, returns), after the entry
 * at 0; the body (init, loop) at TKS_OFF_BODY (internal.h: area.c's exception table starts
 * there, so that a fault in the module's own harness is never sent back to the escape). */
#define TKS_OFF_ESCAPE 128

/* The module-owned stack every call runs on (vmalloc'd at load). RSP is put back at the top of
 * every iteration of the loop, so what one iteration can push is bounded by its bytes: no
 * instruction pushes (push, pushf, call) or pops more than 8 bytes per byte of code, hence
 * TKS_STACK_REACH below the top and as much above it. Below that, room for an exception's frame
 * and its handler (the kernel's report of an oops the die notifier then contains, included).
 * Instructions that move RSP by more than they write (sub rsp, enter, leave, ret imm16, mov rsp)
 * are not bounded so: tickscope asm reads them off the disassembly and refuses a snippet that
 * would leave the stack; kmod/README.md lists them among what a snippet can still break. */
#define TKS_STACK_REACH TKS_KMOD_STACK_REACH
#define TKS_STACK_SPARE (16 * 1024)
#define TKS_STACK_BYTES PAGE_ALIGN(2 * TKS_STACK_REACH + TKS_STACK_SPARE)

/* What a call saves, in module data rather than on any stack the snippet can reach; one call at
 * a time (the area is claimed by one run). in_call is 1 from the entry's saves to the escape. */
struct tks_saved {
	u64 rflags, rbx, rbp, r12, r13, r14, r15, rsp;
	u64 loop_rsp; /* RSP after the init code: where every iteration starts */
	u8 in_call;
};
extern struct tks_saved tks_saved;

/* escape.c: the stack (its top, whether an address lies on it), the last fault the sled or
 * the die notifier recorded (tks_fault_outside: at an address outside the area, after a jump
 * out of it; tks_fault_oops: the kernel printed its report before the module took it). */
unsigned long tks_stack_top(void);
bool tks_on_stack(unsigned long sp);
extern u32 tks_fault_outside, tks_fault_oops;

struct tks_snippet {
	u8 code[TKS_KMOD_SNIPPET_CODE_MAX];
	u8 init[TKS_KMOD_SNIPPET_INIT_MAX];
	u32 code_len, init_len, loops, align, scratch_bytes;
	u32 copies;          /* laid out now (U32_MAX: nothing yet) */
	u32 top;             /* offset of the loop's first copy */
	void *scratch;       /* kvzalloc'd, R14 */
	int cpu;             /* where it runs */
	struct hrtimer watchdog; /* on another CPU */
	u64 limit_ns;        /* a stretch watched this long is ended (tks_escape_ns) */
	u64 period_ns;       /* how often the watchdog looks */
	u64 watch_since;     /* ktime of the watched stretch's start, 0: none */
	u64 watch_tsc;       /* the TSC then */
	u64 stuck_ticks;     /* from then to the NMI's step in */
	u64 stuck_ns;        /* the same in ns, for the cool-down */
	int kick;            /* an NMI the watchdog sent and the handler has not yet taken */
	int escaped;
	bool gave_up;        /* the watchdog stopped: the call never came back (see escape.c) */
};

/* layout.c */
int tks_area_fill_idle(void);

#endif
