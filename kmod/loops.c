// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* loops.c: the sampling loops, one per method and per amount of work, mirroring the user-space
 * ensembles (src/sample/ensemble.c) so that nothing but the clock reads and the work sits between
 * the two readings. Chosen through a function pointer and a switch before a section starts. */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

#include "add_chain.h" /* the same add chain as user space (src/arch/add_chain.h) */
#include "internal.h"

/* .rept needs a literal, hence one case per n. */
#define TKS_ADDS(nstr) __asm__ __volatile__(TKS_WORK_ASM(nstr) : "+r"(acc) : "r"(step))

/* The white paper's measured_loop(n) (section 3.3), compiled code between the readings. */
static __always_inline void tks_measured_loop(unsigned int n, volatile int *var)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		*var = 1;
}

/* The probes. DIV needs RDX:RAX, which the begin reading overwrites, so the compiler sets them
 * (two register moves) inside the window: the DIV probe is "set up and divide". */
#define TKS_PROBE_NOP() __asm__ __volatile__("nop")
#define TKS_PROBE_IMUL() __asm__ __volatile__("imul %1, %0" : "+r"(acc) : "r"(step))
#define TKS_PROBE_DIV()                                                                 \
	do {                                                                             \
		unsigned long q = 1000000007UL, r = 0; /* dead after: no moves out */   \
		__asm__ __volatile__("div %2" : "+a"(q), "+d"(r) : "r"(divisor));        \
	} while (0)
#define TKS_PROBE_LOAD()                                                                \
	do {                                                                             \
		unsigned long v;                                                         \
		__asm__ __volatile__("mov %1, %0" : "=r"(v) : "m"(line));                \
	} while (0)
#define TKS_PROBE_PAUSE() __asm__ __volatile__("pause")

/* The caller's snippet (snippet.c lays the function out): a call through the retpoline thunk
 * where the kernel has one, so objtool and the mitigations see an ordinary indirect call. The
 * function keeps the callee-saved registers; the caller-saved ones and the flags are lost. */
#define TKS_SNIPPET_CALL()                                                              \
	do {                                                                             \
		unsigned long fn_ = (unsigned long)snip_fn, d_ = (unsigned long)snip_r14; \
		unsigned long s_ = snip_loops;                                           \
		asm volatile(CALL_NOSPEC                                                 \
			     : ASM_CALL_CONSTRAINT, [thunk_target] "+a"(fn_), "+D"(d_),  \
			       "+S"(s_)                                                  \
			     :                                                           \
			     : "rcx", "rdx", "r8", "r9", "r10", "r11", "memory", "cc");  \
	} while (0)

/* One ensemble's samples, resumable: warm up at the start of each section, take and drop sample
 * 0, retake (and count) samples that migrated or went backwards, and leave the section before a
 * sample that would end past its bound (judged by the longest sample so far; at least one sample
 * per section). The bound is checked on the end reading, after the window. */
#define TKS_KLOOP(m, end_has_aux, pre, work)                                            \
	do {                                                                             \
		if (b->warm) {                                                           \
			for (i = 0; i < 3; i++) {                                        \
				t0 = TKS_BEGIN(m);                                       \
				t1 = TKS_END(m, &aux1);                                  \
			}                                                                \
			b->warm = false;                                                 \
		}                                                                        \
		prev = b->start;                                                         \
		while (s <= samples) {                                                   \
			pre;                                                             \
			aux0 = check_aux ? tks_cpu_aux() : 0;                            \
			t0 = TKS_BEGIN(m);                                               \
			work;                                                            \
			t1 = TKS_END(m, &aux1);                                          \
			if (check_aux && !(end_has_aux))                                 \
				aux1 = tks_cpu_aux();                                    \
			if (check_aux && aux0 != aux1) {                                 \
				b->migrated++;                                           \
			} else if (t1 < t0) {                                            \
				b->negative++;                                           \
			} else {                                                         \
				if (s > 0)                                               \
					out[s - 1] = t1 - t0;                            \
				s++;                                                     \
			}                                                                \
			if (b->migrated + b->negative > b->limit) {                      \
				ret = -EIO;                                              \
				break;                                                   \
			}                                                                \
			/* leave if one more sample as long as the longest would cross  \
			 * the bound */                                                  \
			if (t1 - prev > b->longest)                                      \
				b->longest = t1 - prev;                                  \
			if (t1 - b->start + b->longest >= b->bound)                      \
				break;                                                   \
			prev = t1;                                                       \
		}                                                                        \
	} while (0)

