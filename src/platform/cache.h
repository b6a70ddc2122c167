/* cache.h: the calibrations (declared and measured TSC rates, quantum, core clock, CPUID cost) kept
 * per boot in a small text file, so repeated commands do not pay for them. */
#ifndef TKS_CACHE_H
#define TKS_CACHE_H

#include <stddef.h>

#include "tickscope.h"

/* The key a cache entry must match: this boot, this CPU model, this hypervisor, this many CPUs,
 * this measuring CPU and this version of tickscope. TKS_EIO when the boot cannot be identified. */
int tks__cache_key(const char *root, const tks_cpu_identity *id, int cpu, char *key, size_t size);
/* The cache file: dir (NULL: $TICKSCOPE_CACHE_DIR, $XDG_CACHE_HOME/tickscope, ~/.cache/tickscope).
 * TKS_EUNAVAIL when caching is off (dir "") or no directory can be named. */
int tks__cache_path(const char *dir, char *path, size_t size);
/* 0 and p's calibration fields filled when the file exists and its key matches; TKS_EUNAVAIL
 * when it is absent or stale, TKS_EINVAL when it is damaged. */
int tks__cache_load(const char *path, const char *key, tks_platform *p);
/* Write atomically (temporary file and rename), creating the directory. 0 or TKS_EIO. */
int tks__cache_store(const char *path, const char *key, const tks_platform *p);

#endif
