/* SPDX-License-Identifier: MIT */
/* histogram_util.h: what the histogram tests share: filling sample arrays, and reading printed
 * charts back. */
#ifndef TKS_TESTS_HISTOGRAM_UTIL_H
#define TKS_TESTS_HISTOGRAM_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/common/report.h"
#include "tickscope.h"

/* The ENOMEM case asks for petabytes; under AddressSanitizer that must fail like malloc does
 * instead of aborting the test. Without the sanitizer nothing calls this. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

/* Appends count copies of v at x[*n]. */
static inline void fill(uint64_t *x, size_t *n, uint64_t v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        x[(*n)++] = v;
}

static inline uint64_t sum_counts(const tks__histogram *h)
{
    uint64_t s = h->below + h->above;

    for (size_t b = 0; b < h->nbins; b++)
        s += h->counts[b];
    return s;
}

/* Prints into memory and returns the text (caller frees), with the return code in *rc. */
static inline char *hist_text(const uint64_t *x, size_t n, uint64_t q, double median, double mean,
                       const tks__histogram_style *style, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    *rc = tks__histogram_print(f, x, n, q, median, mean, style);
    fclose(f);
    return buf;
}

/* The line of text holding needle, copied (caller frees), or NULL. */
static inline char *line_with(const char *text, const char *needle)
{
    const char *hit = text ? strstr(text, needle) : NULL, *start, *end;
    char *line;

    if (!hit)
        return NULL;
    for (start = hit; start > text && start[-1] != '\n'; start--)
        ;
    end = strchr(hit, '\n');
    end = end ? end : hit + strlen(hit);
    line = malloc((size_t)(end - start) + 1);
    if (!line)
        return NULL;
    memcpy(line, start, (size_t)(end - start));
    line[end - start] = '\0';
    return line;
}

static inline int no_trailing_spaces(const char *text)
{
    for (const char *p = text; p && *p; p++)
        if (*p == ' ' && (p[1] == '\n' || p[1] == '\0'))
            return 0;
    return text != NULL;
}

/* (1) Values that are all multiples of q = 2 get one bin each, 2 ticks wide, starting on the
 * smallest value; an odd smallest value starts the bins one tick lower, on a multiple of q. */

#endif /* TKS_TESTS_HISTOGRAM_UTIL_H */
