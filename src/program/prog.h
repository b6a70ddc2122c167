/* SPDX-License-Identifier: MIT */
/* prog.h: how tks_main's front ends (main.c, paired_main.c) report an error: one line on
 * stderr, "PROG: error: ...". */
#ifndef TKS_PROGRAM_PROG_H
#define TKS_PROGRAM_PROG_H

/* Prints the line and returns status (the exit status to pass on). */
int tks__prog_error(const char *prog, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
