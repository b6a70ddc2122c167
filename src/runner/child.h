/* SPDX-License-Identifier: MIT */
/* child.h: one benchmark run in another process, its result sent back down a pipe: a fork
 * (--isolate: a crash is reported, the others still run) or the program itself run again
 * (--processes: a fresh process, with its address layout, heap and placement drawn anew). */
#ifndef TKS_RUNNER_CHILD_H
#define TKS_RUNNER_CHILD_H

#include <sys/types.h>

#include "tickscope/bench.h"

/* The hidden option a re-run program is given: --tks-child=FD:NAME (run instance NAME only, once,
 * and send its result down FD). */
#define TKS_CHILD_OPTION "--tks-child="

/* In the child: send r and its windows down fd. 0 or -1. */
int tks__child_send(int fd, const tks_result *r);
/* In the parent: read what child pid sends down fd, then wait for it. Fills r, which names the
 * benchmark (name, family, arguments) whatever happened; r->error says why when the child crashed or
 * exited before reporting. */
void tks__child_collect(pid_t pid, int fd, const char *name, const tks_benchmark_spec *spec,
                        const tks_args *arg, tks_result *r);
/* The program run again (/proc/self/exe) with argv and TKS_CHILD_OPTION for instance name; its
 * result in r. argv is the program's own argv (argc entries). Where the program cannot be run
 * again (no binfmt handler under a user-mode emulator), the forked child measures it with o and
 * p instead, and the result says so in a warning. */
/* r was measured in a fork standing in for a fresh process whose exec failed with errno why:
 * the warning that says so (the live run's and its replay's). */
void tks__forked_note(tks_result *r, int why);
void tks__child_fresh(int argc, char **argv, const tks_options *o, const tks_platform *p,
                      const char *name, const tks_benchmark_spec *spec, const tks_args *arg,
                      tks_result *r);
/* The default run's second process (next_process.c): the program run again for instance name
 * for a quarter of o's sampling time; when its figure and r's differ beyond both intervals, r
 * gets bench.within_process. Nothing when r failed or the second process did. */
void tks__next_process(int argc, char **argv, const tks_options *o, const tks_platform *p,
                       const char *name, const tks_benchmark_spec *spec, const tks_args *args,
                       tks_result *r);
/* Whether next's figure and r's differ beyond both intervals: 1, r then carrying
 * bench.within_process (a replay judges a recorded second process with it too). */
int tks__next_process_judge(tks_result *r, const tks_result *next);

#endif
