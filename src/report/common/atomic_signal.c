/* SPDX-License-Identifier: MIT */
/* atomic_signal.c: the temporaries of output files still being written are removed when SIGINT,
 * SIGTERM or SIGHUP ends the process, so an interrupted run leaves no .NAME.tmp.XXXXXX behind. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "report/common/report.h"

/* The handler may run at any moment on any thread, so it reads only fixed buffers and flags:
 * no pointer it follows is ever freed. Paths longer than PATH_MAX are not tracked (mkstemp's
 * own limit is the same in practice). */
#define SLOTS 16
static char slot_path[SLOTS][PATH_MAX];
static volatile sig_atomic_t slot_used[SLOTS];
static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSIG_OURS ((int)(sizeof signals / sizeof signals[0]))
static struct sigaction previous[NSIG_OURS];
static int installed[NSIG_OURS];
static int tracked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_signal(int sig)
{
    int saved = errno, i;
    for (i = 0; i < SLOTS; i++)
        if (slot_used[i])
            unlink(slot_path[i]); /* async-signal-safe */
    /* Then whatever the program had: its own handler, or the default (usually death), which the
     * re-raised signal meets when this handler returns. */
    for (i = 0; i < NSIG_OURS; i++)
        if (signals[i] == sig && installed[i]) {
            sigaction(sig, &previous[i], NULL);
            installed[i] = 0;
        }
    raise(sig);
    errno = saved;
}

/* Only signals the program has not chosen to ignore: a run under nohup stays immune. */
static void install(void)
{
    struct sigaction sa;
    int i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < NSIG_OURS; i++) {
        if (sigaction(signals[i], NULL, &previous[i]) != 0 || previous[i].sa_handler == SIG_IGN)
            continue;
        installed[i] = sigaction(signals[i], &sa, NULL) == 0;
    }
}

/* Puts back what was there, unless the program has installed something else since. */
static void uninstall(void)
{
    struct sigaction now;
    int i;
    for (i = 0; i < NSIG_OURS; i++) {
        if (!installed[i] || sigaction(signals[i], NULL, &now) != 0)
            continue;
        if (now.sa_handler == on_signal)
            sigaction(signals[i], &previous[i], NULL);
        installed[i] = 0;
    }
}

/* Signals are blocked while the table changes so that the handler never sees a half-copied
 * path on this thread. */
static void block(sigset_t *old)
{
    sigset_t set;
    int i;
    sigemptyset(&set);
    for (i = 0; i < NSIG_OURS; i++)
        sigaddset(&set, signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

int tks__atomic_track(const char *tmp_path)
{
    sigset_t old;
    int i, slot = -1;
    if (!tmp_path || strlen(tmp_path) >= PATH_MAX)
        return -1;
    block(&old);
    pthread_mutex_lock(&lock);
    for (i = 0; i < SLOTS && slot < 0; i++)
        if (!slot_used[i])
            slot = i;
    if (slot >= 0) {
        strcpy(slot_path[slot], tmp_path);
        slot_used[slot] = 1;
        if (tracked++ == 0)
            install();
    }
    pthread_mutex_unlock(&lock);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return slot;
}

void tks__atomic_untrack(int slot)
{
    sigset_t old;
    if (slot < 0 || slot >= SLOTS)
        return;
    block(&old);
    pthread_mutex_lock(&lock);
    if (slot_used[slot]) {
        slot_used[slot] = 0;
        if (--tracked == 0)
            uninstall();
    }
    pthread_mutex_unlock(&lock);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
