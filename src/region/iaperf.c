/* SPDX-License-Identifier: MIT */
/* iaperf.c: the functions behind tickscope/iaperf.h, the article's PERFINITMHZ, PERFSTOP
 * and PERFREPORT on the regions. PERFREPORT prints because the article's does: it is the report
 * the program asked for. */
#include <math.h>
#include <stdio.h>

#include "region/internal.h"

unsigned long long tks__region_iaperf_stop(tks__region_ctx *ctx, tks__region_site *site,
                                           const char *func, int line, int m, tks_u64 raw)
{
    const tks__region_overhead_est *e;
    char name[TKS_REGION_NAME_MAX];
    double o, net;
    /* The name is made once per PERFSTOP: the registry copies it at the site's first use. */
    if (!__atomic_load_n(&site->id, __ATOMIC_RELAXED))
        snprintf(name, sizeof name, "%s:%d", func ? func : "?", line);
    else
        name[0] = 0;
    tks__region_slow_record(ctx, site, name, m, raw);
    if ((int64_t)raw < 0)
        return 0; /* read on two CPUs whose counters disagree: counted as negative, not timed */
    pthread_mutex_lock(&ctx->lock);
    e = tks__region_overhead_of(ctx, m);
    o = e ? e->median : 0; /* one pass: net of the typical (median) empty pass */
    pthread_mutex_unlock(&ctx->lock);
    net = (double)raw - o;
    return net > 0 ? (unsigned long long)llround(net) : 0;
}

void tks__region_iaperf_report(tks__region_ctx *ctx, unsigned long long clocks,
                               double clockspeed)
{
    double hz = clockspeed;
    if (!(hz > 0))
        hz = tks__region_measured_hz(ctx);
    if (hz > 0)
        printf("time elapsed = %f sec\n", (double)clocks / hz);
    else
        printf("time elapsed = ? sec (%llu ticks; the TSC rate is unknown)\n", clocks);
}
