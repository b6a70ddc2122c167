/* SPDX-License-Identifier: MIT */
/* tickscope/clock.h: the clock reads, freestanding (no libc), shared byte for byte by the library,
 * user programs and the kernel module. Every method is a begin/end pair of instruction sequences. */
#ifndef TICKSCOPE_CLOCK_H
#define TICKSCOPE_CLOCK_H

#if defined(__KERNEL__)
#include <linux/types.h>
typedef u64 tks_u64;
typedef u32 tks_u32;
#else
#include <stdint.h> /* a freestanding header: no libc is linked for it */
typedef uint64_t tks_u64;
typedef uint32_t tks_u32;
#endif

/* The architecture: a build for any other stops here (src/arch/README.md: adding one). */
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#define TKS_ARCH_X86 1
#elif defined(__aarch64__)
#define TKS_ARCH_ARM64 1
#else
#error "tickscope: no clock reads for this architecture (x86-64, i386 and arm64 have them): add its TKS_ARCH_ macro, methods and reads in tickscope/clock.h and its folder src/arch/NAME/ (see src/arch/README.md)"
#endif

/* Windows (no x64 inline assembly in MSVC): intrinsics; elsewhere GNU asm, exact to the byte. */
#if defined(TKS_ARCH_X86) && (defined(_WIN32) || defined(_MSC_VER)) && !defined(__KERNEL__)
#define TKS__X86_INTRINSICS 1
#include <intrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_MSC_VER)
#define TKS_ALWAYS_INLINE static __forceinline
#else
#define TKS_ALWAYS_INLINE static inline __attribute__((always_inline))
#endif
/* Keeps the compiler from moving loads and stores across it (used by the intrinsics path). */
#if defined(_MSC_VER) && !defined(__clang__)
#define TKS__COMPILER_BARRIER() _ReadWriteBarrier()
#else
#define TKS__COMPILER_BARRIER() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/* Casts and the null pointer spelled so that C++ users compiling with -Wold-style-cast and
 * -Wzero-as-null-pointer-constant get no warning from this header (tests/test_headers_strict.c). */
#if defined(__cplusplus)
#define TKS__CAST(T, v) (static_cast<T>(v))
#define TKS__RECAST(T, v) (reinterpret_cast<T>(v))
#if __cplusplus >= 201103L || defined(_MSC_VER)
#define TKS__NULL nullptr
#else
#define TKS__NULL 0
#endif
#else
#define TKS__CAST(T, v) ((T)(v))
#define TKS__RECAST(T, v) ((T)(v))
#define TKS__NULL ((void *)0)
#endif

/* TSC_AUX value meaning "this read did not return one" (RDTSC, CNTVCT). Linux stores
 * (node << 12) | cpu in TSC_AUX, which never has all bits set. */
#define TKS_AUX_NONE 0xffffffffu

/* ------------------------------------------------------------------ methods
 * THE list of methods, in enum order: everything else (the enum, the name table, every hot loop
 * of the library, the benchmarks, the regions and the kernel module) is generated from it.
 * Adding a method is a line here plus its tks_begin_<name>/tks_end_<name> sequences below.
 *
 * F(X, name, NAME, where, preference, flags, "begin", "end", "source", ...); the list's own
 * extra arguments are passed on to F (at least one, so that C99 takes the macro):
 *   where       X86, X86_RING0 (kernel only) or ARM64: the code exists only there;
 *   preference  the order in which a method is chosen when none is named (1 first; see
 *               tks_method_default in tickscope/method.h, which also skips those whose fences
 *               do not hold on the CPU at hand);
 *   flags  what the method guarantees and needs (TKS_MF_*; the architecture and ring-0 flags
 *          follow from where). */
