/* SPDX-License-Identifier: MIT */
/* bench_validate.c: how long `tickscope validate` with its defaults takes, end to end, as a user
 * runs it (target: at most 1 s). Runs the command 5 times as a child process, report to
 * /dev/null; beside each wall time, the CPU time the child used, which a machine loaded by other
 * work stretches less (where every CPU is shared, the wall time is mostly waiting).
 * Usage: bench_validate [path/to/tickscope]   (default: build/tickscope, from the repo root) */
#include <math.h>
#include <sys/resource.h>

#include "child.h"

#define RUNS 5
#define TARGET_S 1.0

static double children_cpu(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_CHILDREN, &u) != 0)
        return NAN;
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 +
           (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec * 1e-6;
}

static int bench_main(int argc, char **argv)
{
    const char *exe = argc > 1 ? argv[1] : "build/tickscope";
    double t[RUNS], c[RUNS];
    int i, rc;

    char *const args[] = {(char *)exe, "validate", NULL};

    if (bench_check_exe("bench_validate", exe))
        return 1;
    printf("bench_validate: wall time of '%s validate' (defaults), %d runs, stdout to /dev/null.\n",
           exe, RUNS);
    for (i = 0; i < RUNS; i++) {
        double before = children_cpu();
        if ((rc = bench_run_child(args, &t[i])) != 0) {
            fprintf(stderr, "bench_validate: run %d: tickscope %s %d\n", i + 1,
                    rc < 0 ? "did not exit normally, status" : "exited with status", rc);
            return 1;
        }
        c[i] = children_cpu() - before;
        printf("  run %d: %.3f s (CPU %.3f s)\n", i + 1, t[i], c[i]);
        fflush(stdout);
    }
    qsort(t, RUNS, sizeof t[0], bench_cmp_double);
    qsort(c, RUNS, sizeof c[0], bench_cmp_double);
    printf("min %.3f s, median %.3f s, max %.3f s (CPU: median %.3f s); target <= %.1f s: %s\n",
           t[0], t[RUNS / 2], t[RUNS - 1], c[RUNS / 2], TARGET_S,
           t[RUNS / 2] <= TARGET_S ? "MET (median)" : "NOT MET (median)");
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_validate [path/to/tickscope]\nHow long `tickscope validate` takes at its defaults, end to end, 5 runs.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
