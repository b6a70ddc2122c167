/* sys.h: `tickscope sys`: the machine's costs, suite by suite (cpu, os, mem). */
#ifndef TKS_CLI_SYS_H
#define TKS_CLI_SYS_H

#include "cli/cli.h"

int cmd_sys(int argc, char **argv);

#endif
