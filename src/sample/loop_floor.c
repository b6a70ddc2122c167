/* SPDX-License-Identifier: MIT */
/* loop_floor.c: what throughput mode's repetition loop costs a repetition with nothing in it:
 * windows around an empty counted loop, per method, shaped as TKS_MEASURE's loop is. */
#include "sample/loop_floor.h"

/* The empty asm keeps the counter in a register and the loop from being folded away; the loop
 * is then the decrement and the branch that TKS_MEASURE's `do { block } while (--j)` runs. */
#define TKS_DEFINE_FLOOR(m, M, flags)                                                     \
    static int floor_##m(uint64_t *out, uint32_t samples, uint32_t k)                     \
    {                                                                                     \
        uint64_t limit = (uint64_t)samples * 10 + 1000, bad = 0, t0, t1;                  \
        tks_u32 aux = 0;                                                                  \
        uint32_t s = 0, j;                                                                \
        if (k == 0)                                                                       \
            return TKS_EINVAL;                                                            \
        while (s < samples) {                                                             \
            j = k;                                                                        \
            t0 = TKS_BEGIN(m);                                                            \
            do {                                                                          \
                __asm__ __volatile__("" : "+r"(j));                                       \
            } while (--j);                                                                \
            t1 = TKS_END(m, &aux);                                                        \
            if (t1 >= t0)                                                                 \
                out[s++] = t1 - t0;                                                       \
            else if (++bad > limit)                                                       \
                return TKS_EDISCARD;                                                      \
        }                                                                                 \
        (void)aux;                                                                        \
        return 0;                                                                         \
    }
TKS_METHOD_EACH_HERE(TKS_DEFINE_FLOOR)

tks__loop_floor_fn tks__loop_floor_for(enum tks_method m)
{
#define TKS_FLOOR_CASE(m, M, flags)                                                       \
    case TKS_METHOD_##M:                                                                  \
        return floor_##m;
    switch (m) {
        TKS_METHOD_EACH_HERE(TKS_FLOOR_CASE)
    default:
        return 0;
    }
}
