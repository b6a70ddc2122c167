/* SPDX-License-Identifier: MIT */
/* fuzz_env.c: the TICKSCOPE_* environment variables: the regions' settings (REGION_OUT, _FORMAT,
 * _RESERVOIR, _METHOD, _SIGNAL, read by tks__region_config_init) and the cache directory
 * (TICKSCOPE_CACHE_DIR, XDG_CACHE_HOME, HOME, read by tks__cache_path). The input, cut at NULs
 * and newlines, gives the variables' values in that order; a missing one is unset. */
#include <signal.h>

#include "fuzz.h"
#include "platform/cache.h"
#include "region/internal.h"

static const char *const names[] = {
    "TICKSCOPE_REGION_OUT", "TICKSCOPE_REGION_FORMAT", "TICKSCOPE_REGION_RESERVOIR",
    "TICKSCOPE_REGION_METHOD", "TICKSCOPE_REGION_SIGNAL", "TICKSCOPE_CACHE_DIR",
    "XDG_CACHE_HOME", "HOME"};
#define NNAMES (sizeof names / sizeof names[0])

static tks__region_ctx ctx = {.lock = PTHREAD_MUTEX_INITIALIZER,
                              .report_lock = PTHREAD_MUTEX_INITIALIZER};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct sigaction saved[65];
    static int saved_once;
    char *argv[FUZZ_ARGS_MAX + 1], path[4096];
    int argc = fuzz_argv(data, size, argv), sig, rc;
    size_t i;
    /* TICKSCOPE_REGION_SIGNAL may name any signal: the handlers of the sanitizers and libFuzzer
     * (SIGSEGV, SIGALRM, SIGUSR1...) as they were at the start, to put back after each input. */
    if (!saved_once) {
        for (sig = 1; sig < 65; sig++)
            sigaction(sig, NULL, &saved[sig]);
        saved_once = 1;
    }
    for (i = 0; i < NNAMES; i++)
        if ((int)i + 1 < argc)
            setenv(names[i], argv[i + 1], 1);
        else
            unsetenv(names[i]);
    memset(&ctx.cfg, 0, sizeof ctx.cfg);
    ctx.reg.n_notes = 0;
    ctx.reg.default_reservoir = 0;
    tks__region_config_init(&ctx);
    if (ctx.sig.current > 0 && ctx.sig.current < 65)
        sigaction(ctx.sig.current, &saved[ctx.sig.current], NULL);
    ctx.sig.current = 0;
    if (ctx.method < 0 || ctx.method >= (int)TKS_METHOD_COUNT || ctx.reg.n_notes > TKS__REGION_NOTES ||
        ctx.reg.default_reservoir > 100000000u ||
        (ctx.cfg.format_env != -1 && (ctx.cfg.format_env < 0 || ctx.cfg.format_env > TKS_FORMAT_MARKDOWN)) ||
        !memchr(ctx.cfg.out_env, 0, sizeof ctx.cfg.out_env))
        abort();
    for (i = 0; i < ctx.reg.n_notes; i++)
        if (!memchr(ctx.reg.notes[i], 0, sizeof ctx.reg.notes[i]))
            abort();
    rc = tks__cache_path(NULL, path, sizeof path);
    if (rc != 0 && rc != TKS_EUNAVAIL)
        abort();
    if (rc == 0 && (!strstr(path, "/calibration") || strlen(path) >= sizeof path))
        abort();
    fuzz_argv_free(argc, argv);
    return 0;
}
