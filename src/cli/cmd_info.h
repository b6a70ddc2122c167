/* SPDX-License-Identifier: MIT */
/* cmd_info.h: `tickscope info`: what this machine is and what in it adds noise. */
#ifndef TKS_CLI_INFO_H
#define TKS_CLI_INFO_H

#include "cli/cli.h"

int cmd_info(int argc, char **argv);
/* Parses argv as cmd_info does and returns its exit status for them (0 when they are good),
 * measuring nothing and touching no file: the entry point of tests/fuzz/fuzz_options.c. */
int cli_info_parse_only(int argc, char **argv);

#endif
