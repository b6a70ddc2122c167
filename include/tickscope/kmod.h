/* SPDX-License-Identifier: MIT */
/* tickscope/kmod.h: the protocol between user space and the kernel module (tickscope.ko, device
 * /dev/tickscope). Included by both sides. The module only takes samples; user space summarises.
 *
 * A session: open the device (one open at a time: a second gets EBUSY), TKS_IOC_INFO to learn the
 * limits, TKS_IOC_RUN to take E x S samples into a kernel buffer, TKS_IOC_READ as often as needed to
 * copy them out in chunks, then close (or TKS_IOC_FREE) to release the buffer. A change that breaks
 * an older caller bumps TKS_KMOD_ABI; the module refuses a run whose abi field differs (EPROTO).
 *
 * Privilege: open and every RUN need CAP_SYS_RAWIO (as the msr driver does), because a run keeps
 * interrupts off on a CPU of the caller's choosing; open needs write access (O_RDWR or O_WRONLY).
 * Snippets (TKS_KWORK_SNIPPET) and the cr0 method also need a kernel that is not locked down
 * (the reason the msr driver refuses writes for, LOCKDOWN_MSR: checked at every section, so a
 * lockdown raised mid-run ends it with EPERM), and snippets a module loaded with
 * allow_snippets=1, CAP_SYS_MODULE and kernel.modules_disabled unset (what loading a module
 * takes): EPERM otherwise, TKS_IOC_INFO says which (snippet_refused, cr0_refused).
 *
 * Errors: EPERM without CAP_SYS_RAWIO; EACCES for an open without write access; EINVAL for any
 * field out of range or a reserved field not 0, for cr0 with interrupts on (TKS_KOWN_PREEMPT_OFF),
 * and for a workload one sample of which takes longer than the interrupts-off bound (RUN then
 * copies the structure back with sample_ticks set to the measured figure); EOPNOTSUPP for a method
 * this CPU (or this guest) lacks; EFAULT for a bad pointer; ENOTTY for an unknown request; EBUSY
 * for a second open, and for a snippet run while the module's snippet area is held by a run still
 * finishing; EINTR when a fatal signal ends a run, or the system freezes tasks for a
 * suspend; ETIME when a run would last longer than the module's max_run_ms parameter (default
 * 5000 ms); EAGAIN when the CPU went offline during it; EIO when more than 10 x samples + 1000
 * samples of one ensemble had to be retaken (migrated or negative); ENODATA for READ before any
 * run or after FREE; ENOEXEC when a snippet raised an exception (or left RFLAGS changed): the
 * module caught it, and RUN copies the structure back with fault_where, fault_vector and
 * fault_offset set. A READ at first == E x S copies nothing (count 0). A RUN that fails its
 * checks keeps the previous samples; one that passes them replaces them, and frees its own if it
 * then fails. */
#ifndef TICKSCOPE_KMOD_H
#define TICKSCOPE_KMOD_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define TKS_KMOD_ABI 5 /* 2: sample_ticks, CAP_SYS_RAWIO, max_run_ms; 3: TKS_KWORK_SNIPPET;
                          4: snippet_refused, cr0_refused 3, EPERM under lockdown or without
                          allow_snippets=1, faults caught (ENOEXEC, fault_*); 5: snippets need
                          CAP_SYS_MODULE and modules_disabled unset (refusals 5 and 6), run on
                          the module's stack with SMAP on, TKS_KFAULT_OUTSIDE, stopped at the
                          interrupts-off bound, lockdown checked at every section */
#define TKS_KMOD_DEVICE "/dev/tickscope"

/* What runs between the two clock reads. */
enum tks_kmod_workload {
    TKS_KWORK_EMPTY = 0, /* nothing: work_start and work_step must be 0 */
    TKS_KWORK_ADDS = 1,  /* n dependent adds, exactly as the user-space ensembles (n <= 200) */
    TKS_KWORK_LOOP = 2,  /* the white paper's measured_loop(n): n stores of 1 to a volatile int */
    TKS_KWORK_PROBE = 3, /* built-in probe number n (enum tks_kmod_probe); work_step must be 0 */
    TKS_KWORK_SNIPPET = 4, /* the caller's machine code (struct tks_kmod_snippet), n copies of it
                              unrolled in a loop; the only workload with run.snippet != 0 */
    TKS_KWORK_COUNT
};

