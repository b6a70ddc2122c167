/* SPDX-License-Identifier: MIT */
/* cmd_compare.h: the compare subcommand: two result files (or a baseline), benchmark by benchmark. */
#ifndef TKS_CLI_COMPARE_H
#define TKS_CLI_COMPARE_H

#include "cli/cli.h"

int cmd_compare(int argc, char **argv);
/* Parse argv as the command does and stop: 0, 1 (--help) or 2 (a usage error, printed). */
int cli_compare_parse_only(int argc, char **argv);

#endif
