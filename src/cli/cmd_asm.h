/* SPDX-License-Identifier: MIT */
/* cmd_asm.h: `tickscope asm`: the latency or throughput of an instruction sequence. */
#ifndef TKS_CLI_ASM_H
#define TKS_CLI_ASM_H

int cmd_asm(int argc, char **argv);
/* Parse argv as the command does and stop: 0, 1 (--help) or 2 (a usage error, printed). */
int cli_asm_parse_only(int argc, char **argv);

#endif
