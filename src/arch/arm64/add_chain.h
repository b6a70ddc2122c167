/* SPDX-License-Identifier: MIT */
/* arm64/add_chain.h: the add chain's instructions on arm64, for add_chain.h. */

/* dst += src. */
#define TKS__ADD(dst, src) "add " dst ", " dst ", " src
/* count -= 1, back to label 1 while it is not zero. */
#define TKS__LOOP_BACK(count) "subs " count ", " count ", #1\n\tb.ne 1b"

/* The add check's chains (sample/add_check.c): a multiply and a floating-point add, each on its
 * own previous result. Their latencies are whole numbers of core cycles, as every instruction's
 * is; which numbers does not matter. The FP operand is a double in a SIMD register (%d0). */
#define TKS__CHECK_MUL(dst) "mul " dst ", " dst ", " dst
#define TKS__CHECK_FADD(op) "fadd " op ", " op ", " op
#define TKS__CHECK_FP_REG "+w"
#define TKS__CHECK_FP_OP "%d0"