#define TKS_METHOD_LIST(F, X, ...)                                                            \
    F(X, cpuid, CPUID, X86, 5, TKS_MF_FENCED_END | TKS_MF_USES_CPUID,                         \
      "CPUID; RDTSC", "CPUID; RDTSC", "white paper 3.1", __VA_ARGS__)                                 \
    F(X, rdtscp, RDTSCP, X86, 4,                                                              \
      TKS_MF_FENCED_END | TKS_MF_AUX | TKS_MF_USES_CPUID | TKS_MF_NEEDS_RDTSCP,            \
      "CPUID; RDTSC", "RDTSCP; CPUID", "white paper 3.2.1", __VA_ARGS__)                              \
    F(X, lfence, LFENCE, X86, 1,                                                              \
      TKS_MF_FENCED_BEGIN | TKS_MF_FENCED_END | TKS_MF_AUX | TKS_MF_NEEDS_RDTSCP |          \
          TKS_MF_NEEDS_SSE2 | TKS_MF_LFENCE_ORDER,                                         \
      "LFENCE; RDTSC; LFENCE", "RDTSCP; LFENCE", "Intel SDM (RDTSC, RDTSCP)", __VA_ARGS__)            \
    F(X, mfence, MFENCE, X86, 3,                                                              \
      TKS_MF_FENCED_BEGIN | TKS_MF_FENCED_END | TKS_MF_AUX | TKS_MF_NEEDS_RDTSCP |          \
          TKS_MF_NEEDS_SSE2 | TKS_MF_LFENCE_ORDER,                                         \
      "MFENCE; LFENCE; RDTSC; LFENCE", "MFENCE; RDTSCP; LFENCE",                           \
      "Intel SDM (RDTSC: stores globally visible first)", __VA_ARGS__)                                \
    F(X, serialize, SERIALIZE, X86, 2,                                                        \
      TKS_MF_FENCED_BEGIN | TKS_MF_FENCED_END | TKS_MF_AUX | TKS_MF_NEEDS_RDTSCP |          \
          TKS_MF_NEEDS_SERIALIZE | TKS_MF_NEEDS_SSE2 | TKS_MF_LFENCE_ORDER,                 \
      "SERIALIZE; RDTSC; LFENCE", "RDTSCP; SERIALIZE", "Intel SDM (SERIALIZE)", __VA_ARGS__)          \
    F(X, rdtsc, RDTSC, X86, 6, TKS_MF_UNFENCED, "RDTSC", "RDTSC", "IAPerf macros (unfenced)", __VA_ARGS__) \
    F(X, cr0, CR0, X86_RING0, 9, TKS_MF_FENCED_END | TKS_MF_USES_CPUID,                       \
      "CPUID; RDTSC", "MOV CR0 write-back; RDTSC", "white paper 3.2.3", __VA_ARGS__)                  \
    F(X, lfence_rdtsc, LFENCE_RDTSC, X86, 2, TKS_MF_FENCED_BEGIN | TKS_MF_FENCED_END | TKS_MF_NEEDS_SSE2 | \
      TKS_MF_LFENCE_ORDER, "LFENCE; RDTSC; LFENCE", "LFENCE; RDTSC; LFENCE", "Intel SDM; no RDTSCP", __VA_ARGS__) \
    F(X, isb, ISB, ARM64, 1, TKS_MF_FENCED_BEGIN | TKS_MF_FENCED_END,                         \
      "ISB; MRS CNTVCT_EL0; ISB", "ISB; MRS CNTVCT_EL0; ISB", "Arm ARM (generic timer)", __VA_ARGS__) \
    F(X, cntvct, CNTVCT, ARM64, 6, TKS_MF_UNFENCED, "MRS CNTVCT_EL0", "MRS CNTVCT_EL0",       \
      "unfenced, for comparison", __VA_ARGS__)

