/* SPDX-License-Identifier: MIT */
/* term.c: how wide the terminal an output goes to is, so that tables and the progress line fit
 * it; an output that is not a terminal (a file, a pipe) has no width and gets full lines. */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "report/common/report.h"

int tks__term_columns(int fd)
{
    const char *env = getenv("COLUMNS");
    struct winsize ws;
    char *end;
    long c;

    if (fd < 0 || !isatty(fd))
        return 0;
    /* COLUMNS first, as ls and the shells read it: a user's setting wins over the ioctl */
    if (env && *env) {
        c = strtol(env, &end, 10);
        if (*end == '\0' && c >= 20 && c <= 10000)
            return (int)c;
    }
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

/* The streams over a terminal that have no descriptor of their own (atomic.c's): few at once,
 * standard output and perhaps one more. */
static struct {
    FILE *f;
    int fd;
} streams[4];

void tks__term_stream(FILE *f, int fd)
{
    size_t free_slot = sizeof streams / sizeof streams[0];

    for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++) {
        if (streams[i].f == f)
            streams[i].f = NULL;
        if (!streams[i].f && free_slot == sizeof streams / sizeof streams[0])
            free_slot = i;
    }
    if (f && fd >= 0 && isatty(fd) && free_slot < sizeof streams / sizeof streams[0]) {
        streams[free_slot].f = f;
        streams[free_slot].fd = fd;
    }
}

int tks__term_columns_of(FILE *f)
{
    if (!f)
        return 0;
    for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++)
        if (streams[i].f == f)
            return tks__term_columns(streams[i].fd);
    return tks__term_columns(fileno(f));
}
