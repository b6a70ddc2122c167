/* SPDX-License-Identifier: MIT */
/* progress.c: a one-line progress indicator on stderr for long measurements. It is the one place in
 * the library that prints, and it only does so on a terminal, so logs and pipes stay clean. */
#include <inttypes.h>
#include <time.h>
#include <unistd.h>

#include "report/common/report.h"

#define PROGRESS_INTERVAL 0.1 /* seconds between redraws: ten a second reads as smooth */

static double monotonic_seconds(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tks__progress_begin(tks__progress *p, const char *label, int force)
{
    p->enabled = force || isatty(fileno(stderr));
    p->label = label ? label : "";
    p->last_draw = 0.0;
    p->drawn = 0;
}

/* Whole percent, rounded down so 100% means done; a long double keeps done * 100 from
 * overflowing for any uint64_t. */
static unsigned percent(uint64_t done, uint64_t total)
{
    if (total == 0 || done >= total)
        return 100;
    unsigned pct = (unsigned)((long double)done * 100.0L / (long double)total);
    return pct < 99 ? pct : 99;
}

void tks__progress_update(tks__progress *p, uint64_t done, uint64_t total)
{
    double now;

    if (!p->enabled)
        return;
    now = monotonic_seconds();
    if (p->drawn && now - p->last_draw < PROGRESS_INTERVAL)
        return;
    fprintf(stderr, "\r%s %u%% (%" PRIu64 "/%" PRIu64 ")", p->label, percent(done, total), done,
            total);
    fflush(stderr);
    p->last_draw = now;
    p->drawn = 1;
}

void tks__progress_end(tks__progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->drawn = 0;
    p->enabled = 0;
}
