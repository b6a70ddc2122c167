/* SPDX-License-Identifier: MIT */
/* record_file.c: a recording read whole from its file, its start checked with the refusals every
 * replay prints, and which command wrote it (record_file.h). */
#include "base/record_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/common.h"

#define RECORDING_MAX (1ull << 31) /* 2 GiB: far past any run's recording */

int tks__rec_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return TKS_EINVAL;
}

int tks__rec_damaged(char *err, size_t errlen, size_t pos)
{
    return tks__rec_fail(err, errlen, "the recording is damaged (near byte %zu)", pos);
}

int tks__rec_start(const unsigned char *b, size_t n, size_t *pos, unsigned *version, char *err,
                   size_t errlen)
{
    if (tks__rec_header(b, n, pos, version) != 0)
        return tks__rec_fail(err, errlen, "not a tickscope recording");
    if (*version > TKS__REC_VERSION)
        return tks__rec_fail(err, errlen, "a recording of format %u: this tickscope reads format "
                             "%u and older (a later tickscope wrote it)", *version,
                             TKS__REC_VERSION);
    return 0;
}

int tks__rec_command(const unsigned char *b, size_t n)
{
    size_t pos, len;
    unsigned version;
    int kind, found = 0;
    const unsigned char *body;
    if (tks__rec_header(b, n, &pos, &version) != 0)
        return 0;
    while (tks__rec_section(b, n, &pos, &kind, &body, &len) == 1) {
        if (kind == TKS__REC_PROGRAM || kind == TKS__REC_RESOLUTION || kind == TKS__REC_ASM)
            return kind; /* a resolution's short validation comes before it */
        if (!found && (kind == TKS__REC_VALIDATION || kind == TKS__REC_METHOD))
            found = TKS__REC_VALIDATION;
    }
    return found;
}

int tks__rec_read_file(const char *path, unsigned char **out, size_t *len, char *err,
                       size_t errlen)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    size_t n = 0, cap = 0;
    int rc;
    *out = NULL;
    *len = 0;
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return TKS_EIO;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char *grown;
            cap = cap ? cap * 2 : 1 << 20;
            if (cap > RECORDING_MAX || !(grown = realloc(b, cap))) {
                free(b);
                fclose(f);
                snprintf(err, errlen, "%s: too large to read", path);
                return TKS_EIO;
            }
            b = grown;
        }
        got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    rc = ferror(f);
    fclose(f);
    if (rc) {
        free(b);
        snprintf(err, errlen, "%s: cannot read", path);
        return TKS_EIO;
    }
    *out = b;
    *len = n;
    return 0;
}

int tks__rec_emit(const tks__rec_sink *sink, int kind, const tks__rec_buf *body)
{
    tks__rec_buf b = {0};
    int e;
    tks__rec_put_section(&b, kind, body);
    e = b.oom ? ENOMEM : sink->write(sink->ctx, b.p, b.n);
    tks__rec_free(&b);
    return e;
}
