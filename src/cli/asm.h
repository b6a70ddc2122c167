/* asm.h: `tickscope asm`: the latency or throughput of an instruction sequence. */
#ifndef TKS_CLI_ASM_H
#define TKS_CLI_ASM_H

int cmd_asm(int argc, char **argv);

#endif
