/* SPDX-License-Identifier: MIT */
/* json_read.h: a small JSON reader for result files (ours and Google Benchmark's): one pass over a
 * buffer of known length into a flat array of nodes, no recursion, nesting bounded; lookups by key. */
#ifndef TKS_BASE_JSON_READ_H
#define TKS_BASE_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#define TKS__JR_MAX_DEPTH 64          /* deeper nesting is an error, not a stack overflow */
#define TKS__JR_NONE ((size_t)-1)     /* "no such node" */

enum tks__jr_type { TKS__JR_NULL, TKS__JR_FALSE, TKS__JR_TRUE, TKS__JR_NUMBER, TKS__JR_STRING,
                    TKS__JR_ARRAY, TKS__JR_OBJECT };

/* Nodes are in document order. A container's children follow it; `end` is the index just past
 * the node and everything inside it, so the next sibling of node i is nodes[i].end. An object's
 * children alternate key (a string) and value. */
typedef struct tks__jr_node {
    unsigned char type;
    size_t end;
    size_t off, len;   /* strings: the bytes between the quotes, escapes not yet decoded */
    double num;        /* numbers (NaN, Infinity and -Infinity are accepted: Google Benchmark
                          writes them) */
} tks__jr_node;

typedef struct tks__jr_doc {
    const char *buf;   /* the caller's buffer: it must outlive the document */
    size_t len;
    tks__jr_node *nodes;
    size_t n, cap;
    char err[160];     /* why parsing failed, with the line and column */
} tks__jr_doc;

/* Parse buf[0, len) (not NUL-terminated; NUL bytes are an error) as one JSON value with only
 * white space around it. 0; TKS_EINVAL (not JSON, reason in doc->err); TKS_ERANGE (nested deeper
 * than TKS__JR_MAX_DEPTH or larger than the reader takes); TKS_ENOMEM. Free with tks__jr_free
 * whatever it returned. */
int tks__jr_parse(tks__jr_doc *doc, const char *buf, size_t len);
void tks__jr_free(tks__jr_doc *doc);

/* The value of key in object node obj (the first, if repeated), or TKS__JR_NONE (also when obj is
 * not an object). */
size_t tks__jr_get(const tks__jr_doc *d, size_t obj, const char *key);
/* Iterate a container's children: first, then next; TKS__JR_NONE at the end. */
size_t tks__jr_first(const tks__jr_doc *d, size_t node);
size_t tks__jr_next(const tks__jr_doc *d, size_t parent, size_t child);
/* How many children (an object's pairs count as one each). */
size_t tks__jr_count(const tks__jr_doc *d, size_t node);
int tks__jr_is(const tks__jr_doc *d, size_t node, enum tks__jr_type t);
/* A number, or NaN when node is missing or not a number. */
double tks__jr_number(const tks__jr_doc *d, size_t node);
/* A string decoded into out (UTF-8, NUL-terminated, truncated to size - 1 bytes). 0; TKS_EINVAL
 * when the node is missing or not a string (out is then ""). */
int tks__jr_string(const tks__jr_doc *d, size_t node, char *out, size_t size);
/* Whether a string node equals s exactly (escapes decoded). */
int tks__jr_string_is(const tks__jr_doc *d, size_t node, const char *s);

#endif
