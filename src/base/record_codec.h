/* SPDX-License-Identifier: MIT */
/* record_codec.h (record_write.c, record_read.c): the container of a recording (docs/recording.md): a magic line, a version,
 * then sections, each a kind byte, a length and named typed fields. A reader skips the fields
 * and sections it does not know, so a later tickscope can add figures without breaking an older
 * reader. Arrays of tick counts are packed in blocks of 64 (each block's smallest value, the
 * greatest common divisor of the rest's distance from it, a width in bits, and the values that
 * do not fit it apart): windows of a run differ by a few timer steps, so they pack to about a
 * fifth of a byte each. Pure: no I/O. */
#ifndef TKS_BASE_RECORD_CODEC_H
#define TKS_BASE_RECORD_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define TKS__REC_MAGIC "tickscope-recording\n"
#define TKS__REC_MAGIC_LEN 20u
#define TKS__REC_VERSION 1u
#define TKS__REC_BLOCK 64u /* values a packed block holds at most */

/* Section kinds. */
#define TKS__REC_PLATFORM 'P' /* the machine (src/platform/record_platform.c) */
#define TKS__REC_PROGRAM 'O'  /* the options the report needs (src/runner/record_run.c) */
#define TKS__REC_RUN 'R'      /* one run's windows and references (src/runner/record_run.c) */
#define TKS__REC_METHOD 'M'   /* validate: one method's samples (src/analysis/validate_record.c) */
#define TKS__REC_VALIDATION 'V' /* validate: the run's facts, after its methods (the same file) */
#define TKS__REC_RESOLUTION 'S' /* resolution: its samples (src/analysis/resolution_record.c) */
#define TKS__REC_ASM 'A'      /* asm CODE: its windows (src/asm/asm_record.c) */

/* Field types. */
#define TKS__REC_U64 'u'    /* varint */
#define TKS__REC_I64 'i'    /* zigzag varint */
#define TKS__REC_F64 'd'    /* IEEE-754 double, little-endian */
#define TKS__REC_STR 's'    /* varint length, bytes */
#define TKS__REC_U64S 'U'   /* varint count, blocks of 64 packed as above */
#define TKS__REC_VARINTS 'V' /* varint count, a varint each (simple writers) */
#define TKS__REC_F64S 'D'   /* varint count, a double each */

/* A growing buffer; oom is set on the first failed allocation and later puts do nothing. */
typedef struct tks__rec_buf {
    unsigned char *p;
    size_t n, cap;
    int oom;
} tks__rec_buf;

void tks__rec_free(tks__rec_buf *b);
void tks__rec_put_u64(tks__rec_buf *b, const char *name, uint64_t v);
void tks__rec_put_i64(tks__rec_buf *b, const char *name, int64_t v);
void tks__rec_put_f64(tks__rec_buf *b, const char *name, double v);
void tks__rec_put_str(tks__rec_buf *b, const char *name, const char *s);
void tks__rec_put_u64s(tks__rec_buf *b, const char *name, const uint64_t *v, size_t n);
void tks__rec_put_u32s(tks__rec_buf *b, const char *name, const uint32_t *v, size_t n);
void tks__rec_put_sizes(tks__rec_buf *b, const char *name, const size_t *v, size_t n);
void tks__rec_put_f64s(tks__rec_buf *b, const char *name, const double *v, size_t n);
/* The file's start (magic and version), and a section of kind holding body's bytes. */
void tks__rec_put_header(tks__rec_buf *b);
void tks__rec_put_section(tks__rec_buf *b, int kind, const tks__rec_buf *body);

/* One field as read: its name (not terminated), type and value; for arrays, count and the
 * encoded bytes (decode them with the functions below). */
typedef struct tks__rec_field {
    const char *name;
    size_t name_len;
    int type;
    uint64_t u;
    int64_t i;
    double d;
    const unsigned char *data;
    size_t len, count;
} tks__rec_field;

/* The version after the magic; 0 and *pos past it, or -1 when it is not a recording. */
int tks__rec_header(const unsigned char *p, size_t n, size_t *pos, unsigned *version);
/* The next section: 1 (its kind and body), 0 at the end, -1 when damaged. */
int tks__rec_section(const unsigned char *p, size_t n, size_t *pos, int *kind,
                     const unsigned char **body, size_t *len);
/* The next field of a section's body: 1, 0 at its end, -1 when damaged. */
int tks__rec_field_next(const unsigned char *p, size_t n, size_t *pos, tks__rec_field *f);
int tks__rec_is(const tks__rec_field *f, const char *name);
/* An array field's values into out (count of them, f->count); 0, or -1 when damaged or of
 * another type. u32 and size_t values that do not fit are damage too. */
int tks__rec_u64s(const tks__rec_field *f, uint64_t *out);
int tks__rec_u32s(const tks__rec_field *f, uint32_t *out);
int tks__rec_sizes(const tks__rec_field *f, size_t *out);
int tks__rec_f64s(const tks__rec_field *f, double *out);
/* A scalar field as a number (u, i or d fields), NAN for any other type. */
double tks__rec_number(const tks__rec_field *f);
/* A string field into buf (cut to size - 1). */
void tks__rec_str(const tks__rec_field *f, char *buf, size_t size);

#endif
