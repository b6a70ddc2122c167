/* SPDX-License-Identifier: MIT */
/* replay.h: a benchmark program's recording (docs/recording.md) read back and analysed again:
 * the options its report was written with, the machine's facts, and one result per run,
 * grouped as the program grouped them (r[i * repetitions + rep]), each default run checked
 * against its recorded second process as the live run was. */
#ifndef TKS_RUNNER_REPLAY_H
#define TKS_RUNNER_REPLAY_H

#include "base/record_codec.h"
#include "tickscope/bench.h"
#include "tickscope/platform.h"

/* One selected instance of the program, in its order. */
typedef struct tks__record_instance {
    const char *name;
    size_t family, index;
} tks__record_instance;

/* The program's section: its name, the options the report needs and its instances. */
void tks__record_program_encode(tks__rec_buf *b, const char *prog, const tks_options *o,
                                const tks__record_instance *v, size_t n);

typedef struct tks__replay {
    tks_options o;                  /* strings point into strings below */
    tks_platform p;
    char prog[128];
    tks_result *results;            /* n_instances * o.repetitions */
    size_t n_results;
    unsigned version;
    char **strings;                 /* owned: names, families, the context option */
    size_t n_strings;
} tks__replay;

/* FILE read and analysed into rp. 0, or TKS_EIO (cannot read), TKS_EINVAL (not a recording, a
 * later version, or damaged) with why in err. */
int tks__replay_file(const char *path, tks__replay *rp, char *err, size_t errlen);
/* The same from bytes in memory (the fuzzer's entry). */
int tks__replay_bytes(const unsigned char *b, size_t n, tks__replay *rp, char *err, size_t errlen);
void tks__replay_free(tks__replay *rp);

#endif
