/* SPDX-License-Identifier: MIT */
/* config.c: the regions' settings: the environment, read once at set-up, and the tks_region_set_*
 * calls, which the environment overrides; the start-up method. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region/internal.h"
#include "sample/events.h"
#include "report/region/region_report.h"

/* TICKSCOPE_REGION_FORMAT: a format of the regions' writer table ("txt" too, for console). */
static int parse_format(const char *s)
{
    return tks__writers_parse(&tks__region_writers, strcmp(s, "txt") == 0 ? "console" : s);
}

static int parse_signal(const char *s)
{
    char *end;
    long v;
    if (strncmp(s, "SIG", 3) == 0)
        s += 3;
    if (strcmp(s, "USR1") == 0)
        return SIGUSR1;
    if (strcmp(s, "USR2") == 0)
        return SIGUSR2;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v <= 0 || v >= 65 || v == SIGKILL || v == SIGSTOP)
        return -1;
    return (int)v;
}

void tks__region_config_init(tks__region_ctx *ctx)
{
    tks__region_config *cfg = &ctx->cfg;
    const char *v;
    pthread_mutex_lock(&ctx->lock);
    cfg->format_env = cfg->format_api = -1;
    cfg->signal_env = -1;
    cfg->per_thread_env = cfg->per_thread_api = -1;
    if ((v = getenv("TICKSCOPE_REGIONS_PER_THREAD")) && *v) {
        if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0)
            cfg->per_thread_env = v[0] - '0';
        else
            tks__region_note(ctx, "TICKSCOPE_REGIONS_PER_THREAD=%.40s is not 0 or 1: ignored", v);
    }
    if ((v = getenv("TICKSCOPE_REGION_COUNTERS")) && *v) { /* event counters */
        char why[200];
        if (tks__events_check_list(v, why, sizeof why) != 0 ||
            strlen(v) >= sizeof cfg->counters)
            tks__region_note(ctx, "TICKSCOPE_REGION_COUNTERS=%.40s: %.120s: ignored", v,
                             strlen(v) >= sizeof cfg->counters ? "too long" : why);
        else
            snprintf(cfg->counters, sizeof cfg->counters, "%s", v);
    }
    ctx->sig.pipe[0] = ctx->sig.pipe[1] = -1;
    ctx->method = (int)tks_method_default(tks_cpu_features_get());
    if ((v = getenv("TICKSCOPE_REGION_OUT")) && *v)
        snprintf(cfg->out_env, sizeof cfg->out_env, "%s", v);
    if ((v = getenv("TICKSCOPE_REGION_FORMAT")) && *v) {
        cfg->format_env = parse_format(v);
        if (cfg->format_env < 0) {
            char list[128];
            tks__region_note(ctx, "TICKSCOPE_REGION_FORMAT=%.40s is not one of %s: ignored", v,
                             tks__writers_list(&tks__region_writers, list, sizeof list));
        }
    }
    if ((v = getenv("TICKSCOPE_REGION_RESERVOIR")) && *v) {
        char *end;
        unsigned long long n;
        errno = 0;
        n = strtoull(v, &end, 10);
        if (errno || end == v || *end || n > 100000000ull)
            tks__region_note(ctx, "TICKSCOPE_REGION_RESERVOIR=%.40s is not a count up to "
                                  "100000000: ignored", v);
        else
            ctx->reg.default_reservoir = (size_t)n;
    }
    if ((v = getenv("TICKSCOPE_REGION_METHOD")) && *v) {
        int m = tks_method_from_name(v);
        if (m >= 0 && tks_method_available((enum tks_method)m, tks_cpu_features_get()))
            ctx->method = m;
        else
            tks__region_note(ctx, "TICKSCOPE_REGION_METHOD=%.40s is not a method this CPU runs "
                                  "in user space: ignored", v);
    }
    if (ctx->method < 0 || ctx->method >= (int)TKS_METHOD_COUNT)
        ctx->method = TKS__REGION_USUAL; /* no TSC at all: the reads will say so */
    if ((v = getenv("TICKSCOPE_REGION_SIGNAL")) && *v) {
        int sig = parse_signal(v);
        if (sig < 0)
            tks__region_note(ctx, "TICKSCOPE_REGION_SIGNAL=%.40s is not USR1, USR2 or a signal "
                                  "number: ignored", v);
        else if (tks__region_install_signal(ctx, sig) != 0)
            tks__region_note(ctx, "TICKSCOPE_REGION_SIGNAL=%.40s: the handler could not be set "
                                  "up", v);
        else
            cfg->signal_env = sig;
    }
    pthread_mutex_unlock(&ctx->lock);
}

void tks__region_set_output(tks__region_ctx *ctx, const char *out, int format)
{
    pthread_mutex_lock(&ctx->lock);
    if (out)
        snprintf(ctx->cfg.out_api, sizeof ctx->cfg.out_api, "%s", out);
    if (format >= 0)
        ctx->cfg.format_api = format;
    pthread_mutex_unlock(&ctx->lock);
}

void tks__region_set_tsc_hz(tks__region_ctx *ctx, double hz)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->cfg.tsc_hz_api = hz > 0 ? hz : 0;
    pthread_mutex_unlock(&ctx->lock);
}

void tks__region_set_per_thread(tks__region_ctx *ctx, int on)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->cfg.per_thread_api = on;
    pthread_mutex_unlock(&ctx->lock);
}

int tks__region_report_on_signal(tks__region_ctx *ctx, int sig)
{
    int rc;
    pthread_mutex_lock(&ctx->lock);
    /* The environment wins. */
    rc = ctx->cfg.signal_env >= 0 ? 0 : tks__region_install_signal(ctx, sig);
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

int tks__region_exit_report_due(tks__region_ctx *ctx)
{
    const tks__region_config *cfg = &ctx->cfg;
    int none;
    size_t n;
    pthread_mutex_lock(&ctx->lock);
    none = strcmp(cfg->out_env[0] ? cfg->out_env : cfg->out_api[0] ? cfg->out_api : "stderr",
                  "none") == 0;
    n = ctx->reg.n;
    pthread_mutex_unlock(&ctx->lock);
    return !none && n;
}
