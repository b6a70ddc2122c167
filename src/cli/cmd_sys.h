/* SPDX-License-Identifier: MIT */
/* cmd_sys.h: `tickscope sys`: the machine's costs, suite by suite (cpu, os, mem). */
#ifndef TKS_CLI_SYS_H
#define TKS_CLI_SYS_H

#include "cli/cli.h"

int cmd_sys(int argc, char **argv);
/* Parse argv as the command does and stop: 0, 1 (--help) or 2 (a usage error, printed). */
int cli_sys_parse_only(int argc, char **argv);

#endif
