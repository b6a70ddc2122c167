/* SPDX-License-Identifier: MIT */
/* tks_main.c: tks_main, a benchmark program's main: parse the options, pick the benchmarks, learn
 * the machine, run each benchmark (in its own child process with --isolate) and report. Like the
 * tickscope command, this is a front end: it is the one place in the library that prints. */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/child.h"
#include "program/bench_disasm.h"
#include "program/explain_main.h"
#include "program/gbflags.h"
#include "program/paired_main.h"
#include "program/prog.h"
#include "program/record_main.h"
#include "runner/name_filter.h"
#include "runner/registry.h"
#include "runner/runner.h"
#include "report/bench/bench_report.h"

struct instance {
    const tks_benchmark_spec *spec;
    tks_args args;
    size_t family, index;
    char name[128];
};

static const char *g_prog = "benchmark";

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

/* Every (benchmark, argument) pair whose name the filter selects, in registration order. */
static int select_instances(const tks__name_filter *filter, struct instance **out, size_t *n)
{
    size_t count = 0, cap = 0;
    struct instance *v = NULL;
    for (size_t f = 0; f < tks__registry_count(); f++) {
        const tks_benchmark_spec *s = tks__registry_get(f);
        size_t runs = tks__registry_runs(f);
        for (size_t a = 0; a < runs; a++) {
            struct instance in;
            memset(&in, 0, sizeof in);
            in.spec = s;
            tks__registry_run(f, a, &in.args, in.name, sizeof in.name);
            in.family = f;
            in.index = a;
            if (!tks__name_filter_match(filter, in.name))
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

/* --isolate: a fork runs the benchmark and sends its result back. */
static void run_isolated(const tks_options *o, const tks_platform *p, const struct instance *in,
                         tks_result *r)
{
    int fds[2];
    pid_t pid;
    fflush(NULL); /* or the child would write our buffered output a second time */
    if (pipe(fds) != 0 || (pid = fork()) < 0) {
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", in->name);
        snprintf(r->error, sizeof r->error, "cannot start a child process: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        tks_result mine;
        close(fds[0]);
        tks_run_benchmark_args(o, p, in->spec, &in->args, &mine);
        _exit(tks__child_send(fds[1], &mine) == 0 ? 0 : 1);
    }
    close(fds[1]);
    tks__child_collect(pid, fds[0], in->name, in->spec, &in->args, r);
}

/* --processes: the program's own argv, for running it again, and in a re-run program the pipe
 * and the one instance it was asked for (TKS_CHILD_OPTION, taken out of argv). */
static int g_argc;
static char **g_argv;
static int g_child_fd = -1;
static const char *g_child_name;

static int take_child_option(int *argc, char **argv)
{
    size_t len = strlen(TKS_CHILD_OPTION);
    for (int i = 1; i < *argc; i++) {
        char *colon;
        long fd;
        if (strncmp(argv[i], TKS_CHILD_OPTION, len) != 0)
            continue;
        fd = strtol(argv[i] + len, &colon, 10);
        if (*colon != ':' || fd < 0 || fd > 1 << 20)
            return -1;
        g_child_fd = (int)fd;
        g_child_name = colon + 1;
        for (int j = i; j + 1 < *argc; j++)
            argv[j] = argv[j + 1];
        argv[--*argc] = NULL;
        return 0;
    }
    return 0;
}

/* The re-run program's whole job: the one instance, once, sent back; nothing printed. */
static int child_main(const tks_options *o, const tks_platform *p, const struct instance *v,
                      size_t n)
{
    tks_result r;
    int rc;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, g_child_name)) {
            tks_run_benchmark_args(o, p, v[i].spec, &v[i].args, &r);
            rc = tks__child_send(g_child_fd, &r);
            tks_result_free(&r);
            return rc == 0 ? 0 : 1;
        }
    return 1;
}

/* --record FILE: the file's start, with the instances selected, in their order. */
static int begin_recording(tks__recorder *rec, const tks_options *o, const tks_platform *p,
                           const struct instance *v, size_t n, char *err, size_t errlen)
{
    tks__record_instance *in = calloc(n ? n : 1, sizeof *in);
    int rc;
    if (!in) {
        snprintf(err, errlen, "--record: %s", tks_strerror(TKS_ENOMEM));
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (tks__record_instance){v[i].name, v[i].family, v[i].index};
    rc = tks__recording_begin(rec, o->record, o, p, g_prog, in, n, err, errlen);
    free(in);
    return rc;
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

/* --explain: the machine, then each instance's experiments and the report. */
static int explain_all(const tks_options *o, const struct instance *v, size_t n)
{
    tks__explain_item *items = calloc(n, sizeof *items);
    tks_platform *p = calloc(1, sizeof *p); /* zeroed: tks_platform_free is safe */
    int rc;
    if (!items || !p)
        rc = tks__prog_error(g_prog, 1, "%s", tks_strerror(TKS_ENOMEM));
    else if ((rc = probe_machine(o, p)) != 0)
        rc = tks__prog_error(g_prog, 1, "cannot examine this machine: %s", tks_strerror(rc));
    else {
        for (size_t i = 0; i < n; i++)
            items[i] = (tks__explain_item){v[i].spec, &v[i].args, v[i].name};
        rc = tks__explain_main(o, p, items, n, g_prog);
    }
    free(items);
    tks_platform_free(p);
    free(p);
    return rc;
}

static int usage(const char *prog)
{
    printf("usage: %s [options]\n\n"
           "Runs the benchmarks built into this program with tickscope: each block's cost in TSC\n"
           "ticks, core cycles and nanoseconds, the harness cancelled, with 95%% intervals.\n\n%s",
           prog, tks_options_help());
    return 0;
}

/* What Google Benchmark's flags ask of the front end beyond the options: a flag that cannot
 * mean anything here is said once, and the random order gets its seed. */
static void gb_notes(tks_options *o)
{
    if (o->color == 1)
        note(o, "--benchmark_color: accepted, but this report has no colours");
    tks__bench_gb_seed(o);
}

/* Measure every selected instance; results[i * repetitions + rep], an instance's repetitions
 * numbered in the order they ran. A progress line with the time left stays on a terminal's
 * stderr while they run; with stream, each row is printed as its run ends, in the order the
 * runs go (a random order's too: the files and JSON have them in order), and an instance's
 * aggregates after its last repetition. */
static int measure_all(const tks_options *o, const tks_platform *p, const struct instance *v,
                       size_t n, tks_result *results, tks__bench_stream *stream)
{
    int failures = 0;
    size_t total = n * o->repetitions, *order = tks__bench_run_order(o, n);
    unsigned *done = calloc(n ? n : 1, sizeof *done);
    tks__progress bar;
    char label[200] = "";
    if (!order || !done) {
        free(order);
        free(done);
        return -1;
    }
    if (o->verbosity >= 1 && o->random_interleaving)
        fprintf(stderr, "%s: %zu runs in a random order (--random-seed %llu repeats it)\n", g_prog,
                total, o->random_seed);
    tks__progress_begin(&bar, label, 0);
    bar.enabled &= !o->quiet && o->verbosity < 1;
    tks__progress_plan(&bar, o->windows ? 0 : o->min_time);
    for (size_t j = 0; j < total; j++) {
        size_t i = order[j];
        unsigned rep = done[i]++;
        size_t at = i * o->repetitions + rep;
        tks_result *r = &results[at];
        if (o->verbosity >= 1)
            fprintf(stderr, "%s: run %zu/%zu: %s, repetition %u/%u\n", g_prog, j + 1, total,
                    v[i].name, rep + 1, o->repetitions);
        snprintf(label, sizeof label, "%s: running %s (%u/%u)", g_prog, v[i].name, rep + 1,
                 o->repetitions);
        tks__progress_update(&bar, j, total);
        if (o->processes > 1)
            tks__child_fresh(g_argc, g_argv, o, p, v[i].name, v[i].spec, &v[i].args, r);
        else if (o->isolate)
            run_isolated(o, p, &v[i], r);
        else
            tks_run_benchmark_args(o, p, v[i].spec, &v[i].args, r);
        /* the default run: is its interval within this process only? (--processes 1: no) */
        if (o->processes == 0 && rep == 0)
            tks__next_process(g_argc, g_argv, o, p, v[i].name, v[i].spec, &v[i].args, r);
        r->family_index = v[i].family;
        r->instance_index = v[i].index;
        r->repetition = rep;
        failures += !r->ok && !r->skipped;
        if (stream && tks__bench_stream_result(stream, results, at) != 0)
            stream = NULL; /* a failing stdout is reported when the report is written */
    }
    tks__progress_end(&bar);
    free(order);
    free(done);
    return failures;
}

int tks_main(int argc, char **argv)
{
    tks_options o;
    char err[300];
    tks__name_filter filter;
    int rc, status = 0, failures, commit = 0;
    struct instance *v = NULL;
    size_t n = 0;
    tks_result *results = NULL;
    tks_platform *p = NULL;
    struct tks__bench_outputs outs;
    tks__bench_stream stream = {0};
    tks__recorder rec;
    int recording = 0;
    const char *role = NULL;

    if (argc > 0 && argv && argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        g_prog = slash ? slash + 1 : argv[0];
    }
    /* Every large buffer straight from mmap, never from a heap whose layout the earlier runs
     * shaped: without this, a call benchmark read 0.5-0.75 ticks more after other benchmarks
     * had run in the same process than alone (examples/call_params). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    if (take_child_option(&argc, argv) != 0)
        return tks__prog_error(g_prog, 2, "malformed %s option", TKS_CHILD_OPTION);
    g_argc = argc;
    g_argv = argv;
    tks_options_init(&o);
    rc = tks_options_parse(&o, argc, argv, err, sizeof err);
    if (rc == 1)
        return usage(g_prog);
    if (rc)
        return tks__prog_error(g_prog, 2, "%s", err);
    if (o.dry_run) { /* as Google Benchmark's: each benchmark once, one repetition */
        o.repetitions = 1;
        o.processes = 0;
    }
    if (o.processes > 1 && o.repetitions > 1)
        return tks__prog_error(g_prog, 2, "--processes N already runs each benchmark N times (each in a fresh "
                             "process): leave out --repetitions");
    if (o.explain && tks__explain_check(&o, err, sizeof err) != 0)
        return tks__prog_error(g_prog, 2, "%s", err);
    if (o.processes > 1)
        o.repetitions = o.processes;
    /* A fresh process of --processes is one of the runs; of the default run, its second. */
    role = tks__record_role_of(&o);
    if (g_child_fd >= 0) { /* the parent writes every output */
        o.quiet = 1;
        o.processes = 0;
        o.list = o.histogram = 0;
        o.out = o.raw = o.plot_dir = o.html = NULL;
    }
    if (tks__registry_error()[0])
        return tks__prog_error(g_prog, 1, "%s", tks__registry_error());
    if (o.compare && o.html)
        return tks__prog_error(g_prog, 2, "--html is not available with --compare yet: write "
                               "the two runs' JSON and use tickscope compare --html");
    if (o.record && (o.compare || o.explain))
        return tks__prog_error(g_prog, 2, "--record records benchmark runs: %s's are not "
                               "recorded (docs/recording.md)", o.compare ? "--compare" : "--explain");
    if (o.compare)
        return tks__paired_main(&o, g_prog);
    if (tks__name_filter_init(&filter, o.filter, err, sizeof err) != 0)
        return tks__prog_error(g_prog, 2, "%s", err);
    rc = select_instances(&filter, &v, &n);
    tks__name_filter_free(&filter);
    if (rc)
        return tks__prog_error(g_prog, 1, "%s", tks_strerror(rc));
    /* Nothing selected: the same for --list, --disasm and a run, as Google Benchmark (which
     * says "Failed to match any benchmarks" and exits 0); a program with no benchmark at all
     * is an error. */
    if (n == 0) {
        free(v);
        if (tks__registry_count() == 0)
            return tks__prog_error(g_prog, 1, "no benchmarks are registered in this program");
        fprintf(stderr, "%s: warning: no benchmark matches --filter '%s' (--list shows the names)\n",
                g_prog, o.filter);
        return 0;
    }
    gb_notes(&o);
    if (o.list) {
        for (size_t i = 0; i < n; i++)
            puts(v[i].name);
        free(v);
        return 0;
    }
    if (o.disasm) {
        free(v);
        return tks__bench_disasm(&o, g_prog);
    }
    if (o.explain) {
        status = explain_all(&o, v, n);
        free(v);
        return status;
    }
    if (o.plot_dir && tks__plot_dir_ready(o.plot_dir, err, sizeof err) != 0) {
        free(v);
        return tks__prog_error(g_prog, 1, "--plot: %s", err);
    }
    if (tks__bench_outputs_open(&outs, &o, err, sizeof err) != 0) {
        free(v);
        return tks__prog_error(g_prog, 1, "%s", err);
    }
    p = calloc(1, sizeof *p); /* zeroed: tks_platform_free is safe on every path */
    results = calloc(n * o.repetitions, sizeof *results);
    if (!p || !results) {
        status = tks__prog_error(g_prog, 1, "%s", tks_strerror(TKS_ENOMEM));
        goto out;
    }
    if ((rc = probe_machine(&o, p)) != 0) {
        status = tks__prog_error(g_prog, 1, "cannot examine this machine: %s", tks_strerror(rc));
        goto out;
    }
    if (o.record && g_child_fd >= 0)
        recording = tks__recording_join(&rec, o.record, role, err, sizeof err) == 0;
    else if (o.record)
        recording = begin_recording(&rec, &o, p, v, n, err, sizeof err) == 0;
    if (o.record && !recording) {
        status = tks__prog_error(g_prog, 1, "%s", err);
        goto out;
    }
    if (g_child_fd >= 0) {
        status = child_main(&o, p, v, n);
        goto out;
    }
    if (tks__bench_outputs_stream(&outs, &o)) { /* row by row */
        size_t width = 0;
        for (size_t i = 0; i < n; i++)
            width = strlen(v[i].name) > width ? strlen(v[i].name) : width;
        outs.streamed = tks__bench_stream_begin(&stream, outs.out.f, &o, p, width) == 0;
    }
    failures = measure_all(&o, p, v, n, results, outs.streamed ? &stream : NULL);
    tks__bench_stream_end(&stream);
    if (failures < 0) {
        status = tks__prog_error(g_prog, 1, "%s", tks_strerror(TKS_ENOMEM));
        goto out;
    }
    if (tks__bench_report(&outs, &o, p, results, n * o.repetitions, g_prog, err, sizeof err) != 0) {
        status = tks__prog_error(g_prog, 1, "%s", err);
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
    if (recording && tks__recording_end(&rec, o.record, err, sizeof err) != 0 && !status)
        status = tks__prog_error(g_prog, 1, "%s", err);
    if (tks__bench_outputs_close(&outs, commit, err, sizeof err) != 0 && commit)
        status = tks__prog_error(g_prog, 1, "%s", err);
    for (size_t i = 0; results && i < n * o.repetitions; i++)
        tks_result_free(&results[i]);
    free(results);
    tks_platform_free(p);
    free(p);
    free(v);
    return status;
}
