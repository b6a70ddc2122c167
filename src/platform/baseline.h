/* SPDX-License-Identifier: MIT */
/* baseline.h: where `tickscope compare --save-baseline NAME` keeps a result file: NAME.json under
 * the cache directory's baselines/ (the directory the per-boot calibration lives in), or a path. */
#ifndef TKS_PLATFORM_BASELINE_H
#define TKS_PLATFORM_BASELINE_H

#include <stddef.h>

/* A NAME with a '/' or ending in ".json" is a path, taken as it is; otherwise it must be letters,
 * digits, '.', '_' or '-' (not starting with '.') and names <cache dir>/baselines/NAME.json.
 * 0; TKS_EINVAL (a bad name); TKS_EUNAVAIL (no cache directory: TICKSCOPE_CACHE_DIR is empty
 * and no HOME); TKS_ERANGE (too long). */
int tks__baseline_path(const char *name, char *path, size_t size);
/* Create the directories above path that are missing. 0 or TKS_EIO. */
int tks__baseline_make_dir(const char *path);

#endif
