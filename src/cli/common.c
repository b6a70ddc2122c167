/* SPDX-License-Identifier: MIT */
/* common.c: option parsing, error messages, progress and context shared by the subcommands. */
#include "cli/cli.h"
#include "base/now.h"
#include "base/parse.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

double cli_now(void) { return tks__now_s(); }

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fputs("tickscope: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'tickscope %s%s--help')\n", cmd ? cmd : "", cmd ? " " : "");
    return CLI_EXIT_USAGE;
}

int cli_failure(const char *fmt, ...)
{
    va_list ap;
    fputs("tickscope: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_FAIL;
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    fputs("tickscope: note: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_parse_u32(const char *cmd, const char *opt, const char *text, uint32_t lo, uint32_t hi,
                  uint32_t *out)
{
    if (tks__parse_u32(text, lo, hi, out) != 0)
        return cli_usage_error(cmd, "%s needs a whole number from %u to %u, not '%s'", opt, lo, hi,
                               text ? text : "");
    return 0;
}

int cli_parse_seconds(const char *cmd, const char *opt, const char *text, double *out)
{
    if (tks__parse_seconds(text, out) != 0)
        return cli_usage_error(cmd, "%s needs a number of seconds from 0 to 86400, not '%s'", opt,
                               text ? text : "");
    return 0;
}

int cli_parse_methods(const char *cmd, const char *text, int *selected)
{
    char buf[256], *tok, *save = NULL;
    int any = 0;
    if (!text || strlen(text) >= sizeof buf)
        return cli_usage_error(cmd, "--method needs a comma-separated list of methods");
    memset(selected, 0, sizeof(int) * TKS_METHOD_COUNT);
    /* strtok would pass over an empty item ("lfence,,rdtsc", "lfence,") as if it were not there:
     * a typo the user should hear about. */
    if (!*text || text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,"))
        return cli_usage_error(cmd, "--method: an empty method name in '%s'", text);
    strcpy(buf, text);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int m = tks_method_from_name(tok);
        if (m < 0 || !tks_method_of_arch((enum tks_method)m)) {
            int k;
            fprintf(stderr, "tickscope: error: %s method '%s'; methods here are:",
                    m < 0 ? "unknown" : "no such", tok);
            for (k = 0; k < TKS_METHOD_COUNT; k++)
                if (tks_method_of_arch((enum tks_method)k))
                    fprintf(stderr, " %s%s", tks_method_info((enum tks_method)k)->name,
                            tks_method_user((enum tks_method)k) ? "" : " (with --kernel)");
            fprintf(stderr, "\n(see 'tickscope %s --help')\n", cmd);
            return CLI_EXIT_USAGE;
        }
        selected[m] = 1;
        any = 1;
    }
    if (!any)
        return cli_usage_error(cmd, "--method needs at least one method");
    return 0;
}

int cli_parse_hz(const char *cmd, const char *opt, const char *text, double *out)
{
    if (tks__parse_hz(text, out) != 0)
        return cli_usage_error(cmd,
                               "%s needs a positive rate in Hz (e.g. 2300000000 or 2.3GHz), not '%s'",
                               opt, text ? text : "");
    return 0;
}

const char *cli_option_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
    return tks__option_value(argc, argv, i, opt, missing);
}

void cli_common_init(struct cli_common *c, const tks__writers *writers)
{
    memset(c, 0, sizeof *c);
    c->pin_cpu = -1;
    c->format = TKS_FORMAT_CONSOLE;
    c->writers = writers;
}

void cli_format_help(FILE *f, const tks__writers *t)
{
    char list[128];
    fprintf(f, "  --format F       %s (the first is the default)\n", tks__writers_list(t, list, sizeof list));
    if (tks__writers_find(t, TKS_FORMAT_JSON))
        fputs("  --json           the same as --format json\n", f);
    if (tks__writers_find(t, TKS_FORMAT_HTML))
        fputs("  --html FILE      also write the report as one self-contained HTML page\n", f);
}

int cli_write(const struct cli_common *c, FILE *f, const void *doc)
{
    int rc = tks__writers_write(c->writers, c->format, f, doc);
    if (rc == 0 && c->html)
        cli_write_page(c->writers->kind, c->writers, c->html, doc);
    return rc;
}

const char cli_common_help[] =
    "  --pin CPU        run on this CPU only (a note, not a failure, if not permitted)\n"
    "  --fifo           run under SCHED_FIFO, paced so RT throttling never lands in an ensemble\n"
    "  --out FILE       write the report to FILE (atomically) instead of stdout\n"
    "  --raw FILE       write every sample as CSV: method,ensemble,sample,ticks\n"
    "  --quiet          no progress and no notes on stderr\n"
    "  --tsc-hz HZ      use this TSC rate for nanoseconds (e.g. 2.3GHz) instead of the measured one\n"
    "  --recalibrate    measure the TSC rate, quantum and CPUID cost again (ignore this boot's cache)\n"
    "  --root DIR       read /proc, /sys and /dev/kmsg under DIR (for tests)\n"
    "  --help           this text\n";

int cli_common_option(const char *cmd, int argc, char **argv, int *i, struct cli_common *c)
{
    const char *v;
    int missing;
    uint32_t cpu;
    if (strcmp(argv[*i], "--fifo") == 0)
        return c->fifo = 1;
    if (c->writers && strcmp(argv[*i], "--json") == 0 &&
        tks__writers_find(c->writers, TKS_FORMAT_JSON)) {
        c->format = TKS_FORMAT_JSON;
        return 1;
    }
    if (c->writers && ((v = cli_option_value(argc, argv, i, "--format", &missing)) || missing)) {
        char msg[256];
        int f = missing ? -1 : tks__writers_parse(c->writers, v);
        if (f < 0)
            return -cli_usage_error(cmd, "%s", tks__writers_unknown(c->writers, "--format",
                                                                    missing ? "" : v, msg, sizeof msg));
        c->format = (enum tks_format)f;
        return 1;
    }
    if (c->writers && ((v = cli_option_value(argc, argv, i, "--html", &missing)) || missing)) {
        char list[128];
        if (!tks__writers_find(c->writers, TKS_FORMAT_HTML))
            return -cli_usage_error(cmd, "--html: %s has no HTML page (its formats are %s)",
                                    cmd, tks__writers_list(c->writers, list, sizeof list));
        if (missing || !*v)
            return -cli_usage_error(cmd, "--html needs a file name");
        c->html = v;
        return 1;
    }
    if (strcmp(argv[*i], "--quiet") == 0 || strcmp(argv[*i], "-q") == 0)
        return c->quiet = 1;
    if ((v = cli_option_value(argc, argv, i, "--pin", &missing)) || missing) {
        if (missing || cli_parse_u32(cmd, "--pin", v, 0, 1023, &cpu))
            return missing ? -cli_usage_error(cmd, "--pin needs a CPU number") : -CLI_EXIT_USAGE;
        c->pin_cpu = (int)cpu;
        return 1;
    }
    if (strcmp(argv[*i], "--recalibrate") == 0)
        return c->recalibrate = 1;
    if ((v = cli_option_value(argc, argv, i, "--tsc-hz", &missing)) || missing) {
        if (missing)
            return -cli_usage_error(cmd, "--tsc-hz needs a rate in Hz (e.g. 2300000000 or 2.3GHz)");
        return cli_parse_hz(cmd, "--tsc-hz", v, &c->tsc_hz) ? -CLI_EXIT_USAGE : 1;
    }
    if ((v = cli_option_value(argc, argv, i, "--root", &missing)) || missing) {
        struct stat st;
        if (missing || !*v)
            return -cli_usage_error(cmd, "--root needs a directory");
        int err = stat(v, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
        if (err) /* a typo would otherwise read as a machine with nothing to report */
            return -cli_usage_error(cmd, "--root needs a directory: '%s': %s", v, strerror(err));
        c->root = v;
        return 1;
    }
    if ((v = cli_option_value(argc, argv, i, "--out", &missing)) || missing) {
        if (missing || !*v)
            return -cli_usage_error(cmd, "--out needs a file name ('-' for stdout)");
        c->out = v;
        return 1;
    }
    if ((v = cli_option_value(argc, argv, i, "--raw", &missing)) || missing) {
        if (missing || !*v)
            return -cli_usage_error(cmd, "--raw needs a file name ('-' for stdout)");
        c->raw = v;
        return 1;
    }
    return 0;
}

void cli_progress_init(struct cli_progress *p, const char *label, int quiet)
{
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->start = cli_now();
    p->quiet = quiet;
    if (!quiet) { /* drawn on a terminal once the work proves long (tks__progress) */
        tks__progress_begin(&p->bar, p->label, 0);
        p->started = 1;
    }
}

void cli_progress_cb(void *ctx, uint64_t done, uint64_t total)
{
    struct cli_progress *p = ctx;
    if (p->started)
        tks__progress_update(&p->bar, done, total);
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->started)
        tks__progress_end(&p->bar);
    p->started = 0;
}

void cli_progress_stage(void *ctx, const char *label)
{
    struct cli_progress *p = ctx;
    if (label)
        cli_progress_init(p, label, p->quiet);
    else
        cli_progress_end(p);
}

void cli_placement_notes(const struct cli_common *c, const tks_sample_run *run)
{
    if (c->quiet)
        return;
    if (c->pin_cpu >= 0 && run->pin_status)
        cli_note("could not pin to CPU %d (%s); measuring unpinned", c->pin_cpu,
                 strerror(run->pin_status));
    if (c->fifo && run->fifo_status)
        cli_note("could not switch to SCHED_FIFO (%s); measuring at normal priority%s",
                 strerror(run->fifo_status),
                 run->fifo_status == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
}

int cli_with_platform(int (*body)(int argc, char **argv, tks_platform *p), int argc, char **argv)
{
    tks_platform p;
    int rc;
    memset(&p, 0, sizeof p);
    rc = body(argc, argv, &p);
    tks_platform_free(&p);
    return rc;
}
