/* SPDX-License-Identifier: MIT */
/* mem.h: what mem.c (latency) and mem_bw.c (bandwidth) share. */
#ifndef TKS_SYS_MEM_H
#define TKS_SYS_MEM_H

#include <stddef.h>

#include "sys/sys_internal.h"

/* bytes of anonymous memory, touched (faulted in) now; over 2 MiB pages when huge (aligned and
 * MADV_HUGEPAGE; the kernel may still say no), else MADV_NOHUGEPAGE. NULL when mmap fails.
 * Release with munmap(p, bytes). */
void *tks__sys_map(size_t bytes, int huge);
/* Link n slots into one random cycle for the chase (slot i at base + i * stride, plus
 * (i % spread) lines when spread > 0), and make it the chase's start. 0 or TKS_ENOMEM. */
int tks__sys_link(char *base, size_t n, size_t stride, size_t spread);
/* The bandwidth rows: read, write and copy within each level and from memory. */
int tks__sys_mem_bw(struct tks__sys_run *run, char *buf, size_t max);

#endif
