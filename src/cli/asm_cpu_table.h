/* SPDX-License-Identifier: MIT */
/* asm_cpu_table.h: `tickscope asm --table` (the CPU's instruction table) and `asm --diff`. */
#ifndef TKS_CLI_ASM_CPU_TABLE_H
#define TKS_CLI_ASM_CPU_TABLE_H

#include "asm/cpu_table.h"
#include "cli/cli.h"

/* Build the table (o: what to measure) and write it to out in c's format; an exit status. */
int cli_asm_cpu_table(const struct cli_common *c, const tks__asm_table_options *o,
                      const tks_platform *p, tks__atomic_file *out);
/* Read the two CSV tables and write their comparison; an exit status. */
int cli_asm_diff(const struct cli_common *c, const char *path_a, const char *path_b,
                 tks__atomic_file *out);

#endif
