/* SPDX-License-Identifier: MIT */
/* parse.h: option values, shared by the tickscope command and the benchmark runner's options so
 * that both accept the same spellings. Nothing here prints. */
#ifndef TKS_PARSE_H
#define TKS_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* A whole number in [lo, hi], decimal, no sign. 0 or TKS_EINVAL. */
int tks__parse_u32(const char *text, uint32_t lo, uint32_t hi, uint32_t *out);
/* Seconds in [0, 86400]. 0 or TKS_EINVAL. */
int tks__parse_seconds(const char *text, double *out);
/* A positive rate in Hz, optionally with k, M or G and "Hz" ("2.3GHz", "2300M"). 0 or TKS_EINVAL. */
int tks__parse_hz(const char *text, double *out);
/* The value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL if argv[*i] is not opt.
 * Sets *missing when the option is there but its value is not. */
const char *tks__option_value(int argc, char **argv, int *i, const char *opt, int *missing);
/* A usage error: the one-line reason into err (when there is room), and 2, the usage status. */
int tks__option_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
