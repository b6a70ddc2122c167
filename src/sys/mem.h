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

/* The largest working set of the mem suite (mem_plan.c). */
struct tks__sys_mem_plan {
    size_t max;               /* the curve's last point, lat_ram's and the *_ram rows' set */
    size_t full;              /* a full run's: 4x the last level (4x 32 MiB when none declared) */
    size_t llc;               /* the last level /sys declares (0: none) */
    int capped;               /* 1: --quick took max below full */
    int beyond;               /* 1: max lies past the last level (or none is declared) */
    size_t bw[4];             /* the bandwidth rows' sets, l1, l2, l3 and ram: half each level
                                 (no more than max; 0: no such level), max */
};
/* Plan from the levels c[0..n) (sorted, the last one the last level); quick: --quick; max_set:
 * --max-set (0: none; taken as it is). Pure. */
void tks__sys_mem_plan(const tks_sys_cache_level *c, size_t n, int quick, size_t max_set,
                       struct tks__sys_mem_plan *out);
/* The bandwidth rows: read, write and copy within each level and from memory (pl->bw; buf holds
 * pl->max bytes). */
int tks__sys_mem_bw(struct tks__sys_run *run, char *buf, const struct tks__sys_mem_plan *pl);
/* On a row of memory (lat_ram, *_ram): sys.quick_within_caches when --quick's largest set is not
 * past the last level. */
void tks__sys_ram_note(tks_sys_op *op, const struct tks__sys_mem_plan *pl);

#endif