/* Fixed probes: one short instruction sequence each. */
enum tks_kmod_probe {
    TKS_KPROBE_NOP = 0,   /* one NOP */
    TKS_KPROBE_IMUL = 1,  /* one 64-bit IMUL (latency) */
    TKS_KPROBE_DIV = 2,   /* one 64-bit DIV */
    TKS_KPROBE_LOAD = 3,  /* one load from an L1-resident line */
    TKS_KPROBE_PAUSE = 4, /* one PAUSE */
    TKS_KPROBE_COUNT
};

/* How the CPU is owned while sampling. */
enum tks_kmod_own {
    TKS_KOWN_IRQ_OFF = 0,     /* preempt_disable() + local_irq_save(): the white paper's way */
    TKS_KOWN_PREEMPT_OFF = 1, /* preempt_disable() only: interrupts still arrive */
    TKS_KOWN_COUNT
};

/* Limits; TKS_IOC_INFO reports the module's own values, which win. */
#define TKS_KMOD_TOTAL_MAX (1u << 22)  /* ensembles x samples per run: 32 MiB of samples */
#define TKS_KMOD_LOOP_MAX 100000u      /* largest measured_loop(n) */
#define TKS_KMOD_ADDS_MAX 200u         /* largest add chain (TKS_WORK_MAX in user space) */
#define TKS_KMOD_SECTION_US 1000u      /* interrupts (or preemption) are off for at most this long at a
                                          stretch (module parameter section_us lowers it) */
#define TKS_KMOD_RUN_MS_DEFAULT 5000u  /* one RUN lasts at most this long (module parameter max_run_ms) */
#define TKS_KMOD_RUN_MS_MAX 60000u     /* max_run_ms is clamped to this */
#define TKS_KMOD_ESCAPE_MS 100u        /* a snippet's call still running section_us after its stretch
                                          (a probe sample, a section) began is ended by an NMI;
                                          under a hypervisor, this many ms at the least (a host
                                          can stop a virtual CPU for tens of ms) */
#define TKS_KMOD_SNIPPET_CODE_MAX 256u    /* bytes of one copy of a snippet */
#define TKS_KMOD_SNIPPET_INIT_MAX 256u    /* bytes of its init code */
#define TKS_KMOD_SNIPPET_BODY_MAX 16384u  /* copies x code_len: the unrolled loop body */
#define TKS_KMOD_SNIPPET_COPIES_MAX 1024u /* largest n (copies) of the snippet workload */
#define TKS_KMOD_SNIPPET_LOOPS_MAX (1u << 24) /* loop iterations per sample */
#define TKS_KMOD_SCRATCH_MAX (4u << 20)   /* the scratch area R14 points to */
#define TKS_KMOD_STACK_REACH (8u * (TKS_KMOD_SNIPPET_BODY_MAX + TKS_KMOD_SNIPPET_INIT_MAX))
                                          /* the module's stack keeps this many bytes below and
                                             above the RSP each iteration of the loop starts
                                             from: 8 per byte of code, what pushes, pops and
                                             calls can take; RSP arithmetic past it is refused
                                             by tickscope asm */

/* TKS_IOC_INFO (out). */
struct tks_kmod_info {
    __u32 abi;            /* TKS_KMOD_ABI of the module */
    __u32 methods;        /* bit m set: method m (enum tks_method) runs in this kernel */
    __u32 total_max;      /* ensembles x samples per run */
    __u32 ensembles_max;
    __u32 samples_max;    /* per ensemble */
    __u32 work_max[TKS_KWORK_COUNT]; /* largest n per workload */
    __u32 section_us;     /* bound on one stretch with interrupts or preemption off */
    __u32 nr_cpu_ids;     /* (ABI 3: the fifth work_max took reserved0's place, so tsc_khz stays
                             8-aligned for 32- and 64-bit callers alike) */
    __u64 tsc_khz;        /* the kernel's TSC rate (0 when it has none) */
    __u32 max_run_ms;     /* the longest one RUN may last (module parameter max_run_ms) */
    __u32 cr0_refused;    /* why cr0 is not in methods: 0 it is, 1 no CR0 access (Xen PV),
                             2 a confidential-computing guest (SEV, SEV-ES/SNP, TDX), 3 the
                             kernel is locked down (read at every INFO: lockdown can be raised) */
    __u32 snippet_refused; /* enum tks_kmod_refusal: why a snippet RUN would be refused (EPERM or
                              EOPNOTSUPP), 0 when it would not */
    __u32 reserved0;
    __u64 reserved[2];
};

