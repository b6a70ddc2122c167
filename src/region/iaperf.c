/* iaperf.c: the functions behind tickscope/iaperf.h, the article's PERFINITMHZ, PERFSTOP
 * and PERFREPORT on the regions. PERFREPORT prints because the article's does: it is the report
 * the program asked for. */
#include <math.h>
#include <stdio.h>

#include "region/internal.h"

double tks__region_iaperf_init(tks__region_ctx *ctx, double mhz)
{
    if (mhz > 0)
        tks__region_set_tsc_hz(ctx, mhz * 1e6);
    return mhz > 0 ? mhz * 1e6 : 0;
}

unsigned long long tks__region_iaperf_net(tks__region_ctx *ctx, tks_u64 raw, int m)
{
    const tks__region_overhead_est *e;
    double o, net;
    if (!raw)
        return 0;
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
