/* SPDX-License-Identifier: MIT */
/* progress.c: a one-line progress indicator with the time left, on stderr, for long
 * measurements. It only draws on a terminal, so logs and pipes stay clean, and only on work that
 * lasts: a bar that flashes for a second is noise. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/common/report.h"

#define PROGRESS_INTERVAL 0.1 /* seconds between redraws: ten a second reads as smooth */
#define PROGRESS_QUIET 1.0    /* nothing drawn before a second has passed... */
#define PROGRESS_LONG 2.0     /* ...nor on work whose whole (so far and left) is twice shorter */
/* TICKSCOPE_PROGRESS_AFTER=S moves the first to S seconds (the second to 2S): 0 shows the line
 * on work of any length, which is how tests see it on short work (docs/commands.md). */
#define PROGRESS_ENV "TICKSCOPE_PROGRESS_AFTER"

static tks__progress *active; /* the bar on the terminal, for tks__progress_erase */

static double monotonic_seconds(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds before the line may appear: PROGRESS_QUIET, or what the environment says. */
static double quiet_seconds(void)
{
    const char *v = getenv(PROGRESS_ENV);
    char *end;
    double s;
    if (!v || !*v)
        return PROGRESS_QUIET;
    s = strtod(v, &end);
    return *end == 0 && isfinite(s) && s >= 0 ? s : PROGRESS_QUIET;
}

void tks__progress_begin(tks__progress *p, const char *label, int force)
{
    memset(p, 0, sizeof *p);
    p->quiet = quiet_seconds();
    p->enabled = force || isatty(fileno(stderr));
    p->forced = force;
    p->label = label ? label : "";
    p->start = p->done_at = monotonic_seconds();
}

void tks__progress_plan(tks__progress *p, double item_s)
{
    p->item_s = item_s > 0 ? item_s : 0;
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

double tks__progress_eta(const tks__progress *p, uint64_t done, uint64_t total, double now)
{
    double per, into;

    if (done >= total)
        return 0;
    if (done > 0 && p->done_at > p->start)
        per = (p->done_at - p->start) / (double)done; /* what the finished items took */
    else if (p->item_s > 0)
        per = p->item_s;
    else
        return -1;
    into = now - p->done_at; /* the item under way is that far along */
    if (into > per)
        into = per;
    return per * (double)(total - done) - into;
}

void tks__progress_update(tks__progress *p, uint64_t done, uint64_t total)
{
    char line[256], eta[32] = "";
    double now, left, elapsed;
    int cols, len;

    if (!p->enabled)
        return;
    now = monotonic_seconds();
    if (done != p->done) {
        p->done = done;
        p->done_at = now;
    }
    elapsed = now - p->start;
    left = tks__progress_eta(p, done, total, now);
    if (!p->drawn && !p->forced &&
        (elapsed < p->quiet || elapsed + (left > 0 ? left : 0) < p->quiet * (PROGRESS_LONG / PROGRESS_QUIET)))
        return;
    if (p->drawn && now - p->last_draw < PROGRESS_INTERVAL)
        return;
    if (left >= 0) {
        unsigned s = (unsigned)(left + 0.5);
        snprintf(eta, sizeof eta, ", ETA %u:%02u", s / 60, s % 60);
    }
    len = snprintf(line, sizeof line, "%s %u%% (%" PRIu64 "/%" PRIu64 ")%s", p->label,
                   percent(done, total), done, total, eta);
    cols = tks__term_columns(fileno(stderr));
    if (len < 0)
        return;
    if (cols > 1 && len > cols - 1) /* a line that wraps could not be redrawn in place */
        len = cols - 1;
    fprintf(stderr, "\r%.*s\033[K", len, line);
    fflush(stderr);
    p->last_draw = now;
    p->drawn = 1;
    active = p;
}

void tks__progress_erase(void)
{
    if (active && active->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        active->drawn = 0;
    }
}

void tks__progress_end(tks__progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    if (active == p)
        active = NULL;
    p->drawn = 0;
    p->enabled = 0;
}
