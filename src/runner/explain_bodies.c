/* SPDX-License-Identifier: MIT */
/* explain_alone.c: the body --explain runs to learn what its added work costs alone: TKS_MEASURE
 * with an empty block, so each repetition of the TKS__PERTURBED kernel is the work and the
 * repetition loop. Always optimised (CMakeLists.txt), as a benchmark is. */
#include "runner/runner.h"

void tks__explain_alone_body(tks_state *st)
{
    /* an empty asm keeps the repetitions, as a block would */
    TKS_MEASURE(st, { __asm__ __volatile__(""); });
}
