/* SPDX-License-Identifier: MIT */
/* name_filter.h: which benchmark names a --filter (or --benchmark_filter) selects: an extended
 * regular expression matched anywhere in the name; a leading '-' selects the names it does NOT
 * match, as Google Benchmark 1.7 does; no filter, "" and "all" select every name. */
#ifndef TKS_RUNNER_NAME_FILTER_H
#define TKS_RUNNER_NAME_FILTER_H

#include <regex.h>
#include <stddef.h>

typedef struct tks__name_filter {
    regex_t re;
    int compiled, negative;
} tks__name_filter;

/* 0, or 2 with a one-line reason in err (a regex that does not compile). */
int tks__name_filter_init(tks__name_filter *f, const char *spec, char *err, size_t errlen);
int tks__name_filter_match(const tks__name_filter *f, const char *name);
void tks__name_filter_free(tks__name_filter *f);

#endif
