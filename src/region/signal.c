/* SPDX-License-Identifier: MIT */
/* signal.c: a region report on every delivery of a signal. The handler only writes a byte to a
 * pipe; a thread of ours reads it and writes the report, outside the signal's context. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "region/internal.h"

/* The pipe's write end, for the handler: a handler gets no argument, so it cannot be handed the
 * context. Set before the first handler is installed, never changed after. */
static int wake_fd = -1;

static void on_signal(int sig)
{
    int saved = errno;
    char c = 1;
    ssize_t r;
    (void)sig;
    /* Only write(2) here: it is async-signal-safe; the reporting thread does the rest. A full
     * pipe means reports are already pending, so a failed write loses nothing. */
    r = write(wake_fd, &c, 1);
    (void)r;
    errno = saved;
}

/* arg: the pipe's read end. The report goes through the public entry point, as a user's call
 * would, so one asked for during set-up waits for set-up to finish. */
static void *reporter(void *arg)
{
    int fd = *(const int *)arg;
    char c;
    for (;;) {
        ssize_t r = read(fd, &c, 1);
        if (r == 1)
            tks_region_report(NULL, -1);
        else if (r < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    return NULL;
}

int tks__region_install_signal(tks__region_ctx *ctx, int sig)
{
    tks__region_signal *s = &ctx->sig;
    struct sigaction sa;
    if (s->current && s->current != sig) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(s->current, &sa, NULL);
        s->current = 0;
    }
    if (sig == 0)
        return 0;
    if (!s->thread_started) {
        sigset_t all, old;
        if (pipe(s->pipe) != 0)
            return TKS_EIO;
        fcntl(s->pipe[0], F_SETFD, FD_CLOEXEC);
        fcntl(s->pipe[1], F_SETFD, FD_CLOEXEC);
        fcntl(s->pipe[1], F_SETFL, O_NONBLOCK);
        wake_fd = s->pipe[1];
        /* The reporting thread takes no signals: the program's handlers run in its own threads. */
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        s->thread_started = pthread_create(&s->thread, NULL, reporter, &s->pipe[0]) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (!s->thread_started)
            return TKS_EIO;
        pthread_detach(s->thread);
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0)
        return TKS_EIO;
    s->current = sig;
    return 0;
}
