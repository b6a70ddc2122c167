/* SPDX-License-Identifier: MIT */
/* x86/add_chain.h: the add chain's instructions on x86 (AT&T operand order), for add_chain.h. */

/* dst += src. */
#define TKS__ADD(dst, src) "add " src ", " dst
/* count -= 1, back to label 1 while it is not zero. */
#define TKS__LOOP_BACK(count) "sub $1, " count "\n\tjnz 1b"

#if defined(__i386__)
/* i386 has too few registers for the compiler to place the timed chain well by itself: it moved
 * the begin reading between registers and the stack just after the begin fence or just before
 * the end read, inside the window. Pinned, the reading stays in EBX:EDI, which neither read
 * touches, and the chain in ESI and ECX, which the begin leaves alone. */
#define TKS__CHAIN_TIMED(acc, n, t0, begin, t1, end)                                      \
    do {                                                                                  \
        __asm__ __volatile__("" : "+S"(acc), "+c"(n)); /* where the chain wants them */   \
        t0 = begin;                                                                       \
        {                                                                                 \
            tks_u32 lo_ = (tks_u32)t0, hi_ = (tks_u32)(t0 >> 32);                         \
            __asm__ __volatile__(TKS_CHAIN_ASM                                            \
                                 : "+S"(acc), "+c"(n), "+b"(lo_), "+D"(hi_) : : "cc");    \
            t1 = end;                                                                     \
            __asm__ __volatile__("" : "+b"(lo_), "+D"(hi_));                              \
            t0 = ((tks_u64)hi_ << 32) | lo_;                                              \
        }                                                                                 \
    } while (0)
#endif

/* The add check's chains (sample/add_check.c): a multiply and a floating-point add, each on its
 * own previous result. Their latencies are whole numbers of core cycles, as every instruction's
 * is; which numbers does not matter. */
#define TKS__CHECK_MUL(dst) "imul " dst ", " dst
#if defined(__x86_64__)
#define TKS__CHECK_FADD(op) "addsd " op ", " op
#define TKS__CHECK_FP_REG "+x" /* the constraint of the FP chain's operand, a double */
#else /* i386, where doubles live on the x87 stack: the operand is its top */
#define TKS__CHECK_FADD(op) "fadd %%st(0), %%st"
#define TKS__CHECK_FP_REG "+t"
#endif
#define TKS__CHECK_FP_OP "%0"
