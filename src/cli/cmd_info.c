/* SPDX-License-Identifier: MIT */
/* cmd_info.c: `tickscope info`: the CPU, the TSC rate from every source and the one chosen, the timer
 * quantum, the core clock, the hypervisor and the environment, readably or as JSON (report/). */
#include "cli/cmd_info.h"

#include <string.h>

static const char info_help[] =
    "usage: tickscope info [options]\n"
    "\n"
    "Says what ticked: the CPU, the TSC rate from every source this machine offers (CPUID,\n"
    "the hypervisor, the kernel, a measurement against CLOCK_MONOTONIC_RAW) and which one\n"
    "tickscope uses, the timer quantum, the core clock in cycles per TSC tick, what one CPUID\n"
    "costs, and every setting of this machine that adds noise, each with a remedy.\n"
    "The measured figures are cached for this boot; --recalibrate measures them again.\n"
    "\n"
    "options:\n";
/* (then --format and --json, from the writer table) */
static const char info_help_options[] =
    "  --out FILE       write the report to FILE (atomically) instead of stdout\n"
    "  --pin CPU        measure the core clock on this CPU and check its SMT sibling and isolation\n"
    "  --tsc-hz HZ      use this TSC rate (e.g. 2.3GHz) instead of the measured one\n"
    "  --recalibrate    measure again even if this boot's cache holds the figures\n"
    "  --root DIR       read /proc, /sys and /dev/kmsg under DIR (for tests)\n"
    "  --quiet          no notes on stderr\n"
    "  --help           this text\n"
    "\n"
    "The cache lives in $TICKSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/tickscope, else\n"
    "~/.cache/tickscope; TICKSCOPE_CACHE_DIR= (empty) turns it off.\n";

/* The options into c; *help set for --help. 0 or the usage error's exit status. */
static int parse(int argc, char **argv, struct cli_common *c, int *help)
{
    int rc;
    cli_common_init(c, &tks__info_writers);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            *help = 1;
            return CLI_EXIT_OK;
        }
        if ((rc = cli_common_option("info", argc, argv, &i, c)) < 0)
            return -rc;
        if (rc == 0)
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        if (c->raw || c->fifo)
            return cli_usage_error("info", "%s: info takes no samples", c->raw ? "--raw" : "--fifo");
    }
    return CLI_EXIT_OK;
}

int cli_info_parse_only(int argc, char **argv)
{
    struct cli_common c;
    int help = 0;
    return parse(argc, argv, &c, &help);
}

/* The command once the platform has a home: cmd_info frees it on every path. */
static int info_with(int argc, char **argv, tks_platform *p)
{
    struct cli_common c;
    tks__atomic_file out, raw;
    int rc, help = 0;
    if ((rc = parse(argc, argv, &c, &help)) != 0)
        return rc;
    if (help) {
        fputs(info_help, stdout);
        cli_format_help(stdout, c.writers);
        fputs(info_help_options, stdout);
        return CLI_EXIT_OK;
    }
    if ((rc = cli_open_outputs("info", &c, &out, &raw)) != 0)
        return rc;
    if ((rc = cli_platform("info", &c, p)) != 0) {
        tks__atomic_abort(&out);
        return rc;
    }
    if ((rc = cli_write(&c, out.f, p)) != 0) {
        return cli_write_failure("info", c.out, &out, rc);
    }
    return cli_close_outputs(&out, &raw, &c);
}

int cmd_info(int argc, char **argv)
{
    return cli_with_platform(info_with, argc, argv);
}