/* The add cases of one method's batch: .rept needs a literal, hence one case per n. */
#define TKS_KWORK_CASE(m, flags, n)                                                     \
	case n:                                                                          \
		TKS_KLOOP(m, TKS_MF_END_AUX(flags), , TKS_ADDS(#n));                     \
		break;

/* One batch function per method this kernel build has, from the one method list. */
#define TKS_DEFINE_BATCH(m, M, flags)                                                   \
	static int batch_##m(struct tks_batch *b)                                        \
	{                                                                                \
		volatile unsigned long step_source = 1;                                  \
		volatile int variable = 0;                                               \
		unsigned long acc = 0, step = step_source;                               \
		unsigned long divisor = step + 2;                                        \
		volatile unsigned long line = step; /* in L1 after the dropped sample */ \
		u64 *out = b->out;                                                       \
		u32 samples = b->samples, s = b->next, n = b->work;                      \
		bool check_aux = b->check_aux;                                           \
		u64 t0 = 0, t1 = 0, prev;                                                \
		u32 aux0 = 0, aux1 = 0;                                                  \
		void *snip_fn = b->snip_fn, *snip_r14 = b->snip_scratch;                 \
		u64 snip_loops = b->snip_loops;                                          \
		int i, ret = 0;                                                          \
		switch (b->workload) {                                                   \
		case TKS_KWORK_EMPTY:                                                    \
		case TKS_KWORK_ADDS:                                                     \
			switch (b->work) {                                    \
			TKS_WORK_CASES(TKS_KWORK_CASE, m, flags)                          \
			default:                                                         \
				return -EINVAL;                                          \
			}                                                                \
			break;                                                           \
		case TKS_KWORK_LOOP:                                                     \
			/* n in a local: the clobbers would reload b->work in the window */ \
			TKS_KLOOP(m, TKS_MF_END_AUX(flags), variable = 0,                          \
				  tks_measured_loop(n, &variable));                      \
			break;                                                           \
		case TKS_KWORK_SNIPPET: /* no call after one that faulted */            \
			TKS_KLOOP(m, TKS_MF_END_AUX(flags),                              \
				  if (unlikely(READ_ONCE(tks_fault_hit))) break,         \
				  TKS_SNIPPET_CALL());                                   \
			break;                                                           \
		case TKS_KWORK_PROBE:                                                    \
			switch (b->work) {                                               \
			case TKS_KPROBE_NOP:                                             \
				TKS_KLOOP(m, TKS_MF_END_AUX(flags), , TKS_PROBE_NOP());            \
				break;                                                   \
			case TKS_KPROBE_IMUL:                                            \
				TKS_KLOOP(m, TKS_MF_END_AUX(flags), , TKS_PROBE_IMUL());           \
				break;                                                   \
			case TKS_KPROBE_DIV:                                             \
				TKS_KLOOP(m, TKS_MF_END_AUX(flags), , TKS_PROBE_DIV());            \
				break;                                                   \
			case TKS_KPROBE_LOAD:                                            \
				TKS_KLOOP(m, TKS_MF_END_AUX(flags), , TKS_PROBE_LOAD());           \
				break;                                                   \
			case TKS_KPROBE_PAUSE:                                           \
				TKS_KLOOP(m, TKS_MF_END_AUX(flags), , TKS_PROBE_PAUSE());          \
				break;                                                   \
			default:                                                         \
				return -EINVAL;                                          \
			}                                                                \
			break;                                                           \
		default:                                                                 \
			return -EINVAL;                                                  \
		}                                                                        \
		step_source = acc; /* keep the work observable */                        \
		b->next = s;                                                             \
		if (ret)                                                                 \
			return ret;                                                      \
		return s > samples ? 0 : 1;                                              \
	}
TKS_METHOD_EACH_HERE(TKS_DEFINE_BATCH)

tks_batch_fn tks_batch_for(u32 method)
{
#define TKS_BATCH_CASE(m, M, flags)                                                     \
	case TKS_METHOD_##M:                                                             \
		return batch_##m;
	switch (method) {
	TKS_METHOD_EACH_HERE(TKS_BATCH_CASE)
	default:
		return NULL;
	}
}
