/* SPDX-License-Identifier: MIT */
/* child.h: what the benches share: a monotonic clock, sorting doubles, and running the tickscope
 * command as a child with stdout to /dev/null, timed. Header-only; each bench_*.c is one program. */
#ifndef TKS_BENCH_CHILD_H
#define TKS_BENCH_CHILD_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run args[0] with args; the wall time in *seconds. Returns the child's exit status, or -1 if it
 * did not exit normally. */
static inline int bench_run_child(char *const *args, double *seconds)
{
    double t = bench_now();
    int status;
    pid_t pid = fork();

    if (pid < 0) {
        fprintf(stderr, "bench: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
            _exit(126);
        close(fd);
        execv(args[0], args);
        fprintf(stderr, "bench: cannot run %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "bench: waitpid: %s\n", strerror(errno));
            return -1;
        }
    *seconds = bench_now() - t;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Every bench's start: stdout line-buffered, so that through a pipe (make bench | tee) each figure
 * shows as it is measured, not all at the exit; --help or -h prints the usage. -1 to go on, else
 * the status to exit with (0 after the help, 2 for an unknown option). */
static inline int bench_start(int argc, char **argv, const char *usage)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "%s: unknown option '%s'\n%s", argv[0], argv[i], usage);
            return 2;
        }
    }
    return -1;
}

/* 0 if exe can be run; otherwise says how to point the bench at it. */
static inline int bench_check_exe(const char *bench, const char *exe)
{
    if (access(exe, X_OK) == 0)
        return 0;
    fprintf(stderr,
            "%s: cannot run '%s' (%s).\n"
            "Pass the tickscope binary as the first argument, or run from the repository root\n"
            "after building into build/ (make build).\n",
            bench, exe, strerror(errno));
    return 1;
}

#endif
