/* compare.h: the compare subcommand: two result files (or a baseline), benchmark by benchmark. */
#ifndef TKS_CLI_COMPARE_H
#define TKS_CLI_COMPARE_H

#include "cli/cli.h"

int cmd_compare(int argc, char **argv);

#endif
