/* SPDX-License-Identifier: MIT */
/* api.c: the region runtime's entry points (the public API, the slow paths of the inline macros,
 * the IAPerf functions) and the one context they all hand on; nothing else names it. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "region/internal.h"
#include "report/region/region_report.h"
#include "tickscope/iaperf.h"

/* The inline macros read this without a call, so it cannot live in the context: set-up copies
 * the context's choice here once, before any call site is registered. */
int tks__region_method = -1;

static tks__region_ctx ctx = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .report_lock = PTHREAD_MUTEX_INITIALIZER,
};
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The destructor of ctx.thread_key: a key's destructor gets only the value, not the context. */
static void thread_gone(void *p)
{
    tks__region_thread_gone(&ctx, p);
}

static void at_exit(void)
{
    if (tks__region_exit_report_due(&ctx))
        tks_region_report(NULL, -1);
}

static void init_once_fn(void)
{
    pthread_key_create(&ctx.thread_key, thread_gone);
    tks__region_config_init(&ctx);
    pthread_mutex_lock(&ctx.lock);
    tks__region_method = ctx.method;
    tks__region_counting = ctx.cfg.counters[0] != 0;
    pthread_mutex_unlock(&ctx.lock);
    atexit(at_exit);
}

/* The context, set up: configuration from the environment, the start-up method, the exit report.
 * Every entry point calls it first (lock not held); after the first, it costs one check. */
static tks__region_ctx *region(void)
{
    pthread_once(&init_once, init_once_fn);
    return &ctx;
}

/* ---------------------------------------------------------------- the inline macros' slow paths */

void tks__region_events_begin(struct tks__region_slot *slot)
{
    tks__region_events_read(region(), slot, 0);
}

void tks__region_events_end(struct tks__region_slot *slot)
{
    tks__region_events_read(region(), slot, 1);
}

struct tks__region_slot *tks__region_begin_slow(tks__region_site *s, const char *name, int m)
{
    return tks__region_slow_begin(region(), s, name, m);
}

tks_u64 tks__region_end_slow(tks__region_site *s, const char *name, int m, tks_u64 t1)
{
    return tks__region_slow_end(region(), s, name, m, t1);
}

/* ---------------------------------------------------------------- the API
 * Arguments are checked before set-up, so a call that fails sets nothing up. */

int tks_region_report(const char *out, int format)
{
    if (format < -1 || (format >= 0 && !tks__writers_find(&tks__region_writers, format)))
        return TKS_EINVAL;
    return tks__region_report(region(), out, format);
}

void tks_region_reset(void)
{
    tks__region_reset(region());
}

int tks_region_set_output(const char *out, int format)
{
    if ((out && (!*out || strlen(out) >= TKS__REGION_OUT_MAX)) || format < -1 ||
        (format >= 0 && !tks__writers_find(&tks__region_writers, format)))
        return TKS_EINVAL;
    tks__region_set_output(region(), out, format);
    return 0;
}

int tks_region_set_reservoir(const char *name, size_t size)
{
    return tks__region_set_reservoir(region(), name, size);
}

int tks_region_set_tsc_hz(double hz)
{
    tks__region_set_tsc_hz(region(), hz);
    return 0;
}

int tks_region_set_per_thread(int on)
{
    if (on != 0 && on != 1)
        return TKS_EINVAL;
    tks__region_set_per_thread(region(), on);
    return 0;
}

int tks_region_report_on_signal(int sig)
{
    if (sig < 0 || sig >= 65 || sig == SIGKILL || sig == SIGSTOP)
        return TKS_EINVAL;
    return tks__region_report_on_signal(region(), sig);
}

int tks_region_stats_get(const char *name, tks_region_stats *out)
{
    if (!name || !out)
        return TKS_EINVAL;
    return tks__region_stats_get(region(), name, out);
}

double tks_region_overhead(void)
{
    return tks__region_overhead_ticks(region());
}

/* ---------------------------------------------------------------- tickscope/iaperf.h */

unsigned long long tks__iaperf_stop(tks__region_site *site, const char *func, int line, int m,
                                    tks_u64 raw)
{
    return tks__region_iaperf_stop(region(), site, func, line, m, raw);
}

void tks__iaperf_report(unsigned long long clocks, double clockspeed)
{
    tks__region_iaperf_report(region(), clocks, clockspeed);
}
