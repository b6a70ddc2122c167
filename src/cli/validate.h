/* validate.h: the validate subcommand, and its printers that the tour reuses. */
#ifndef TKS_CLI_VALIDATE_H
#define TKS_CLI_VALIDATE_H

#include "cli/experiment.h"

void validate_print_text(const struct experiment *x, FILE *f);
void validate_write_json(const struct experiment *x, tks_json *j);

int cmd_validate(int argc, char **argv);

#endif
