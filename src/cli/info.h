/* info.h: `tickscope info`: what this machine is and what in it adds noise. */
#ifndef TKS_CLI_INFO_H
#define TKS_CLI_INFO_H

#include "cli/cli.h"

int cmd_info(int argc, char **argv);
void info_print_text(const tks_platform *p, FILE *f);
/* A few lines for the tour: CPU, rate, quantum, core clock, CPUID and the warnings. */
void info_print_summary(const tks_platform *p, FILE *f);

#endif
