/* SPDX-License-Identifier: MIT */
/* record.h: a run's recording (docs/recording.md): everything the analysis reads from a run,
 * written as the run ends (record_run.c) and read back into a state that tks__run_analyse
 * turns into the same result (replay.c). */
#ifndef TKS_RUNNER_RECORD_H
#define TKS_RUNNER_RECORD_H

#include "base/record_codec.h"
#include "runner/state.h"

/* Where runs are recorded: a file descriptor open for appending, and the role each run of this
 * process plays in the report ("run": a repetition; "next": the default run's second process,
 * which the preceding run of that name is checked against). */
typedef struct tks__recorder {
    int fd;
    const char *role;
    int forked; /* this process stands in for a fresh one whose exec failed: that errno */
    int failed; /* errno of the first write that failed (later runs are not written) */
} tks__recorder;

/* Record every run of this process to rec from now on (NULL: stop). */
void tks__record_set(tks__recorder *rec);
/* The role of a fresh process's runs under o: "run" for one of --processes N, "next" for the
 * default run's second process. */
const char *tks__record_role_of(const tks_options *o);
/* This process is a fork standing in for a fresh process of o whose exec failed with errno
 * why: its runs play that process's role and say they were forked (tks__forked_note). */
void tks__record_stand_in(const tks_options *o, int why);
/* All of b written to fd: 0, or the errno that stopped it. */
int tks__record_write(int fd, const tks__rec_buf *b);
/* Whether runs are being recorded (the state then keeps its reference's windows). */
int tks__record_active(void);
/* The run just taken (st, before the analysis) as a section of the recording; nothing when no
 * recorder is set. */
void tks__record_run(const struct tks_state *st, const tks_result *r, double calibrated);

/* A run section's body: st's windows and references and r's identity. */
void tks__record_run_encode(tks__rec_buf *b, const struct tks_state *st, const tks_result *r,
                            double calibrated, const tks__recorder *rec);

/* A run section read back: the state the analysis reads, r's identity (its name, mode, method,
 * quantum, seconds; family points into strings, which the caller frees), the platform rate the
 * run converted with, and its role. 0, or -1 when the section is damaged or not a run's (the
 * state is then released). */
typedef struct tks__record_meta {
    double calibrated;
    int optimized, dry_run;
    char role[16];
    int forked; /* the run was taken in a fork: the errno of the exec that failed, else 0 */
    char *family; /* malloc'd */
} tks__record_meta;
int tks__record_run_decode(const unsigned char *p, size_t n, struct tks_state *st, tks_result *r,
                           tks__record_meta *meta);

#endif