/* What a method guarantees and needs. */
#define TKS_MF_UNFENCED       0x000u /* neither reading is ordered against the measured code */
#define TKS_MF_FENCED_BEGIN   0x001u /* the measured code cannot start before the first reading */
#define TKS_MF_FENCED_END     0x002u /* the second reading waits for the measured code to finish */
#define TKS_MF_AUX            0x004u /* the end reading returns TSC_AUX (RDTSCP) */
#define TKS_MF_USES_CPUID     0x008u /* executes CPUID (traps to a hypervisor) */
#define TKS_MF_RING0          0x010u /* privileged: kernel code only */
#define TKS_MF_NEEDS_RDTSCP   0x020u
#define TKS_MF_NEEDS_SSE2     0x040u /* LFENCE and MFENCE */
#define TKS_MF_NEEDS_SERIALIZE 0x080u
#define TKS_MF_LFENCE_ORDER   0x100u /* its fences rely on LFENCE being dispatch-serialising */
#define TKS_MF_X86            0x200u
#define TKS_MF_ARM64          0x400u
#define TKS__WHERE_FLAGS_X86 TKS_MF_X86
#define TKS__WHERE_FLAGS_X86_RING0 (TKS_MF_X86 | TKS_MF_RING0)
#define TKS__WHERE_FLAGS_ARM64 TKS_MF_ARM64

/* TKS_METHOD_EACH(X): X(name, NAME, flags) for every method, flags complete; ..._HERE(X): for the
 * methods this build has (ring-0 ones only with TKS_RING0): the cases of a hot loop's switch. */
#define TKS__ALL(X, n, N, w, p, f, b, e, s, ...) X(n, N, (f) | TKS__WHERE_FLAGS_##w)
#define TKS__HERE(X, n, N, w, p, f, b, e, s, ...) TKS__HERE_##w(X(n, N, (f) | TKS__WHERE_FLAGS_##w))
#define TKS__HERE_WITH(X, n, N, w, p, f, b, e, s, ...)                                        \
    TKS__HERE_##w(X(n, N, (f) | TKS__WHERE_FLAGS_##w, __VA_ARGS__))
#define TKS_METHOD_EACH(X) TKS_METHOD_LIST(TKS__ALL, X, ~)
#define TKS_METHOD_EACH_HERE(X) TKS_METHOD_LIST(TKS__HERE, X, ~)
/* ... and X(name, NAME, flags, ...) with the arguments given (a benchmark's block). */
#define TKS_METHOD_EACH_HERE_WITH(X, ...) TKS_METHOD_LIST(TKS__HERE_WITH, X, __VA_ARGS__)
#if defined(TKS_ARCH_X86)
#define TKS__HERE_X86(...) __VA_ARGS__
#define TKS__HERE_ARM64(...)
#if defined(__KERNEL__) || defined(TKS_RING0)
#define TKS__HERE_X86_RING0(...) __VA_ARGS__
#else
#define TKS__HERE_X86_RING0(...)
#endif
#define TKS_MF_THIS_ARCH TKS_MF_X86 /* the flag of the methods this architecture has */
#else
#define TKS__HERE_X86(...)
#define TKS__HERE_X86_RING0(...)
#define TKS__HERE_ARM64(...) __VA_ARGS__
#define TKS_MF_THIS_ARCH TKS_MF_ARM64
#endif
/* Whether a method's end reading returns TSC_AUX itself (a constant in the generated loops). */
#define TKS_MF_END_AUX(flags) (((flags) & TKS_MF_AUX) != 0)

#define TKS__ENUM(n, N, f) TKS_METHOD_##N,
enum tks_method {
    TKS_METHOD_EACH(TKS__ENUM)
    TKS_METHOD_COUNT
};
#undef TKS__ENUM

struct tks_method_info {
    const char *name;
    const char *begin; /* the instruction sequence, for people */
    const char *end;
    const char *source;
    unsigned flags;
    unsigned preference; /* 1 is chosen first when no method is named */
};

/* The method table. A function rather than an array so the header stays a header. */
#define TKS__INFO(X, n, N, w, p, f, b, e, s, ...) {#n, b, e, s, (f) | TKS__WHERE_FLAGS_##w, p},
/* C++'s -Wshadow: a function named as its struct "hides the constructor"; the C name is the API. */
#if defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif
TKS_ALWAYS_INLINE const struct tks_method_info *tks_method_info(enum tks_method m)
{
    static const struct tks_method_info table[TKS_METHOD_COUNT] = {
        TKS_METHOD_LIST(TKS__INFO, 0, ~)
    };
    return TKS__CAST(unsigned, m) < TKS_METHOD_COUNT ? &table[m] : TKS__NULL;
}
#if defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#undef TKS__INFO

