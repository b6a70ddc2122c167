/* SPDX-License-Identifier: MIT */
/* bytes_text.h: a size in bytes for people, one way everywhere it is printed (working sets,
 * rings, cache levels, knees): "512 KiB", "1 MiB", "64.5 MiB", "100 B". */
#ifndef TKS_BYTES_TEXT_H
#define TKS_BYTES_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* bytes into buf (always NUL-terminated); returns buf. Whole MiB as "N MiB", other sizes from
 * 1 MiB with one decimal, from 1 KiB in whole KiB, below in bytes. */
char *tks__fmt_bytes(char *buf, size_t size, uint64_t bytes);

#endif
