/* SPDX-License-Identifier: MIT */
/* cmd_validate.h: the validate subcommand. */
#ifndef TKS_CLI_VALIDATE_H
#define TKS_CLI_VALIDATE_H

#include "cli/cli.h"

int cmd_validate(int argc, char **argv);
/* Parses argv as cmd_validate does and returns its exit status for them (0 when they are good),
 * measuring nothing and touching no file: the entry point of tests/fuzz/fuzz_options.c. */
int cli_validate_parse_only(int argc, char **argv);

#endif
