/* validate.h: the validate subcommand. */
#ifndef TKS_CLI_VALIDATE_H
#define TKS_CLI_VALIDATE_H

#include "cli/cli.h"

int cmd_validate(int argc, char **argv);

#endif
