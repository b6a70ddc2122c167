/* SPDX-License-Identifier: MIT */
/* arm64/add_chain.h: the add chain's instructions on arm64, for add_chain.h. */

/* dst += src. */
#define TKS__ADD(dst, src) "add " dst ", " dst ", " src
/* count -= 1, back to label 1 while it is not zero. */
#define TKS__LOOP_BACK(count) "subs " count ", " count ", #1\n\tb.ne 1b"
