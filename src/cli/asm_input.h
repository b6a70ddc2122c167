/* SPDX-License-Identifier: MIT */
/* asm_input.h: what `tickscope asm` reads from its options: a size ("32K", "1M", "4096": bytes;
 * 0 when not a size) and the whole of a file (or stdin for "-"), NUL-terminated (NULL with errno
 * on failure; free() it). */
#ifndef TKS_CLI_ASM_INPUT_H
#define TKS_CLI_ASM_INPUT_H

#include <stdint.h>

uint64_t cli_asm_size(const char *t);
char *cli_asm_slurp(const char *path);

#endif
