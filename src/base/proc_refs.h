/* SPDX-License-Identifier: MIT */
/* proc_refs.h: the anonymous memory a process touched in a stretch of time (its heap, stack,
 * anonymous mappings and .bss; not files' pages, code included), from the kernel's referenced
 * bits of its pages: cleared through /proc/self/clear_refs, counted in /proc/self/smaps
 * ("Referenced:" of the mappings without an inode). Page granularity. */
#ifndef TKS_PROC_REFS_H
#define TKS_PROC_REFS_H

#include <stddef.h>
#include <stdint.h>

/* Clear the referenced bits of every page of this process and flush its TLB, so that a page
 * touched from now on is marked again. 0, or TKS_EUNAVAIL (why: the file or the kernel's
 * refusal). */
int tks__refs_clear(char *why, size_t whylen);
/* The bytes of this process's anonymous pages referenced since the last clear. 0, or
 * TKS_EUNAVAIL. */
int tks__refs_bytes(uint64_t *out, char *why, size_t whylen);
/* The same from smaps text: the "Referenced:" lines of the mappings whose inode is 0, in bytes.
 * 0, or TKS_EINVAL (no such line at all, or one not in kB). */
int tks__refs_parse(const char *smaps, uint64_t *out);

#endif
