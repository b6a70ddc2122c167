/* SPDX-License-Identifier: MIT */
/* asm_analysis.h: `tickscope asm --ports` and `--explain`, called from cmd_asm.c. */
#ifndef TKS_CLI_ASM_ANALYSIS_H
#define TKS_CLI_ASM_ANALYSIS_H

#include "cli/cli.h"

/* --ports: forms from a table's text (NULL: one snippet, code; both NULL: the blockers alone);
 * blockers: a table file of blocking forms (NULL: the library's). */
int cli_asm_ports(const tks_asm_options *o, const char *table_text, const char *table_name,
                  const char *code, const char *blockers, const struct cli_common *c,
                  const tks_platform *p, tks__atomic_file *out);
/* --ports --table (no FILE): the register forms of the catalogue this CPU has whose name holds
 * only (NULL: all), those the cached table shows are not single-uop left out of the mixes. */
int cli_asm_ports_catalog(const tks_asm_options *o, const char *only, const char *blockers,
                          const struct cli_common *c, const tks_platform *p,
                          tks__atomic_file *out);
/* --explain: the snippet o->code. */
int cli_asm_explain(const tks_asm_options *o, const struct cli_common *c, const tks_platform *p,
                    tks__atomic_file *out);

#endif
