/* SPDX-License-Identifier: MIT */
/* test_runner_child.c: a result sent down a pipe by a child process (src/runner/child.c) arrives
 * whole: every figure, the windows, and the diagnostics with their numbers and names; a child
 * that dies before reporting, or sends a truncated result, gives a result that says so. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "runner/child.h"

#include "check.h"

static void body(tks_state *st) { (void)st; }

static void filled(tks_result *r)
{
    static uint64_t real[3] = {100, 101, 99}, empty[3] = {40, 41, 40};
    static uint32_t k[3] = {1, 1, 1};
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "bm_x/64");
    r->arg = 64;
    r->has_arg = 1;
    r->repetition = 2;
    r->mode = TKS_MODE_LATENCY;
    r->ok = 1;
    r->windows = 3;
    r->estimate = (tks_interval){59.5, 59.0, 60.0};
    r->ns = (tks_interval){22.9, 22.7, 23.1};
    r->core_cycles = (tks_interval){77.3, 76.9, 77.7};
    r->harness_gap = (tks_interval){8.4, 8.2, 8.6};
    r->latency_window = (tks_interval){59.4, 58.0, 60.8};
    r->modes_combined = 1;
    r->gap_source = TKS_GAP_BLOCK; /* latency mode's correction (issue 30) */
    r->latency_twice = (tks_interval){59.6, 59.2, 60.0};
    r->twice_windows = 7;
    r->latency_adds_cycles = (tks_interval){76.1, 75.5, 76.7};
    r->ks[0] = 1;
    r->n_ks = 1;
    r->cycles_per_tick = 1.3;
    /* issue 26: the arguments and the work counters cross too */
    r->args[0] = 64;
    r->args[1] = 8;
    r->n_args = 2;
    snprintf(r->work_counters[0].name, sizeof r->work_counters[0].name, "bytes_per_second");
    r->work_counters[0].value = 4096;
    r->work_counters[0].flags = TKS_COUNTER_ITERATION_INVARIANT_RATE | TKS_COUNTER_K1024;
    r->work_counters[0].figure = (tks_interval){1.5e9, 1.4e9, 1.6e9};
    r->work_counters[0].per_cycle = (tks_interval){2.5, 2.4, 2.6};
    snprintf(r->work_counters[1].name, sizeof r->work_counters[1].name, "nodes");
    r->work_counters[1].value = 7;
    r->n_work_counters = 2;
    r->core_source = TKS_CORE_INTERLEAVED;
    r->real = real;
    r->empty = empty;
    r->k = k;
    r->n_samples = 3;
    tks__diag(&r->diags, TKS_DIAG_BENCH_NEGATIVE, TKS__DS("latency"), TKS__DN(-1.5),
              TKS__DN(-2), TKS__DN(-1));
    tks__diag(&r->diags, TKS_DIAG_BENCH_FEW_WINDOWS, TKS__DN(3));
    /* event counters: one counted, one refused */
    r->n_events = 2;
    snprintf(r->events[0].name, sizeof r->events[0].name, "page-faults");
    r->events[0].counted = 1;
    r->events[0].refusal = -1;
    r->events[0].per_iteration = (tks_interval){16.0, 15.9, 16.1};
    r->events[0].harness = (tks_interval){0.25, 0.0, 0.5};
    r->events[0].block = (tks_interval){15.75, 15.5, 16.0};
    r->events[0].read_cost = 0.5;
    r->events[0].running = 1;
    r->events[0].batches = 12;
    snprintf(r->events[1].name, sizeof r->events[1].name, "instructions");
    r->events[1].refusal = TKS_DIAG_EVENTS_NO_PMU_VM;
}

/* Fork a child that runs send(fd) and exits with status; collect its result into got. */
static void through_child(void (*send)(int fd), int status, tks_result *got)
{
    tks_benchmark_spec spec = {"bm_x", body, NULL, 0, 1};
    tks_args args;
    int fds[2];
    pid_t pid;
    CHECK(pipe(fds) == 0);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        send(fds[1]);
        _exit(status);
    }
    close(fds[1]);
    memset(&args, 0, sizeof args);
    args.n = 1;
    args.v[0] = 64;
    tks__child_collect(pid, fds[0], "bm_x/64", &spec, &args, got);
}

