/* SPDX-License-Identifier: MIT */
/* child.c: a benchmark run in another process and its result brought back: the child writes the
 * result and its windows down a pipe; the parent reads them before it waits, so a large result
 * never blocks the child on a full pipe. */
#include "runner/child.h"
#include "runner/record.h"
#include "runner/runner.h"
#include "base/diag.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
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

/* The result as it crosses the pipe: each field by name, never the struct's bytes (its pointers
 * mean nothing in the other process, and a field added to tks_result is sent only once it is
 * listed here: tests/test_bench_run.c runs a benchmark in a fresh process and compares). */
#define WIRE_FIELDS(X)                                                                           \
    X(name) X(arg) X(has_arg) X(family_index) X(instance_index) X(repetition) X(mode) X(method)  \
    X(ok) X(skipped) X(error) X(signal) X(windows) X(executions) X(min) X(median) X(mean)       \
    X(slope) X(estimate) X(ns) X(intercept) X(slope_r2) X(ks) X(n_ks) X(overhead) X(overhead_median)  \
    X(overhead_mad) X(overhead_min) X(quantum) X(outliers_low) X(outliers_high)                 \
    X(discarded_migrated) X(discarded_negative) X(warmup) X(optimized) X(seconds) X(n_samples)  \
    X(core_source) X(core_cycles) X(cycles_per_tick) X(cycles_per_tick_start)                   \
    X(cycles_per_tick_end) X(cycles_per_tick_range) X(reference_windows) X(harness_gap)         \
    X(loop_floor) X(throughput_alongside) X(latency_window) X(latency_window_cycles)            \
    X(modes_combined)                                                                            \
    /* issue 26: the arguments, the work counters and the event counters (plain data: names */ \
    /* are arrays); latency mode's correction (issue 30) */                                   \
    X(args) X(n_args) X(work_counters) X(n_work_counters) X(events) X(n_events)               \
    X(gap_source) X(latency_twice) X(twice_windows) X(latency_adds_cycles) X(add_check)

/* A diagnostic: its code, its values, each number then a name's length and bytes (0: none). */
static int send_diags(int fd, const tks_diags *ds)
{
    uint64_t n = ds->n;
    if (write_all(fd, &n, sizeof n) != 0)
        return -1;
    for (size_t i = 0; i < ds->n; i++) {
        const tks_diag *d = &ds->items[i];
        int32_t code = (int32_t)d->code;
        uint32_t nv = (uint32_t)d->n_values;
        if (write_all(fd, &code, sizeof code) != 0 || write_all(fd, &nv, sizeof nv) != 0)
            return -1;
        for (size_t v = 0; v < d->n_values; v++) {
            uint32_t len = d->values[v].str ? (uint32_t)strlen(d->values[v].str) : 0;
            if (write_all(fd, &d->values[v].num, sizeof(double)) != 0 ||
                write_all(fd, &len, sizeof len) != 0 ||
                (len && write_all(fd, d->values[v].str, len) != 0))
                return -1;
        }
    }
    return 0;
}

static int receive_diags(int fd, tks_diags *ds)
{
    uint64_t n;
    if (read_all(fd, &n, sizeof n) != 0 || n > 4096)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        int32_t code;
        uint32_t nv;
        tks_diag_value v[TKS_DIAG_VALUES_MAX];
        int rc = 0;
        if (read_all(fd, &code, sizeof code) != 0 || read_all(fd, &nv, sizeof nv) != 0 ||
            nv > TKS_DIAG_VALUES_MAX || !tks_diag_info_of((enum tks_diag_code)code))
            return -1;
        memset(v, 0, sizeof v);
        for (uint32_t k = 0; k < nv && rc == 0; k++) {
            uint32_t len;
            if (read_all(fd, &v[k].num, sizeof(double)) != 0 || read_all(fd, &len, sizeof len) != 0 ||
                len > 4096 || (len && !(v[k].str = calloc(1, (size_t)len + 1))) ||
                (len && read_all(fd, v[k].str, len) != 0))
                rc = -1;
        }
        if (rc == 0 && tks__diag_add(ds, (enum tks_diag_code)code, v, nv) != 0)
            rc = -1;
        for (uint32_t k = 0; k < nv; k++)
            free(v[k].str);
        if (rc)
            return -1;
    }
    return 0;
}

int tks__child_send(int fd, const tks_result *r)
{
#define SEND(f) if (write_all(fd, &r->f, sizeof r->f) != 0) return -1;
    WIRE_FIELDS(SEND)
#undef SEND
    if (r->n_samples && (write_all(fd, r->real, r->n_samples * sizeof *r->real) != 0 ||
                         write_all(fd, r->empty, r->n_samples * sizeof *r->empty) != 0 ||
                         write_all(fd, r->k, r->n_samples * sizeof *r->k) != 0))
        return -1;
    return send_diags(fd, &r->diags);
}

static int receive(int fd, tks_result *r)
{
    size_t n;
    memset(r, 0, sizeof *r);
#define RECEIVE(f) if (read_all(fd, &r->f, sizeof r->f) != 0) return -1;
    WIRE_FIELDS(RECEIVE)
#undef RECEIVE
    n = r->n_samples;
    r->n_samples = 0;
    r->name[sizeof r->name - 1] = 0;
    r->error[sizeof r->error - 1] = 0;
    if (r->n_args > TKS_ARITY_MAX || r->n_work_counters > TKS_WORK_COUNTERS_MAX)
        return -1;
    for (size_t i = 0; i < r->n_work_counters; i++)
        r->work_counters[i].name[TKS_WORK_COUNTER_NAME - 1] = 0;
    if (n > SIZE_MAX / sizeof *r->real) /* the sizes below would overflow */
        return -1;
    if (n) {
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
    }
    if (receive_diags(fd, &r->diags) != 0) {
        tks_result_free(r);
        return -1;
    }
    return 0;
}

static void named(tks_result *r, const char *name, const tks_benchmark_spec *spec,
                  const tks_args *args)
{
    tks__result_name(r, spec, args);
    snprintf(r->name, sizeof r->name, "%s", name);
}

void tks__child_collect(pid_t pid, int fd, const char *name, const tks_benchmark_spec *spec,
                        const tks_args *arg, tks_result *r)
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

void tks__forked_note(tks_result *r, int why)
{
    tks__diag(&r->diags, TKS_DIAG_BENCH_FORKED, TKS__DN(why));
}

void tks__child_fresh(int argc, char **argv, const tks_options *o, const tks_platform *p,
                      const char *name, const tks_benchmark_spec *spec, const tks_args *arg,
                      tks_result *r)
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
        {
            int why = errno;
            tks_result mine;
            tks__record_stand_in(o, why);
            tks_run_benchmark_args(o, p, spec, arg, &mine);
            tks__forked_note(&mine, why);
            _exit(tks__child_send(fds[1], &mine) == 0 ? 0 : 1);
        }
    }
    close(fds[1]);
    free(args);
    free(opt);
    tks__child_collect(pid, fds[0], name, spec, arg, r);
}
