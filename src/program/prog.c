/* SPDX-License-Identifier: MIT */
/* prog.c: the error line of tks_main's front ends (prog.h). */
#include <stdarg.h>
#include <stdio.h>

#include "program/prog.h"

int tks__prog_error(const char *prog, int status, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}
