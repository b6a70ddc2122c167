/* SPDX-License-Identifier: MIT */
/* perf_parse.c: the one figure `perf bench` prints for each benchmark --versus-perf runs:
 * "usecs/op" (syscall basic, sched pipe) or a rate in bytes a second (mem memcpy). Pure. */
#include <stdlib.h>
#include <string.h>

#include "tickscope/sys.h"

/* The number on the line that holds unit: the last number before it. */
static int number_before(const char *text, const char *unit, double *value)
{
    const char *u = strstr(text, unit), *s;
    char *end;
    if (!u)
        return 0;
    s = u;
    while (s > text && s[-1] != '\n')
        s--;
    *value = strtod(s, &end);
    return end != s && end <= u;
}

int tks_sys_perf_parse(const char *text, double *value)
{
    static const struct {
        const char *unit;
        double to_gb;
    } rates[] = {{"TB/sec", 1e3 * 1.073741824}, {"GB/sec", 1.0}, {"MB/sec", 1.0 / 1024},
                 {"KB/sec", 1.0 / (1024 * 1024)}};
    if (!text || !value)
        return TKS_EINVAL;
    if (number_before(text, "usecs/op", value))
        return 0;
    /* perf's memcpy figure: bytes / 2^30 per second, written "GB/sec"; the first function's line
     * (the C library's memcpy) is the one users get. */
    const char *first = NULL;
    double to = 0;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        const char *u = strstr(text, rates[i].unit);
        if (u && (!first || u < first)) {
            first = u;
            to = rates[i].to_gb;
        }
    }
    if (first) {
        const char *s = first;
        char *end;
        while (s > text && s[-1] != '\n')
            s--;
        *value = strtod(s, &end);
        if (end != s && end <= first) {
            *value *= to;
            return 0;
        }
    }
    return TKS_EINVAL;
}