/* ------------------------------------------------------------------ CPU features */

struct tks_cpu_features {
    char vendor[13];              /* "GenuineIntel", "AuthenticAMD", ... ("" on arm64) */
    tks_u32 max_leaf, max_ext_leaf;
    unsigned char intel, amd;
    unsigned char tsc, rdtscp, invariant_tsc, sse2, serialize, rdpid;
    unsigned char hypervisor;         /* CPUID.1:ECX[31] */
    unsigned char lfence_serializing; /* Intel always; AMD when CPUID 0x80000021 EAX[2] says so */
    tks_u64 counter_hz;               /* arm64: CNTFRQ_EL0; x86: 0 (measured elsewhere) */
};

#if defined(TKS_ARCH_X86)

/* CPUID. On i386, EBX may be the PIC register, so it is saved in ESI around the instruction. */
TKS_ALWAYS_INLINE void tks_cpuid(tks_u32 leaf, tks_u32 subleaf, tks_u32 r[4])
{
#if defined(TKS__X86_INTRINSICS)
    int v[4];
    unsigned i;
    __cpuidex(v, TKS__CAST(int, leaf), TKS__CAST(int, subleaf));
    for (i = 0; i < 4; i++)
        r[i] = TKS__CAST(tks_u32, v[i]);
#elif defined(__i386__)
    __asm__ __volatile__("movl %%ebx, %%esi\n\t"
                         "cpuid\n\t"
                         "xchgl %%ebx, %%esi"
                         : "=a"(r[0]), "=S"(r[1]), "=c"(r[2]), "=d"(r[3])
                         : "a"(leaf), "c"(subleaf));
#else
    __asm__ __volatile__("cpuid"
                         : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                         : "a"(leaf), "c"(subleaf));
#endif
}

/* CPUID used only as a serialising instruction: leaf 0, outputs discarded. */
TKS_ALWAYS_INLINE void tks__cpuid_barrier(void)
{
    /* EAX and ECX are in/out: the compiler reloads leaf 0 and keeps nothing of its own there. */
#if defined(TKS__X86_INTRINSICS)
    int v[4];
    TKS__COMPILER_BARRIER();
    __cpuidex(v, 0, 0);
    TKS__COMPILER_BARRIER();
    (void)v;
#elif defined(__i386__)
    tks_u32 leaf = 0, sub = 0;
    __asm__ __volatile__("movl %%ebx, %%esi\n\tcpuid\n\tmovl %%esi, %%ebx"
                         : "+a"(leaf), "+c"(sub) : : "edx", "esi", "memory");
#else
    tks_u32 leaf = 0, sub = 0;
    __asm__ __volatile__("cpuid" : "+a"(leaf), "+c"(sub) : : "rbx", "rdx", "memory");
#endif
}

