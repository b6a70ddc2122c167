/* main.c: tks_main, a benchmark program's main: parse the options, pick the benchmarks, learn
 * the machine, run each benchmark (in its own child process with --isolate) and report. Like the
 * tickscope command, this is a front end: it is the one place in the library that prints. */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/paired.h"
#include "bench/registry.h"
#include "bench/runner.h"
#include "report/bench_report.h"

struct instance {
    const tks_benchmark_spec *spec;
    long long arg;
    size_t family, index;
    char name[128];
};

static const char *g_prog = "benchmark";

static int error_exit(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int error_exit(int status, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", g_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

static void note(const tks_options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const tks_options *o, const char *fmt, ...)
{
    va_list ap;
    if (o->quiet)
        return;
    fprintf(stderr, "%s: note: ", g_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Every (benchmark, argument) pair whose name matches the filter, in registration order. */
static int select_instances(const regex_t *re, struct instance **out, size_t *n)
{
    size_t count = 0, cap = 0;
    struct instance *v = NULL;
    for (size_t f = 0; f < tks__registry_count(); f++) {
        const tks_benchmark_spec *s = tks__registry_get(f);
        size_t runs = s->args ? s->n_args : 1;
        for (size_t a = 0; a < runs; a++) {
            struct instance in;
            memset(&in, 0, sizeof in);
            in.spec = s;
            in.arg = s->args ? s->args[a] : 0;
            in.family = f;
            in.index = a;
            if (s->args)
                snprintf(in.name, sizeof in.name, "%s/%lld", s->name, in.arg);
            else
                snprintf(in.name, sizeof in.name, "%s", s->name);
            if (re && regexec(re, in.name, 0, NULL, 0) != 0)
                continue;
            if (count == cap) {
                struct instance *w = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof *w);
                if (!w) {
                    free(v);
                    return TKS_ENOMEM;
                }
                v = w;
            }
            v[count++] = in;
        }
    }
    *out = v;
    *n = count;
    return 0;
}

/* ---- --isolate: the child writes its result and windows down a pipe; the parent reads them
 * before it waits, so a large result never blocks the child on a full pipe. */
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

static void child(int fd, const tks_options *o, const tks_platform *p, const struct instance *in)
{
    tks_result r;
    tks_run_benchmark(o, p, in->spec, in->arg, &r);
    if (write_all(fd, &r, sizeof r) == 0 && r.n_samples) {
        (void)(write_all(fd, r.real, r.n_samples * sizeof *r.real) == 0 &&
               write_all(fd, r.empty, r.n_samples * sizeof *r.empty) == 0 &&
               write_all(fd, r.k, r.n_samples * sizeof *r.k) == 0);
    }
    _exit(0);
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

static void run_isolated(const tks_options *o, const tks_platform *p, const struct instance *in,
                         tks_result *r)
{
    int fds[2], status = 0, got;
    pid_t pid;
    fflush(NULL); /* or the child would write our buffered output a second time */
    if (pipe(fds) != 0 || (pid = fork()) < 0) {
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", in->name);
        snprintf(r->error, sizeof r->error, "cannot start a child process: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], o, p, in);
    }
    close(fds[1]);
    got = receive(fds[0], r);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return;
    tks_result_free(r);
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", in->name);
    r->family = in->spec->name;
    r->has_arg = in->spec->args != NULL;
    r->arg = in->arg;
    if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
        snprintf(r->error, sizeof r->error, "crashed: killed by signal %d (%s)", r->signal,
                 strsignal(r->signal));
    } else {
        snprintf(r->error, sizeof r->error, "its process exited with status %d before reporting",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

static int probe_machine(const tks_options *o, tks_platform *p)
{
    tks_platform_options po;
    int rc;
    tks_platform_options_init(&po);
    po.tsc_hz_override = o->tsc_hz;
    po.recalibrate = o->recalibrate;
    po.cpu = o->pin_cpu;
    if ((rc = tks_platform_probe(&po, p)) != 0)
        return rc;
    if (!p->invariant_tsc)
        note(o, "this CPU has no invariant TSC: ticks are not time");
    if (!(p->tsc_hz > 0))
        note(o, "the TSC rate is unknown: results stay in ticks; pass --tsc-hz to convert");
    return 0;
}

static int usage(const char *prog)
{
    printf("usage: %s [options]\n\n"
           "Runs the benchmarks built into this program with tickscope: each block's cost in TSC\n"
           "ticks, core cycles and nanoseconds, the harness cancelled, with 95%% intervals.\n\n%s",
           prog, tks_options_help());
    return 0;
}

/* Measure every selected instance; results[i * repetitions + rep]. */
static int measure_all(const tks_options *o, const tks_platform *p, const struct instance *v,
                       size_t n, tks_result *results)
{
    int failures = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned rep = 0; rep < o->repetitions; rep++) {
            tks_result *r = &results[i * o->repetitions + rep];
            if (!o->quiet && isatty(2))
                fprintf(stderr, "\r\033[K%s: running %s (%u/%u)", g_prog, v[i].name, rep + 1,
                        o->repetitions);
            if (o->isolate)
                run_isolated(o, p, &v[i], r);
            else
                tks_run_benchmark(o, p, v[i].spec, v[i].arg, r);
            r->family_index = v[i].family;
            r->instance_index = v[i].index;
            r->repetition = rep;
            failures += !r->ok && !r->skipped;
        }
    if (!o->quiet && isatty(2))
        fputs("\r\033[K", stderr);
    return failures;
}

int tks_main(int argc, char **argv)
{
    tks_options o;
    char err[300];
    regex_t re;
    int have_re = 0, rc, status = 0, failures, commit = 0;
    struct instance *v = NULL;
    size_t n = 0;
    tks_result *results = NULL;
    tks_platform *p = NULL;
    struct tks__bench_outputs outs;

    if (argc > 0 && argv && argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        g_prog = slash ? slash + 1 : argv[0];
    }
    /* Every large buffer straight from mmap, never from a heap whose layout the earlier runs
     * shaped: without this, a call benchmark read 0.5-0.75 ticks more after other benchmarks
     * had run in the same process than alone (examples/call_params). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    tks_options_init(&o);
    rc = tks_options_parse(&o, argc, argv, err, sizeof err);
    if (rc == 1)
        return usage(g_prog);
    if (rc)
        return error_exit(2, "%s", err);
    if (tks__registry_error()[0])
        return error_exit(1, "%s", tks__registry_error());
    if (o.compare)
        return tks__paired_main(&o, g_prog);
    if (o.filter) {
        if ((rc = regcomp(&re, o.filter, REG_EXTENDED | REG_NOSUB)) != 0) {
            char why[160];
            regerror(rc, &re, why, sizeof why);
            return error_exit(2, "--filter: '%s' is not a valid regular expression: %s", o.filter,
                              why);
        }
        have_re = 1;
    }
    rc = select_instances(have_re ? &re : NULL, &v, &n);
    if (have_re)
        regfree(&re);
    if (rc)
        return error_exit(1, "%s", tks_strerror(rc));
    if (o.list) {
        for (size_t i = 0; i < n; i++)
            puts(v[i].name);
        free(v);
        return 0;
    }
    if (n == 0) {
        free(v);
        if (tks__registry_count() == 0)
            return error_exit(1, "no benchmarks are registered in this program");
        return error_exit(1, "no benchmark matches --filter '%s' (--list shows the names)",
                          o.filter);
    }
    if (o.plot_dir && tks__plot_dir_ready(o.plot_dir, err, sizeof err) != 0) {
        free(v);
        return error_exit(1, "--plot: %s", err);
    }
    if (tks__bench_outputs_open(&outs, &o, err, sizeof err) != 0) {
        free(v);
        return error_exit(1, "%s", err);
    }
    p = malloc(sizeof *p);
    results = calloc(n * o.repetitions, sizeof *results);
    if (!p || !results) {
        status = error_exit(1, "%s", tks_strerror(TKS_ENOMEM));
        goto out;
    }
    if ((rc = probe_machine(&o, p)) != 0) {
        status = error_exit(1, "cannot examine this machine: %s", tks_strerror(rc));
        goto out;
    }
    failures = measure_all(&o, p, v, n, results);
    if (tks__bench_report(&outs, &o, p, results, n * o.repetitions, g_prog, err, sizeof err) != 0) {
        status = error_exit(1, "%s", err);
        goto out;
    }
    if (o.plot_dir) {
        char msg[512];
        tks__bench_plots(o.plot_dir, results, n * o.repetitions, msg, sizeof msg);
        note(&o, "%s", msg);
    }
    commit = 1;
    status = failures ? 1 : 0;
out:
    if (tks__bench_outputs_close(&outs, commit, err, sizeof err) != 0 && commit)
        status = error_exit(1, "%s", err);
    for (size_t i = 0; results && i < n * o.repetitions; i++)
        tks_result_free(&results[i]);
    free(results);
    free(p);
    free(v);
    return status;
}
