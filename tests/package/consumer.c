/* SPDX-License-Identifier: MIT */
/* consumer.c: a program built against an installed libtickscope-dev with pkg-config, as a user's
 * would be (tests/package/deb_check.sh): one benchmark through TKS_MEASURE and tks_main. */
#include <string.h>
#include <tickscope/bench.h>

static void bm_add(tks_state *st)
{
    unsigned x = (unsigned)tks_state_arg(st);
    TKS_MEASURE(st, { tks_opaque(x); x += 1; tks_do_not_optimize(x); });
}
TKS_BENCHMARK_ARGS(bm_add, 1);
TKS_MAIN();