/* Why snippets are refused (tks_kmod_info.snippet_refused); the first that applies. */
enum tks_kmod_refusal {
    TKS_KREFUSE_NONE = 0,
    TKS_KREFUSE_LOCKDOWN = 1, /* the kernel is locked down (integrity or confidentiality) */
    TKS_KREFUSE_PARAM = 2,    /* the module was loaded without allow_snippets=1 */
    TKS_KREFUSE_ONE_CPU = 3,  /* one CPU online: no other CPU can stop a snippet that hangs
                                 (EOPNOTSUPP) */
    TKS_KREFUSE_KERNEL = 4,   /* (ABI 4: a kernel before 5.16; the module now needs 6.1) */
    TKS_KREFUSE_MODULES = 5,  /* kernel.modules_disabled is set (or cannot be read) */
    TKS_KREFUSE_CAP = 6,      /* the caller lacks CAP_SYS_MODULE: code in ring 0 is what loading
                                 a module gives */
};

/* Where a snippet's exception happened (tks_kmod_run.fault_where, with ENOEXEC). */
enum tks_kmod_fault_where {
    TKS_KFAULT_NONE = 0,
    TKS_KFAULT_CODE = 1,    /* in a copy of the code: fault_offset is the byte in that copy */
    TKS_KFAULT_INIT = 2,    /* in the init code: fault_offset is the byte in it */
    TKS_KFAULT_HARNESS = 3, /* in the module's code around them (after a jump out of the snippet,
                               say): fault_offset is the byte in the laid-out function */
    TKS_KFAULT_FLAGS = 4,   /* no exception: RFLAGS were not as they must be after a call
                               (fault_offset: the bits that differed) */
    TKS_KFAULT_OUTSIDE = 5, /* outside the module's area, after a jump out of it (to address 0,
                               say): fault_offset 0 */
};

/* TKS_IOC_RUN (in, then out). The samples are E rows of S end-minus-begin readings, laid out as
 * ticks[e * S + s], ensemble e carrying work_start + e * work_step. Each ensemble is warmed up with
 * three begin/end pairs and takes one extra sample first, which it drops (as user space does);
 * the warm-up is repeated after every stretch with interrupts on, so no sample follows a cold
 * gap. No stretch with interrupts (or preemption) off lasts longer than section_us: a section
 * ends when one more sample as long as the longest seen would cross it. */
struct tks_kmod_run {
    /* in */
    __u32 abi;        /* TKS_KMOD_ABI */
    __u32 method;     /* enum tks_method; must be in tks_kmod_info.methods */
    __u32 workload;   /* enum tks_kmod_workload */
    __u32 own;        /* enum tks_kmod_own */
    __u32 ensembles;  /* >= 1 */
    __u32 samples;    /* >= 2 per ensemble */
    __u32 work_start;
    __u32 work_step;
    __s32 cpu;        /* CPU to run on; -1: the caller's current CPU */
    __u32 flags;      /* must be 0 */
    /* out */
    __u64 migrated;      /* retaken: TSC_AUX differed between the reads */
    __u64 negative;      /* retaken: end before begin */
    __u64 sections;      /* how many times interrupts (or preemption) were turned off */
    __u64 section_max_ticks; /* the longest such stretch, in TSC ticks */
    __u64 elapsed_ns;    /* wall time of the whole run in the kernel */
    __s32 cpu_used;
    __u32 fault_vector;  /* out, with ENOEXEC: the exception (0 #DE, 3 #BP, 6 #UD, 13 #GP, 14 #PF,
                            ...); in: must be 0 */
    __u64 sample_ticks;  /* the shortest of three samples of the run's largest work, taken on
                            its CPU with interrupts on before the run; the run is refused
                            (EINVAL) when it exceeds the interrupts-off bound */
    __u64 snippet;       /* in: user pointer to a struct tks_kmod_snippet for TKS_KWORK_SNIPPET,
                            0 for every other workload */
    __u32 fault_where;   /* out, with ENOEXEC: enum tks_kmod_fault_where; in: must be 0 */
    __u32 fault_offset;  /* out, with ENOEXEC: see enum tks_kmod_fault_where; in: must be 0 */
    __u64 reserved[1];
};