TKS_ALWAYS_INLINE void tks_cpu_features_probe(struct tks_cpu_features *f)
{
    tks_u32 r[4];
    unsigned i;
    for (i = 0; i < sizeof(*f); i++)
        TKS__RECAST(unsigned char *, f)[i] = 0;
    tks_cpuid(0, 0, r);
    f->max_leaf = r[0];
    for (i = 0; i < 4; i++) {
        f->vendor[i] = TKS__CAST(char, r[1] >> (8 * i));
        f->vendor[4 + i] = TKS__CAST(char, r[3] >> (8 * i));
        f->vendor[8 + i] = TKS__CAST(char, r[2] >> (8 * i));
    }
    f->vendor[12] = 0;
    f->intel = r[1] == 0x756e6547u && r[3] == 0x49656e69u && r[2] == 0x6c65746eu;
    f->amd = r[1] == 0x68747541u && r[3] == 0x69746e65u && r[2] == 0x444d4163u;
    if (f->max_leaf >= 1) {
        tks_cpuid(1, 0, r);
        f->tsc = TKS__CAST(unsigned char, (r[3] >> 4) & 1);
        f->sse2 = TKS__CAST(unsigned char, (r[3] >> 26) & 1);
        f->hypervisor = TKS__CAST(unsigned char, (r[2] >> 31) & 1);
    }
    if (f->max_leaf >= 7) {
        tks_cpuid(7, 0, r);
        f->serialize = TKS__CAST(unsigned char, (r[3] >> 14) & 1);
        f->rdpid = TKS__CAST(unsigned char, (r[2] >> 22) & 1);
    }
    /* An out-of-range extended leaf returns another leaf's data on Intel: check the maximum. */
    tks_cpuid(0x80000000u, 0, r);
    f->max_ext_leaf = r[0] >= 0x80000000u ? r[0] : 0;
    if (f->max_ext_leaf >= 0x80000001u) {
        tks_cpuid(0x80000001u, 0, r);
        f->rdtscp = TKS__CAST(unsigned char, (r[3] >> 27) & 1);
    }
    if (f->max_ext_leaf >= 0x80000007u) {
        tks_cpuid(0x80000007u, 0, r);
        f->invariant_tsc = TKS__CAST(unsigned char, (r[3] >> 8) & 1);
    }
    if (f->intel)
        f->lfence_serializing = f->sse2; /* SDM: LFENCE waits for all prior instructions */
    else if (f->amd && f->max_ext_leaf >= 0x80000021u) {
        tks_cpuid(0x80000021u, 0, r);
        f->lfence_serializing = TKS__CAST(unsigned char, (r[0] >> 2) & 1);
    }
}

/* ---- the reads. Every sequence carries a "memory" clobber so the compiler cannot move the
 * measured code's loads and stores across it. The begin reading is moved out of the registers
 * RDTSCP will overwrite before its closing fence, so no instruction of ours runs inside the
 * window (check with objdump -d: nothing between the fence and the end sequence but the work). */

#if defined(TKS__X86_INTRINSICS)
#include "clock_intrin.h"
#else /* GNU inline assembly */

#if defined(__x86_64__)
#define TKS__X86_BEGIN(pre, post)                                                          \
    tks_u64 t;                                                                            \
    __asm__ __volatile__(pre "rdtsc\n\t"                                                  \
                         "shlq $32, %%rdx\n\t"                                            \
                         "orq %%rdx, %%rax\n\t"                                           \
                         "movq %%rax, %0\n\t" post                                        \
                         : "=r"(t) : : "rax", "rdx", "memory");                            \
    return t
#define TKS__X86_END(pre, post)                                                            \
    tks_u32 lo, hi, c;                                                                    \
    __asm__ __volatile__(pre "rdtscp\n\t" post : "=a"(lo), "=d"(hi), "=c"(c) : : "memory"); \
    *aux = c;                                                                             \
    return (TKS__CAST(tks_u64, hi) << 32) | lo
#else
/* i386 has too few registers: the compiler may put a move or two inside the window (storing the
 * reading from inside the sequence or pinning ESI:EDI did not help); the empty window cancels it. */
#define TKS__X86_BEGIN(pre, post)                                                          \
    tks_u32 lo, hi;                                                                       \
    __asm__ __volatile__(pre "rdtsc\n\t"                                                  \
                         "movl %%eax, %0\n\t"                                             \
                         "movl %%edx, %1\n\t" post                                        \
                         : "=r"(lo), "=r"(hi) : : "eax", "edx", "memory");                 \
    return (TKS__CAST(tks_u64, hi) << 32) | lo
#define TKS__X86_END(pre, post)                                                            \
    tks_u32 lo, hi, c;                                                                    \
    __asm__ __volatile__(pre "rdtscp\n\t" post : "=a"(lo), "=d"(hi), "=c"(c) : : "memory"); \
    *aux = c;                                                                             \
    return (TKS__CAST(tks_u64, hi) << 32) | lo
