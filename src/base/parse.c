/* SPDX-License-Identifier: MIT */
/* parse.c: option values, spelled the same for every front end. */
#include "base/parse.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tickscope.h"

int tks__parse_u32(const char *text, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    unsigned long long v;
    if (!text || !*text || *text == '-' || *text == '+')
        return TKS_EINVAL;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return TKS_EINVAL;
    *out = (uint32_t)v;
    return 0;
}

int tks__parse_seconds(const char *text, double *out)
{
    char *end;
    double v;
    if (!text || !*text)
        return TKS_EINVAL;
    errno = 0;
    v = strtod(text, &end);
    if (*end || errno || !isfinite(v) || v < 0 || v > 86400)
        return TKS_EINVAL;
    *out = v;
    return 0;
}

int tks__parse_hz(const char *text, double *out)
{
    static const struct { const char *suffix; double scale; } units[] = {
        {"", 1}, {"hz", 1}, {"k", 1e3}, {"khz", 1e3}, {"m", 1e6}, {"mhz", 1e6}, {"g", 1e9},
        {"ghz", 1e9}};
    char *end;
    double v;
    if (!text || !*text || *text == '-' || *text == '+')
        return TKS_EINVAL;
    errno = 0;
    v = strtod(text, &end);
    if (!(v > 0) || !isfinite(v) || errno)
        return TKS_EINVAL;
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (strcasecmp(end, units[k].suffix) == 0 && v * units[k].scale < 1e13) {
            *out = v * units[k].scale;
            return 0;
        }
    return TKS_EINVAL;
}

const char *tks__option_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
    size_t n = strlen(opt);
    *missing = 0;
    if (strncmp(argv[*i], opt, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != 0)
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int tks__option_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return 2;
}
