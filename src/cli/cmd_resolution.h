/* SPDX-License-Identifier: MIT */
/* cmd_resolution.h: the resolution subcommand (white paper 3.3). */
#ifndef TKS_CLI_RESOLUTION_H
#define TKS_CLI_RESOLUTION_H

#include "cli/cli.h"

int cmd_resolution(int argc, char **argv);
/* Parses argv as cmd_resolution does and returns its exit status for them (0 when they are
 * good), measuring nothing and touching no file: the entry point of tests/fuzz/fuzz_options.c. */
int cli_resolution_parse_only(int argc, char **argv);

#endif
