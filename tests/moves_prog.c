/* SPDX-License-Identifier: MIT */
/* moves_prog.c: a benchmark program for tests/cli_within.sh: a body whose figure differs from
 * one process to the next by construction, as memory-bound code's does by chance. With
 * TKS_TEST_MOVES naming a file, the first process to run it creates the file and measures 40
 * dependent adds; every later process finds the file and measures 400. Without it, 40 in every
 * process. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "tickscope/bench.h"

#include "adds_asm.h"

/* 1 in a process that found the marker file (decided once a process: the body may run more
 * than once in one). */
static int later_process(void)
{
    static int later = -1;
    const char *mark = getenv("TKS_TEST_MOVES");
    int fd;
    if (later >= 0)
        return later;
    later = 0;
    if (mark && (fd = open(mark, O_CREAT | O_EXCL | O_WRONLY, 0600)) >= 0)
        close(fd);
    else if (mark)
        later = errno == EEXIST;
    return later;
}

static void moves(tks_state *st)
{
    unsigned long x = 1, y = 1;
    if (later_process())
        TKS_MEASURE(st, { __asm__ __volatile__(TKS_TEST_ADDS(400) : "+r"(x) : "r"(y)); });
    else
        TKS_MEASURE(st, { __asm__ __volatile__(TKS_TEST_ADDS(40) : "+r"(x) : "r"(y)); });
    tks_do_not_optimize(x);
}
TKS_BENCHMARK(moves);

TKS_MAIN();