#endif

/* SERIALIZE is 0f 01 e8; spelled as bytes for assemblers that predate it. */
#define TKS__X86_SERIALIZE ".byte 0x0f, 0x01, 0xe8\n\t"
/* Plain reads, used to build the methods and by the warm-up and quantum probes. */
TKS_ALWAYS_INLINE tks_u64 tks_rdtsc(void) { TKS__X86_BEGIN("", ""); }
TKS_ALWAYS_INLINE tks_u64 tks_rdtscp(tks_u32 *aux) { TKS__X86_END("", ""); }
TKS_ALWAYS_INLINE tks_u64 tks_begin_lfence(void) { TKS__X86_BEGIN("lfence\n\t", "lfence"); }
TKS_ALWAYS_INLINE tks_u64 tks_end_lfence(tks_u32 *aux) { TKS__X86_END("", "lfence"); }

TKS_ALWAYS_INLINE tks_u64 tks_begin_mfence(void) { TKS__X86_BEGIN("mfence\n\tlfence\n\t", "lfence"); }
TKS_ALWAYS_INLINE tks_u64 tks_end_mfence(tks_u32 *aux) { TKS__X86_END("mfence\n\t", "lfence"); }

/* LFENCE alone at both ends: the end's first LFENCE waits for the work, as RDTSCP does in lfence. */
TKS_ALWAYS_INLINE tks_u64 tks_begin_lfence_rdtsc(void) { TKS__X86_BEGIN("lfence\n\t", "lfence"); }
/* The ends without RDTSCP say "no TSC_AUX" after their reading: the store stays out of the
 * window (a sanitised build checks it with branches of its own). */
TKS_ALWAYS_INLINE tks_u64 tks_end_lfence_rdtsc(tks_u32 *aux)
{
    tks_u64 t = tks_begin_lfence_rdtsc();
    *aux = TKS_AUX_NONE;
    return t;
}

TKS_ALWAYS_INLINE tks_u64 tks_begin_serialize(void) { TKS__X86_BEGIN(TKS__X86_SERIALIZE, "lfence"); }
TKS_ALWAYS_INLINE tks_u64 tks_end_serialize(tks_u32 *aux) { TKS__X86_END("", TKS__X86_SERIALIZE); }

#endif /* intrinsics or assembly */

/* The counter read with no fence: what the library falls back to on a CPU without LFENCE. */
TKS_ALWAYS_INLINE tks_u64 tks__read_plain(void) { return tks_rdtsc(); }

/* TSC_AUX (the CPU Linux runs us on), read before a begin sequence so that a sample whose
 * ends ran on different CPUs can be recognised. Outside the window; RDTSCP needed. */
TKS_ALWAYS_INLINE tks_u32 tks_cpu_aux(void)
{
    tks_u32 aux;
    (void)tks_rdtscp(&aux);
    return aux;
}

/* cpuid: the paper's first method. Both reads follow CPUID, which under a hypervisor traps. */
TKS_ALWAYS_INLINE tks_u64 tks_begin_cpuid(void) { tks__cpuid_barrier(); return tks_rdtsc(); }
TKS_ALWAYS_INLINE tks_u64 tks_end_cpuid(tks_u32 *aux)
{
    tks_u64 t;
    tks__cpuid_barrier();
    t = tks_rdtsc();
    *aux = TKS_AUX_NONE;
    return t;
}

/* rdtscp: the paper's improved method; the CPUID after RDTSCP keeps later code out. */
TKS_ALWAYS_INLINE tks_u64 tks_begin_rdtscp(void) { tks__cpuid_barrier(); return tks_rdtsc(); }
TKS_ALWAYS_INLINE tks_u64 tks_end_rdtscp(tks_u32 *aux)
{
    tks_u64 t = tks_rdtscp(aux);
    tks__cpuid_barrier();
    return t;
}

