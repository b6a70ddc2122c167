/* bench_validate.c: how long `tickscope validate` with its defaults takes, end to end, as a user
 * runs it (target: under 3 s). Runs the command 5 times as a child process, report to /dev/null.
 * Usage: bench_validate [path/to/tickscope]   (default: build/tickscope, from the repo root) */
#include "child.h"

#define RUNS 5
#define TARGET_S 3.0

static int bench_main(int argc, char **argv)
{
    const char *exe = argc > 1 ? argv[1] : "build/tickscope";
    double t[RUNS];
    int i, rc;

    char *const args[] = {(char *)exe, "validate", NULL};

    if (bench_check_exe("bench_validate", exe))
        return 1;
    printf("bench_validate: wall time of '%s validate' (defaults), %d runs, stdout to /dev/null.\n",
           exe, RUNS);
    for (i = 0; i < RUNS; i++) {
        if ((rc = bench_run_child(args, &t[i])) != 0) {
            fprintf(stderr, "bench_validate: run %d: tickscope %s %d\n", i + 1,
                    rc < 0 ? "did not exit normally, status" : "exited with status", rc);
            return 1;
        }
        printf("  run %d: %.3f s\n", i + 1, t[i]);
        fflush(stdout);
    }
    qsort(t, RUNS, sizeof t[0], bench_cmp_double);
    printf("min %.3f s, median %.3f s, max %.3f s; target < %.1f s: %s\n", t[0], t[RUNS / 2],
           t[RUNS - 1], TARGET_S, t[RUNS / 2] < TARGET_S ? "MET (median)" : "NOT MET (median)");
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_validate [path/to/tickscope]\nHow long `tickscope validate` takes at its defaults, end to end, 5 runs.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
