/* SPDX-License-Identifier: MIT */
/* procfs.h: reading small files under /proc and /sys, relative to a root directory so that
 * tests can point the readers at fixture trees. */
#ifndef TKS_PROCFS_H
#define TKS_PROCFS_H

#include <stddef.h>

/* Join root ("" or NULL means "/") and an absolute path into buf. 0, or TKS_ERANGE if too long. */
int tks__proc_path(char *buf, size_t size, const char *root, const char *path);
/* Read the first integer in a file. 0, TKS_EIO (missing/unreadable) or TKS_EINVAL (not a number). */
int tks__proc_read_long(const char *root, const char *path, long *out);

/* Read a whole small file into buf (NUL-terminated, trailing newlines removed). 0, TKS_EIO
 * (missing/unreadable) or TKS_ERANGE (longer than size - 1: buf holds the start). */
int tks__proc_read_text(const char *root, const char *path, char *buf, size_t size);

/* The kernel's real-time throttling: runtime_us < 0 means throttling is off. */
int tks__rt_limits(const char *root, long *runtime_us, long *period_us);

#endif
