/* resolution.h: the resolution subcommand (white paper 3.3). */
#ifndef TKS_CLI_RESOLUTION_H
#define TKS_CLI_RESOLUTION_H

#include "cli/cli.h"

int cmd_resolution(int argc, char **argv);

#endif