TKS_ALWAYS_INLINE tks_u64 tks_begin_rdtsc(void) { return tks_rdtsc(); }
TKS_ALWAYS_INLINE tks_u64 tks_end_rdtsc(tks_u32 *aux)
{
    tks_u64 t = tks_rdtsc();
    *aux = TKS_AUX_NONE;
    return t;
}

#if defined(__KERNEL__) || defined(TKS_RING0)
/* cr0: writing CR0 serialises (SDM 3A, "Serializing Instructions"). Ring 0 only, interrupts off.
 * The write-back is one out-of-line function of the ring-0 code that uses this method (the
 * kernel module's kmod/cr0.c; define your own with TKS_RING0), so the text holds one MOV to CR0
 * and not one per loop: its call and return are part of this method's overhead. */
void tks__cr0_writeback(void);
TKS_ALWAYS_INLINE tks_u64 tks_begin_cr0(void) { tks__cpuid_barrier(); return tks_rdtsc(); }
TKS_ALWAYS_INLINE tks_u64 tks_end_cr0(tks_u32 *aux)
{
    tks_u64 t;
    tks__cr0_writeback();
    t = tks_rdtsc();
    *aux = TKS_AUX_NONE;
    return t;
}
#endif

#elif defined(TKS_ARCH_ARM64)
#include "clock_arm64.h"
#endif /* architecture */

/* The method of preference 1 (lfence, isb): the regions' usual path, IAPerf's rdtsc(), calibration. */
#define TKS__PREF_1(...) __VA_ARGS__
#define TKS__PREF_2(...)
#define TKS__PREF_3(...)
#define TKS__PREF_4(...)
#define TKS__PREF_5(...)
#define TKS__PREF_6(...)
#define TKS__PREF_7(...)
#define TKS__PREF_8(...)
#define TKS__PREF_9(...)
#define TKS__FIRST(X, n, N, w, p, f, b, e, s, ...)                                            \
    TKS__HERE_##w(TKS__PREF_##p(                                                          \
        TKS_ALWAYS_INLINE enum tks_method tks__method_first(void) { return TKS_METHOD_##N; } \
        TKS_ALWAYS_INLINE tks_u64 tks__begin_first(void) { return tks_begin_##n(); }       \
        TKS_ALWAYS_INLINE tks_u64 tks__end_first(tks_u32 *aux) { return tks_end_##n(aux); }))
TKS_METHOD_LIST(TKS__FIRST, ~, ~)
#define TKS__METHOD_FIRST (tks__method_first())

/* Whether this CPU (and this build: user space or kernel) can run a method. */
TKS_ALWAYS_INLINE int tks_method_available(enum tks_method m, const struct tks_cpu_features *f)
{
    const struct tks_method_info *mi = tks_method_info(m);
    if (!mi)
        return 0;
    if (!(mi->flags & TKS_MF_THIS_ARCH))
        return 0;
#if defined(TKS_ARCH_X86)
    if (!f->tsc)
        return 0;
#endif
#if !defined(__KERNEL__) && !defined(TKS_RING0)
    if (mi->flags & TKS_MF_RING0)
        return 0;
#endif
    if ((mi->flags & TKS_MF_NEEDS_RDTSCP) && !f->rdtscp)
        return 0;
    if ((mi->flags & TKS_MF_NEEDS_SSE2) && !f->sse2)
        return 0;
    if ((mi->flags & TKS_MF_NEEDS_SERIALIZE) && !f->serialize)
        return 0;
    return 1;
}

/* Whether tks__begin_first runs here (only the first method's end needs RDTSCP). */
TKS_ALWAYS_INLINE int tks__begin_first_available(const struct tks_cpu_features *f)
{
    struct tks_cpu_features g = *f;
    g.rdtscp = 1;
    return tks_method_available(TKS__METHOD_FIRST, &g);
}

#define tks_cpu_probe tks_cpu_features_probe /* the name before 0.2 */

/* Token-pasting forms for hot loops instantiated per method: TKS_BEGIN(lfence). */
#define TKS_BEGIN(m) tks_begin_##m()
#define TKS_END(m, auxp) tks_end_##m(auxp)

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_CLOCK_H */
