/* SPDX-License-Identifier: MIT */
/* record_file.h: a recording as a file (docs/recording.md): read whole, its start checked with
 * the one-line refusals every replay gives, and which command wrote it, so that `tickscope
 * replay` hands it to that command's analysis. */
#ifndef TKS_BASE_RECORD_FILE_H
#define TKS_BASE_RECORD_FILE_H

#include <stddef.h>

#include "base/record_codec.h"

/* Where a command writes its recording, section by section: write(ctx, bytes, n) returns 0 or
 * an errno (the recording is then given up). */
typedef struct tks__rec_sink {
    int (*write)(void *ctx, const unsigned char *p, size_t n);
    void *ctx;
} tks__rec_sink;

/* A section of kind holding body's fields, through sink: 0, or an errno. */
int tks__rec_emit(const tks__rec_sink *sink, int kind, const tks__rec_buf *body);
/* PATH's bytes (*out malloc'd): 0, or TKS_EIO with "PATH: why" in err. */
int tks__rec_read_file(const char *path, unsigned char **out, size_t *len, char *err,
                       size_t errlen);
/* The magic and a version this tickscope reads: 0 with *pos past them, or TKS_EINVAL with the
 * refusal ("not a tickscope recording", a later format) in err. */
int tks__rec_start(const unsigned char *b, size_t n, size_t *pos, unsigned *version, char *err,
                   size_t errlen);
/* The refusals as err's text; both return TKS_EINVAL. */
int tks__rec_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tks__rec_damaged(char *err, size_t errlen, size_t pos);
/* The command that wrote the recording: TKS__REC_PROGRAM (a benchmark program),
 * TKS__REC_VALIDATION (validate), TKS__REC_RESOLUTION (resolution), TKS__REC_ASM (asm), or 0
 * (none of them, or not a recording: the benchmark program's replay then says why). */
int tks__rec_command(const unsigned char *b, size_t n);

#endif
