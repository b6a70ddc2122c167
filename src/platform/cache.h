/* SPDX-License-Identifier: MIT */
/* cache.h: the calibrations that do not drift (declared and measured TSC rates, quantum, CPUID
 * cost) kept per boot in a small checksummed text file, so repeated commands do not pay for them.
 * The core clock is not kept: frequency moves, so every command measures it. */
#ifndef TKS_CACHE_H
#define TKS_CACHE_H

#include <stddef.h>

#include "tickscope.h"

/* The format this tickscope writes; a file of another format is not read (and is rewritten). */
#define TKS__CACHE_FORMAT 2

/* The key a cache entry must match: this boot, this CPU model, this hypervisor, this many CPUs,
 * this measuring CPU and this version of tickscope. TKS_EIO when the boot cannot be identified. */
int tks__cache_key(const char *root, const tks_cpu_identity *id, int cpu, char *key, size_t size);
/* The cache file: dir (NULL: $TICKSCOPE_CACHE_DIR, $XDG_CACHE_HOME/tickscope, ~/.cache/tickscope).
 * TKS_EUNAVAIL when caching is off (dir "") or no directory can be named. */
int tks__cache_path(const char *dir, char *path, size_t size);
/* 0 and p's cached fields (hz_sources, calibration, quantum, cpuid) filled when the file exists,
 * is whole, of this format and its key matches; p is untouched otherwise. TKS_EUNAVAIL when it
 * is absent (nothing added to why) or for another boot, CPU or version; TKS_EINVAL when it cannot
 * be trusted: damaged, cut short, not ours, or of another format. why (may be NULL) gets a
 * platform.cache.* code that says which, for a note. */
int tks__cache_load(const char *path, const char *key, tks_platform *p, tks_diags *why);
/* Write atomically (a unique temporary, fsync, rename), creating the directory. 0 or TKS_EIO. */
int tks__cache_store(const char *path, const char *key, const tks_platform *p);
/* One calibration at a time per cache file: an advisory lock on PATH.lock, waited for up to
 * wait_s seconds. Returns the lock's descriptor, or -1 when there is none (then go on unlocked:
 * the rename keeps the file whole either way, the lock only saves measuring twice). */
int tks__cache_lock(const char *path, double wait_s);
void tks__cache_unlock(int fd);

/* Whether the machine was quiet enough to keep what was measured (quiet.c): runnable tasks other
 * than ours (/proc/stat procs_running, /proc/loadavg) and time stolen by the hypervisor
 * (/proc/stat's steal), read under root before and after calibrating. */
typedef struct tks__load_sample {
    long others;         /* runnable tasks besides this one; -1 unknown */
    long long steal;     /* steal jiffies summed over CPUs; -1 unknown */
} tks__load_sample;
void tks__load_sample_read(const char *root, tks__load_sample *s);
/* 1 when before..after says the machine was loaded (a platform.cache.busy_* code added to why,
 * which may be NULL), 0 when quiet. */
int tks__load_was_busy(const tks__load_sample *before, const tks__load_sample *after,
                       tks_diags *why);

#endif
