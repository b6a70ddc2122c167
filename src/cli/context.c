/* SPDX-License-Identifier: MIT */
/* context.c: what the machine is, for every command: probing it with the common options, the
 * notes that make every figure suspect. */
#include "cli/cli.h"

#include <string.h>

int cli_platform(const char *cmd, const struct cli_common *c, tks_platform *p)
{
    tks_platform_options o;
    int rc;
    tks_platform_options_init(&o);
    o.root = c->root;
    o.recalibrate = c->recalibrate;
    o.tsc_hz_override = c->tsc_hz;
    o.cpu = c->pin_cpu;
    if ((rc = tks_platform_probe(&o, p)) != 0)
        return cli_failure("%s: cannot examine this machine: %s", cmd, tks_strerror(rc));
    if (c->quiet)
        return CLI_EXIT_OK;
    if (p->pin_status)
        cli_note("could not pin to CPU %d (%s): the core clock was measured unpinned", c->pin_cpu,
                 strerror(p->pin_status));
    if (!p->invariant_tsc)
        cli_note("this CPU has no invariant TSC: ticks are not time (the TSC rate may change with "
                 "the core frequency or stop in sleep states)");
    if (!(p->tsc_hz > 0))
        cli_note("the TSC rate is unknown: results stay in ticks; pass --tsc-hz to convert");
    return CLI_EXIT_OK;
}
