/* info.h: `tickscope info`: what this machine is and what in it adds noise. */
#ifndef TKS_CLI_INFO_H
#define TKS_CLI_INFO_H

#include "cli/cli.h"

int cmd_info(int argc, char **argv);

#endif
