/* bench_validate.c: how long `tickscope validate` with its defaults takes, end to end, as a user
 * runs it (target: under 3 s). Runs the command 5 times as a child process, report to /dev/null.
 * Usage: bench_validate [path/to/tickscope]   (default: build/tickscope, from the repo root) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUNS 5
#define TARGET_S 3.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run; the wall time in *seconds. Returns the child's exit status, or -1 if it did not exit. */
static int run_once(const char *exe, double *seconds)
{
    char *const args[] = {(char *)exe, "validate", NULL};
    double t = now_s();
    int status;
    pid_t pid = fork();

    if (pid < 0) {
        fprintf(stderr, "bench_validate: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
            _exit(126);
        close(fd);
        execv(exe, args);
        fprintf(stderr, "bench_validate: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "bench_validate: waitpid: %s\n", strerror(errno));
            return -1;
        }
    *seconds = now_s() - t;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *exe = argc > 1 ? argv[1] : "build/tickscope";
    double t[RUNS];
    int i, rc;

    if (access(exe, X_OK) != 0) {
        fprintf(stderr,
                "bench_validate: cannot run '%s' (%s).\n"
                "Pass the tickscope binary as the first argument, or run from the repository root\n"
                "after building into build/ (make build).\n",
                exe, strerror(errno));
        return 1;
    }
    printf("bench_validate: wall time of '%s validate' (defaults), %d runs, stdout to /dev/null.\n",
           exe, RUNS);
    for (i = 0; i < RUNS; i++) {
        if ((rc = run_once(exe, &t[i])) != 0) {
            fprintf(stderr, "bench_validate: run %d: tickscope %s %d\n", i + 1,
                    rc < 0 ? "did not exit normally, status" : "exited with status", rc);
            return 1;
        }
        printf("  run %d: %.3f s\n", i + 1, t[i]);
        fflush(stdout);
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    printf("min %.3f s, median %.3f s, max %.3f s; target < %.1f s: %s\n", t[0], t[RUNS / 2],
           t[RUNS - 1], TARGET_S, t[RUNS / 2] < TARGET_S ? "MET (median)" : "NOT MET (median)");
    return 0;
}
