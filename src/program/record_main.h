/* SPDX-License-Identifier: MIT */
/* record_main.h: --record FILE in a benchmark program (docs/recording.md). The program writes
 * the file's start (the machine, its options and instances) and every run it takes; a fresh
 * process it starts (--processes, the default run's second process) appends its own run to the
 * same file, and a --isolate child writes through the descriptor it inherits. */
#ifndef TKS_PROGRAM_RECORD_MAIN_H
#define TKS_PROGRAM_RECORD_MAIN_H

#include "runner/record.h"
#include "runner/replay.h"

/* The machine's section (its facts, and the caches /sys declares) appended to file: every
 * recording's, the benchmark program's and the tickscope command's. */
void tks__recording_platform(tks__rec_buf *file, const tks_platform *p);
/* The program's recording begun (path truncated) and set for every run from now on. 0, or -1
 * with why in err. */
int tks__recording_begin(tks__recorder *rec, const char *path, const tks_options *o,
                         const tks_platform *p, const char *prog,
                         const tks__record_instance *v, size_t n, char *err, size_t errlen);
/* A fresh process's runs appended to the recording its parent began; role as record.h says. */
int tks__recording_join(tks__recorder *rec, const char *path, const char *role, char *err,
                        size_t errlen);
/* Stop recording; -1 with why in err when a write failed. */
int tks__recording_end(tks__recorder *rec, const char *path, char *err, size_t errlen);

#endif
