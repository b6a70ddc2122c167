/* SPDX-License-Identifier: MIT */
/* perf.c: --versus-perf: perf bench's syscall basic, sched pipe (pinned to one CPU and unpinned)
 * and mem memcpy, run in the same process tree right after the suites, each put beside our row
 * that times the same thing the same way, with the reason, from what was measured, when the two
 * differ by more than 10%. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/now.h"
#include "sys/sys_internal.h"

extern char **environ;

/* Run argv with stdout and stderr into buf (NUL-terminated); *on_cpu: the share of its wall
 * time it spent on a CPU (its user and system time, rusage). 0, or -1 with why set. */
static int run_capture(char *const *argv, char *buf, size_t size, double *on_cpu, char *why,
                       size_t wsize)
{
    posix_spawn_file_actions_t fa;
    struct rusage ru;
    double t0 = tks__now_s();
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
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    *on_cpu = ((double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec / 1e6) / (tks__now_s() - t0);
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

static double rel(double a, double b) { return a / b - 1; }

#define PERF_RUNS 5

static void sort(double *v, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort: five at most */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static double median(double *v, int n)
{
    sort(v, n);
    return n ? v[n / 2] : NAN;
}

/* Our row id of the os suite measured once more, now: its figure, every-window figure and
 * placement share into v, all and share at slot r. 0, or -1 when it did not measure. */
static int ours_now(const char *id, const tks_sys_options *o, const tks_platform *p, int r,
                    double *v, double *all, double *share)
{
    const char *only[] = {id, NULL};
    tks_sys_options oo = *o;
    tks_sys_result *res = NULL;
    int got = -1;
    oo.only = only;
    oo.stage = NULL;
    oo.progress = NULL;
    if (tks_sys_run(TKS_SYS_OS, &oo, p, &res) == 0 && res) {
        const tks_sys_op *op = find(&res, 1, id);
        if (op) {
            v[r] = us(op);
            all[r] = all_us(op);
            share[r] = op->same_cpu_share;
            got = 0;
        }
    }
    tks_sys_result_free(res);
    return got;
}

/* perf's figure from `runs` runs: their median, smallest and largest. cpu >= 0: perf runs
 * pinned to it (the affinity it inherits, as taskset -c gives it). With ours_id, our row is
 * measured again right before each of perf's runs, so the two see the same load: ours is the
 * median of those (x->ours_runs of them), and *share the mean placement share. */
static int run_perf(char *const *argv, int runs, int cpu, const char *ours_id,
                    const tks_sys_options *o, const tks_platform *p, tks_sys_perf_row *x,
                    double *share, char *out, size_t size)
{
    double v[PERF_RUNS], cpu_share[PERF_RUNS], ov[PERF_RUNS], oall[PERF_RUNS], osh[PERF_RUNS], sh = 0;
    cpu_set_t saved;
    int n = 0, m = 0, e, restore = 0;
    for (int r = 0; r < runs && r < PERF_RUNS; r++) {
        if (ours_id && o && p && ours_now(ours_id, o, p, m, ov, oall, osh) == 0)
            m++;
        if (cpu >= 0) {
            restore = sched_getaffinity(0, sizeof saved, &saved) == 0;
            if ((e = tks__sys_pin(cpu)) != 0)
                return snprintf(x->error, sizeof x->error, "cannot pin perf to CPU %d: %s", cpu,
                                strerror(e)), -1;
        }
        e = run_capture(argv, out, size, &cpu_share[n], x->error, sizeof x->error);
        if (restore)
            sched_setaffinity(0, sizeof saved, &saved);
        if (e != 0)
            break;
        if (tks_sys_perf_parse(out, &v[n]) != 0) {
            snprintf(x->error, sizeof x->error, "no figure in perf's output");
            break;
        }
        n++;
    }
    if (n < runs || n == 0)
        return -1;
    x->perf_on_cpu = median(cpu_share, n);
    x->perf_value = median(v, n);
    x->perf_lo = v[0];
    x->perf_hi = v[n - 1];
    x->perf_runs = n;
    x->error[0] = 0;
    if (m) {
        x->ours_value = median(ov, m);
        x->ours_all_value = median(oall, m);
        x->ours_runs = m;
        for (int i = 0; i < m; i++)
            sh += osh[i];
        *share = sh / m;
    }
    return 0;
}

size_t tks_sys_versus_perf(tks_sys_result *const *res, size_t n, const tks_sys_options *o,
                           const tks_platform *p, tks_sys_perf_row *rows, size_t max)
{
    const tks_sys_op *copy = find(res, n, "copy_ram");
    char size[32], loops_sys[16], loops_pipe[16], loops_mem[16], pin_what[64];
    int cpus[1], cpu = tks__sys_cpus(cpus, 1) ? cpus[0] : 0;
    size_t k = 0, pinned_row = SIZE_MAX;
    char *out = malloc(65536);
    if (!copy)
        copy = find(res, n, "copy_l2");
    snprintf(size, sizeof size, "%.0fB", copy ? copy->bytes : 1048576.0);
    snprintf(loops_sys, sizeof loops_sys, "%d", o && o->quick ? 300000 : 1000000);
    snprintf(loops_pipe, sizeof loops_pipe, "%d", o && o->quick ? 10000 : 40000);
    snprintf(loops_mem, sizeof loops_mem, "%d", o && o->quick ? 20 : 100);
    snprintf(pin_what, sizeof pin_what, "sched pipe, pinned to CPU %d", cpu);
    {
        char *const sys_argv[] = {"perf", "bench", "syscall", "basic", "-l", loops_sys, NULL};
        char *const pipe_argv[] = {"perf", "bench", "sched", "pipe", "-l", loops_pipe, NULL};
        char *const mem_argv[] = {"perf", "bench", "mem", "memcpy", "-s", size, "-l", loops_mem,
                                  "-f", "default", NULL};
        /* the one-CPU rows pin both processes to the first CPU this process may use: perf is
         * given the same one */
        const struct {
            char *const *argv;
            const char *what, *id, *alt, *unit;
            int like, cpu, runs;
        } jobs[] = {
            {sys_argv, "syscall basic (getppid)", "getppid_stream", "getppid", "us/op", 1, -1, PERF_RUNS},
            {pipe_argv, pin_what, "pipe_rt_proc_1cpu", "", "us/op", 1, cpu, PERF_RUNS},
            {pipe_argv, "sched pipe, unpinned", "pipe_rt_proc", "pipe_rt_proc_2cpu", "us/op", 0, -1,
             PERF_RUNS},
            {mem_argv, "mem memcpy", copy ? copy->id : "copy_l2", "", "GiB/s", 0, -1, 1},
        };
        for (size_t j = 0; j < sizeof jobs / sizeof jobs[0] && k < max; j++) {
            tks_sys_perf_row *x = &rows[k++];
            double share = NAN;
            const tks_sys_op *ours = find(res, n, jobs[j].id), *alt = find(res, n, jobs[j].alt);
            memset(x, 0, sizeof *x);
            snprintf(x->what, sizeof x->what, "%s", jobs[j].what);
            snprintf(x->ours_id, sizeof x->ours_id, "%s", jobs[j].id);
            snprintf(x->alt_id, sizeof x->alt_id, "%s", alt ? jobs[j].alt : "");
            snprintf(x->unit, sizeof x->unit, "%s", jobs[j].unit);
            x->like_for_like = jobs[j].like;
            x->pinned_cpu = jobs[j].cpu;
            x->perf_value = x->perf_lo = x->perf_hi = x->perf_on_cpu = x->ours_value = x->gap = NAN;
            x->ours_all_value = x->gap_all = x->alt_value = NAN;
            if (!out) {
                snprintf(x->error, sizeof x->error, "out of memory");
                continue;
            }
            if (run_perf(jobs[j].argv, jobs[j].runs, jobs[j].cpu, ours && !ours->bytes ? jobs[j].id : NULL,
                         o, p, x, &share, out, 65536) != 0)
                continue;
            x->ok = 1;
            if (jobs[j].cpu >= 0)
                pinned_row = k - 1;
            if (ours && ours->bytes > 0) {
                x->ours_value = ours->gb_per_s * 1e9 / (1 << 30);
            } else if (ours) {
                if (!x->ours_runs) { /* not measured again: the suite's figure */
                    x->ours_value = us(ours);
                    x->ours_all_value = all_us(ours);
                    share = ours->same_cpu_share;
                }
                x->gap_all = rel(x->ours_all_value, x->perf_value);
                x->alt_value = us(alt);
            }
            if (!ours)
                tks__diag0(&x->diags, TKS_DIAG_SYS_PERF_OURS_MISSING);
            else if (ours->bytes > 0)
                x->gap = rel(x->ours_value, x->perf_value);
            else
            {
                struct tks__sys_perf_facts f;
                f.perf_one_cpu = pinned_row < k && rows[pinned_row].ok ? rows[pinned_row].perf_value : NAN;
                f.ours_share = share;
                f.ours_one_cpu = us(find(res, n, "pipe_rt_proc_1cpu"));
                f.ours_two_cpus = us(find(res, n, "pipe_rt_proc_2cpu"));
                tks__sys_perf_reason(x, &f);
            }
        }
    }
    free(out);
    return k;
}

void tks_sys_perf_rows_free(tks_sys_perf_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++)
        tks_diags_free(&rows[i].diags);
}
