/* SPDX-License-Identifier: MIT */
/* bench_disasm.h: `--disasm`: print what the windows of the selected benchmarks hold. */
#ifndef TKS_PROGRAM_DISASM_H
#define TKS_PROGRAM_DISASM_H

#include "tickscope/bench.h"

/* The report on stdout or --out, in the console format or JSON. Returns the exit status. */
int tks__bench_disasm(const tks_options *o, const char *prog);

#endif