static void send_whole(int fd)
{
    tks_result r;
    filled(&r);
    if (tks__child_send(fd, &r) != 0)
        _exit(3);
}

static void send_half(int fd)
{
    char junk[64];
    memset(junk, 0x5a, sizeof junk);
    if (write(fd, junk, sizeof junk) < 0)
        _exit(3);
}

static void send_nothing(int fd) { (void)fd; }

int main(void)
{
    tks_result want, got;
    filled(&want);
    through_child(send_whole, 0, &got);
    CHECK(got.ok == 1);
    CHECK_STR(got.name, "bm_x/64");
    CHECK_STR(got.family, "bm_x");
    CHECK(got.arg == 64 && got.has_arg == 1 && got.repetition == 2);
    CHECK(!memcmp(&got.estimate, &want.estimate, sizeof got.estimate));
    CHECK(!memcmp(&got.ns, &want.ns, sizeof got.ns));
    CHECK(!memcmp(&got.core_cycles, &want.core_cycles, sizeof got.core_cycles));
    CHECK(!memcmp(&got.harness_gap, &want.harness_gap, sizeof got.harness_gap));
    CHECK(got.gap_source == TKS_GAP_BLOCK && got.twice_windows == 7);
    CHECK(!memcmp(&got.latency_twice, &want.latency_twice, sizeof got.latency_twice));
    CHECK(!memcmp(&got.latency_adds_cycles, &want.latency_adds_cycles,
                  sizeof got.latency_adds_cycles));
    CHECK(!memcmp(&got.latency_window, &want.latency_window, sizeof got.latency_window));
    CHECK(got.modes_combined == 1 && got.core_source == TKS_CORE_INTERLEAVED);
    CHECK_NEAR(got.cycles_per_tick, 1.3, 0); /* as a double (x87: 1.3 is a long double) */
    CHECK(got.n_ks == 1 && got.ks[0] == 1);
    CHECK_EQ_U64(got.n_samples, 3);
    CHECK(got.n_args == 2 && got.args[0] == 64 && got.args[1] == 8);
    CHECK_EQ_U64(got.n_work_counters, 2);
    CHECK_STR(got.work_counters[0].name, "bytes_per_second");
    CHECK(!memcmp(&got.work_counters[0], &want.work_counters[0], sizeof got.work_counters[0]));
    CHECK_STR(got.work_counters[1].name, "nodes");
    CHECK(got.work_counters[1].value == 7);
    CHECK_EQ_U64(got.n_events, 2); /* event counters */
    CHECK(!memcmp(got.events, want.events, sizeof got.events));
    CHECK_STR(got.events[1].name, "instructions");
    CHECK(got.events[0].per_iteration.value == 16.0 && got.events[0].batches == 12);
    CHECK(!got.events[1].counted && got.events[1].refusal == TKS_DIAG_EVENTS_NO_PMU_VM);
    CHECK(got.real && got.real != want.real && got.real[0] == 100 && got.real[2] == 99);
    CHECK(got.empty && got.empty[1] == 41 && got.k && got.k[2] == 1);
    CHECK_EQ_U64(got.diags.n, 2);
    if (got.diags.n == 2) {
        char *m = tks_diag_message(&got.diags.items[0]);
        CHECK(got.diags.items[0].code == TKS_DIAG_BENCH_NEGATIVE);
        CHECK_STR(got.diags.items[0].values[0].str, "latency");
        CHECK(m && strstr(m, "negative (-1.500 ticks, interval [-2.000, -1.000])"));
        free(m);
        CHECK(tks_diag_number(&got.diags.items[1], "windows") == 3);
    }
    tks_result_free(&got);
    /* exited before reporting, or reported garbage: the result names the benchmark and says why */
    through_child(send_nothing, 4, &got);
    CHECK(!got.ok && strstr(got.error, "exited with status 4") && !strcmp(got.name, "bm_x/64"));
    CHECK(got.n_args == 1 && got.args[0] == 64 && got.arg == 64 && got.has_arg);
    tks_result_free(&got);
    through_child(send_half, 0, &got);
    CHECK(!got.ok && got.error[0] && !got.real && got.diags.n == 0);
    tks_result_free(&got);
    want.real = want.empty = NULL;
    want.k = NULL;
    want.n_samples = 0;
    tks_result_free(&want);
    CHECK_DONE();
}
