/* SPDX-License-Identifier: MIT */
/* loop_disasm.h: `--disasm` for validate and resolution: what the library's sampling loops hold
 * between their clock readings. */
#ifndef TKS_CLI_DISASM_H
#define TKS_CLI_DISASM_H

#include "cli/cli.h"

/* The methods chosen in selected[TKS_METHOD_COUNT] (NULL: all) that this CPU has, to
 * stdout or --out, as text or JSON. Prints its own errors; returns the exit status. */
int cli_disasm_methods(const char *cmd, const struct cli_common *c, const int *selected);
extern const char cli_disasm_help[];

#endif
