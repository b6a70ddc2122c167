/* child.c: a benchmark run in another process and its result brought back: the child writes the
 * result and its windows down a pipe; the parent reads them before it waits, so a large result
 * never blocks the child on a full pipe. */
#include "bench/child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

int tks__child_send(int fd, const tks_result *r)
{
    if (write_all(fd, r, sizeof *r) != 0)
        return -1;
    if (!r->n_samples)
        return 0;
    return write_all(fd, r->real, r->n_samples * sizeof *r->real) == 0 &&
                   write_all(fd, r->empty, r->n_samples * sizeof *r->empty) == 0 &&
                   write_all(fd, r->k, r->n_samples * sizeof *r->k) == 0
               ? 0
               : -1;
}

static int receive(int fd, tks_result *r)
{
    size_t n;
    if (read_all(fd, r, sizeof *r) != 0)
        return -1;
    n = r->n_samples;
    r->real = r->empty = NULL;
    r->k = NULL;
    r->n_samples = 0;
    r->family = NULL; /* a pointer into the child's memory */
    if (n == 0)
        return 0;
    r->real = malloc(n * sizeof *r->real);
    r->empty = malloc(n * sizeof *r->empty);
    r->k = malloc(n * sizeof *r->k);
    if (!r->real || !r->empty || !r->k || read_all(fd, r->real, n * sizeof *r->real) != 0 ||
        read_all(fd, r->empty, n * sizeof *r->empty) != 0 ||
        read_all(fd, r->k, n * sizeof *r->k) != 0) {
        tks_result_free(r);
        return -1;
    }
    r->n_samples = n;
    return 0;
}

static void named(tks_result *r, const char *name, const tks_benchmark_spec *spec, long long arg)
{
    snprintf(r->name, sizeof r->name, "%s", name);
    r->family = spec->name;
    r->has_arg = spec->args != NULL;
    r->arg = r->has_arg ? arg : 0;
}

void tks__child_collect(pid_t pid, int fd, const char *name, const tks_benchmark_spec *spec,
                        long long arg, tks_result *r)
{
    int status = 0, got = receive(fd, r);
    close(fd);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        r->family = spec->name;
        return;
    }
    if (got == 0)
        tks_result_free(r);
    memset(r, 0, sizeof *r);
    named(r, name, spec, arg);
    if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
        snprintf(r->error, sizeof r->error, "crashed: killed by signal %d (%s)", r->signal,
                 strsignal(r->signal));
    } else {
        snprintf(r->error, sizeof r->error, "its process exited with status %d before reporting",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

void tks__child_fresh(int argc, char **argv, const char *name, const tks_benchmark_spec *spec,
                      long long arg, tks_result *r)
{
    int fds[2];
    pid_t pid;
    char **args = calloc((size_t)argc + 2, sizeof *args), *opt = NULL;
    size_t optlen = strlen(TKS_CHILD_OPTION) + strlen(name) + 16;
    fflush(NULL); /* or the child would write our buffered output a second time */
    if (!args || !(opt = malloc(optlen)) || pipe(fds) != 0 || (pid = fork()) < 0) {
        memset(r, 0, sizeof *r);
        named(r, name, spec, arg);
        snprintf(r->error, sizeof r->error, "cannot start a fresh process: %s", strerror(errno));
        free(args);
        free(opt);
        return;
    }
    if (pid == 0) {
        int a = 0;
        close(fds[0]);
        snprintf(opt, optlen, "%s%d:%s", TKS_CHILD_OPTION, fds[1], name);
        for (int i = 0; i < argc; i++)
            args[a++] = argv[i];
        args[a++] = opt;
        args[a] = NULL;
        execv("/proc/self/exe", args);
        _exit(127); /* reported by the parent as an early exit */
    }
    close(fds[1]);
    free(args);
    free(opt);
    tks__child_collect(pid, fds[0], name, spec, arg, r);
}