/* TKS_KWORK_SNIPPET: the caller's machine code, run in ring 0. The module lays out, in an area
 * of its own text (read-only and executable; written through a mapping that exists only while it
 * is written), a function per ensemble:
 *
 *   endbr64; pushfq; cli; save RFLAGS, rbx, rbp, r12..r15 and rsp in module data;
 *   r14 = scratch; r15 = loops; rsp = the module's stack;
 *   init; save rsp; (align) top: rsp = that; n copies of code; dec r15; jnz top;
 *   restore rsp, the registers and RFLAGS; return (through the kernel's return thunk)
 *
 * and calls it between the two clock readings of every sample, so the window holds the call,
 * the init, the loop of n copies and the return: the copies' cost is the slope over n, the rest
 * the intercept (user space fits it). The snippet may use every register but R14 (the zeroed
 * scratch area, fresh for each run), R15 (the loop counter) and RSP, and the SSE/AVX registers
 * (the module brackets the samples with kernel_fpu_begin/end). It runs with interrupts off (in
 * both ownership modes), SMAP and SMEP on (a user address faults), on a stack of the module's
 * whose RSP every iteration starts from again; RSP and RFLAGS are restored after every call.
 * An exception in it (#DE, #UD, #GP, #PF, #BP, and those the kernel reports as an oops first)
 * is caught and ends the run with ENOEXEC (fault_*); a call that has not returned after
 * section_us (TKS_KMOD_ESCAPE_MS at least under a hypervisor) is ended by an NMI from another
 * CPU (the probe: EINVAL with sample_ticks; a section: ETIME), and the next snippet run waits
 * nine times as long first. Hence CAP_SYS_RAWIO and CAP_SYS_MODULE, allow_snippets=1, no
 * lockdown; kmod/README.md lists what a snippet can still break. */
struct tks_kmod_snippet {
    __u64 code;          /* user pointer to code_len bytes: one copy */
    __u64 init;          /* user pointer to init_len bytes; 0 when init_len is 0 */
    __u32 code_len;      /* 1..TKS_KMOD_SNIPPET_CODE_MAX; code_len x the largest n <=
                            TKS_KMOD_SNIPPET_BODY_MAX */
    __u32 init_len;      /* 0..TKS_KMOD_SNIPPET_INIT_MAX */
    __u32 loops;         /* iterations of the loop per sample, 1..TKS_KMOD_SNIPPET_LOOPS_MAX */
    __u32 scratch_bytes; /* 1..TKS_KMOD_SCRATCH_MAX: the zeroed area R14 points to */
    __u32 align;         /* the loop's first copy starts on this boundary: 0 (64) or a power of
                            two up to 4096 */
    __u32 flags;         /* must be 0 */
    __u64 reserved[2];   /* must be 0 */
};

/* TKS_IOC_READ (in, then out): copy samples [first, first + count) of the last run to buf. */
struct tks_kmod_read {
    __u64 buf;      /* user pointer to count __u64 */
    __u64 first;    /* index into the E x S samples */
    __u32 count;    /* in: wanted; out: copied (fewer only at the end) */
    __u32 reserved; /* must be 0 */
};

/* Every structure is laid out without implicit padding, so 32-bit callers share the layout. */
#define TKS_IOC_MAGIC 0xE5
#define TKS_IOC_INFO _IOR(TKS_IOC_MAGIC, 1, struct tks_kmod_info)
#define TKS_IOC_RUN _IOWR(TKS_IOC_MAGIC, 2, struct tks_kmod_run)
#define TKS_IOC_READ _IOWR(TKS_IOC_MAGIC, 3, struct tks_kmod_read)
#define TKS_IOC_FREE _IO(TKS_IOC_MAGIC, 4)

#endif
