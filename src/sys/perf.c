/* perf.c: --versus-perf: perf bench's syscall basic, sched pipe and mem memcpy, run in the same
 * process tree right after the suites, each put beside our row for the same operation with the
 * reason when the two differ by more than 10%. */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/internal.h"

extern char **environ;

/* Run argv with stdout and stderr into buf (NUL-terminated). 0, or an errno / -1 with why set. */
static int run_capture(char *const *argv, char *buf, size_t size, char *why, size_t wsize)
{
    posix_spawn_file_actions_t fa;
    int fd[2], status, e;
    size_t len = 0;
    ssize_t got;
    pid_t pid;
    if (pipe(fd))
        return snprintf(why, wsize, "pipe: %s", strerror(errno)), -1;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (e) {
        close(fd[0]);
        return snprintf(why, wsize, "cannot run %s: %s (Debian: linux-perf)", argv[0],
                        strerror(e)), -1;
    }
    while ((got = read(fd[0], buf + len, size - 1 - len)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0 && (len += (size_t)got) == size - 1)
            break;
    buf[len] = 0;
    close(fd[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *nl = strchr(buf, '\n');
        if (nl)
            *nl = 0;
        return snprintf(why, wsize, "%s %s failed: %.150s", argv[0], argv[2], buf), -1;
    }
    return 0;
}

static const tks_sys_op *find(tks_sys_result *const *res, size_t n, const char *id)
{
    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < res[s]->n_ops; i++)
            if (!strcmp(res[s]->ops[i].id, id) && res[s]->ops[i].ok)
                return &res[s]->ops[i];
    return NULL;
}

static double us(const tks_sys_op *op) { return op ? op->ns.value / 1000 : NAN; }

static double all_us(const tks_sys_op *op) { return op ? op->all_windows_ns / 1000 : NAN; }

static void reason(tks_sys_perf_row *x, tks_sys_result *const *res, size_t n)
{
    const tks_sys_op *one = find(res, n, "pipe_rt_proc_1cpu"), *two = find(res, n, "pipe_rt_proc_2cpu");
    x->gap = x->ours_value / x->perf_value - 1;
    if (!(fabs(x->gap) > 0.10))
        return;
    if (!strcmp(x->ours_id, "getpid"))
        snprintf(x->reason, sizeof x->reason, "perf divides wall time by its calls: interrupts "
                 "and stolen time are in it; ours is the mean of undisturbed windows%s",
                 fabs(x->gap_all) > 0.10 ? "; the rest: perf's loop, or load that changed "
                                           "between the runs" : "");
    else if (!strcmp(x->ours_id, "pipe_rt_proc"))
        snprintf(x->reason, sizeof x->reason, "placement: the scheduler puts the two processes "
                 "on one CPU or two from run to run (ours pinned: one CPU %.2f us, two CPUs %.2f "
                 "us), and perf's wall time holds every disturbance", us(one), us(two));
    else
        snprintf(x->reason, sizeof x->reason, "perf times a loop of copies by the wall clock "
                 "(interrupts in it); ours is the mean of undisturbed one-copy windows; memory "
                 "bandwidth also moves with what the other tenants of the machine are doing");
}

size_t tks_sys_versus_perf(tks_sys_result *const *res, size_t n, const tks_sys_options *o,
                           const tks_platform *p, tks_sys_perf_row *rows, size_t max)
{
    const tks_sys_op *copy = find(res, n, "copy_ram");
    char size[32], loops_sys[16], loops_pipe[16], loops_mem[16];
    size_t k = 0;
    char *out = malloc(65536);
    (void)p;
    if (!copy)
        copy = find(res, n, "copy_l2");
    snprintf(size, sizeof size, "%.0fB", copy ? copy->bytes : 1048576.0);
    snprintf(loops_sys, sizeof loops_sys, "%d", o && o->quick ? 300000 : 2000000);
    snprintf(loops_pipe, sizeof loops_pipe, "%d", o && o->quick ? 30000 : 200000);
    snprintf(loops_mem, sizeof loops_mem, "%d", o && o->quick ? 20 : 100);
    {
        char *const sys_argv[] = {"perf", "bench", "syscall", "basic", "-l", loops_sys, NULL};
        char *const pipe_argv[] = {"perf", "bench", "sched", "pipe", "-l", loops_pipe, NULL};
        char *const mem_argv[] = {"perf", "bench", "mem", "memcpy", "-s", size, "-l", loops_mem,
                                  "-f", "default", NULL};
        const struct {
            char *const *argv;
            const char *what, *id, *unit;
        } jobs[] = {
            {sys_argv, "syscall basic (getppid)", "getpid", "us/op"},
            {pipe_argv, "sched pipe (round trip)", "pipe_rt_proc", "us/op"},
            {mem_argv, "mem memcpy", copy ? copy->id : "copy_l2", "GiB/s"},
        };
        for (size_t j = 0; j < sizeof jobs / sizeof jobs[0] && k < max; j++) {
            tks_sys_perf_row *x = &rows[k++];
            const tks_sys_op *ours = find(res, n, jobs[j].id);
            memset(x, 0, sizeof *x);
            snprintf(x->what, sizeof x->what, "%s", jobs[j].what);
            snprintf(x->ours_id, sizeof x->ours_id, "%s", jobs[j].id);
            snprintf(x->unit, sizeof x->unit, "%s", jobs[j].unit);
            x->perf_value = x->ours_value = x->gap = x->ours_all_value = x->gap_all = NAN;
            if (!out) {
                snprintf(x->error, sizeof x->error, "out of memory");
                continue;
            }
            if (run_capture(jobs[j].argv, out, 65536, x->error, sizeof x->error) != 0)
                continue;
            if (tks_sys_perf_parse(out, &x->perf_value) != 0) {
                snprintf(x->error, sizeof x->error, "no figure in perf's output");
                continue;
            }
            x->ok = 1;
            if (ours && ours->bytes > 0) {
                x->ours_value = ours->gb_per_s * 1e9 / (1 << 30);
            } else if (ours) {
                x->ours_value = us(ours);
                x->ours_all_value = all_us(ours);
                x->gap_all = x->ours_all_value / x->perf_value - 1;
            }
            if (!ours)
                snprintf(x->reason, sizeof x->reason, "ours not measured in this run");
            else
                reason(x, res, n);
        }
    }
    free(out);
    return k;
}
