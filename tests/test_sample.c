/* SPDX-License-Identifier: MIT */
/* test_sample.c: the sampler on this machine's real clock, checked for structure only (counts,
 * ordering, monotone work, discards reported, errors on bad plans), never for speed. (The /proc
 * readers it uses are test_sample_procfs's.) */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfs.h"
#include "check.h"
#include "clock_util.h"
#include "cpu_truth.h"
#include "tickscope.h"
/* Errors as CHECK_EQ_U64 prints them. */
#define E_(code) ((uint64_t)(int64_t)(code))

/* A loose sanity bound on one empty or 200-add window, in ticks: about 4 ms at 2.6 GHz. */
#define TICKS_SANE 10000000ull

/* The method the measuring checks use: this CPU's default when it is fenced at both ends (lfence
 * where RDTSCP is there, lfence_rdtsc where it is not, isb on arm64); TKS_METHOD_COUNT when this
 * CPU has no fenced method at all. Which case this CPU is in is CPUID's word (cpu_truth.h), and
 * the library's default is held to it before it is used. */
static enum tks_method fenced = TKS_METHOD_COUNT;
static enum tks_method measuring_method(void)
{
    return fenced != TKS_METHOD_COUNT ? fenced : clock_unfenced_method();
}

static void test_plan_init(void)
{
    tks_sample_plan p;
    memset(&p, 0x5a, sizeof p);
    tks_sample_plan_init(&p, TKS_METHOD_LFENCE);
    CHECK_EQ_U64(p.method, TKS_METHOD_LFENCE);
    CHECK_EQ_U64(p.ensembles, 100);
    CHECK_EQ_U64(p.samples, 10000);
    CHECK_EQ_U64(p.work_start, 0);
    CHECK_EQ_U64(p.work_step, 0);
    CHECK(p.budget_s == 0);
    CHECK_EQ_U64(p.pin_cpu, (uint64_t)(int64_t)-1);
    CHECK(p.fifo == 0 && p.root == NULL && p.progress == NULL);
}

struct progress_log {
    uint64_t calls, last_done, total;
    int out_of_order;
};

static void progress_cb(void *ctx, uint64_t done, uint64_t total)
{
    struct progress_log *l = ctx;
    if (done != l->last_done + 1)
        l->out_of_order = 1;
    l->calls++;
    l->last_done = done;
    l->total = total;
}

/* 3 x 50 empty windows: every sample there, sane, and the run reported as planned. */
static void test_take_structure(void)
{
    tks_sample_plan p;
    tks_sample_run run;
    struct progress_log log = {0, 0, 0, 0};
    size_t i, bad = 0;

    tks_sample_plan_init(&p, measuring_method());
    p.ensembles = 3;
    p.samples = 50;
    p.progress = progress_cb;
    p.progress_ctx = &log;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    if (!run.ticks) {
        CHECK(run.ticks != NULL);
        return;
    }
    CHECK_EQ_U64(run.ensembles, 3);
    CHECK_EQ_U64(run.samples, 50);
    CHECK_EQ_U64(run.warmup_discarded, 3);
    CHECK_EQ_U64(run.budget_limited, 0);
    CHECK_EQ_U64(run.aux_checked, tks_cpu_features_get()->rdtscp);
    CHECK(run.seconds_per_sample > 0);
    CHECK(run.seconds > 0);
    CHECK_EQ_U64(run.pin_status, 0);
    CHECK_EQ_U64(run.fifo_status, 0);
    CHECK_EQ_U64(run.rt_pauses, 0);
    for (i = 0; i < 150; i++)
        bad += !(run.ticks[i] > 0 && run.ticks[i] < TICKS_SANE);
    if (bad && clock_too_coarse(run.ticks, 150, TICKS_SANE))
        CHECK_SKIP("hardware: %zu of 150 empty windows read 0 ticks (QEMU user mode's counter)", bad);
    else
        CHECK_EQ_U64(bad, 0);
    /* Progress: once per ensemble, in order, between ensembles. */
    CHECK_EQ_U64(log.calls, 3);
    CHECK_EQ_U64(log.last_done, 3);
    CHECK_EQ_U64(log.total, 3);
    CHECK(!log.out_of_order);
    tks_sample_run_free(&run);
    CHECK(run.ticks == NULL);
    tks_sample_run_free(&run); /* twice is harmless */
    tks_sample_run_free(NULL);
}

/* More work, a longer window: 100 dependent adds take tens of cycles, far above one quantum. */
static void test_work_grows(void)
{
    tks_sample_plan p;
    tks_sample_run run;
    uint64_t min0 = UINT64_MAX, min1 = UINT64_MAX, min2 = UINT64_MAX;
    uint32_t s;

    tks_sample_plan_init(&p, measuring_method());
    p.ensembles = 2;
    p.samples = 200;
    p.work_start = 0;
    p.work_step = 100;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    if (!run.ticks)
        return;
    CHECK_EQ_U64(run.ensembles, 2);
    for (s = 0; s < run.samples; s++) {
        if (run.ticks[s] < min0)
            min0 = run.ticks[s];
        if (run.ticks[run.samples + s] < min1)
            min1 = run.ticks[run.samples + s];
    }
    if (clock_too_coarse(&min1, 1, TICKS_SANE)) {
        CHECK_SKIP("hardware: 100 adds read 0 ticks (QEMU user mode's counter): no growth to see");
        tks_sample_run_free(&run);
        return;
    }
    if (min1 <= min0)
        fprintf(stderr, "ensemble minimums: 0 adds %llu, 100 adds %llu\n",
                (unsigned long long)min0, (unsigned long long)min1);
    CHECK(min1 > min0);
    tks_sample_run_free(&run);

    /* work_start alone: one ensemble at the largest work the sampler carries. */
    p.ensembles = 1;
    p.work_start = TKS_WORK_MAX;
    p.work_step = 0;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    if (!run.ticks)
        return;
    for (s = 0; s < run.samples; s++)
        if (run.ticks[s] < min2)
            min2 = run.ticks[s];
    CHECK(min2 > min1);
    CHECK(min2 < TICKS_SANE);
    tks_sample_run_free(&run);
}

/* Every way a plan can be wrong, and what each returns; the run is left empty. */
static void test_bad_plans(void)
{
    tks_sample_plan p;
    tks_sample_run run;

    CHECK_EQ_U64(tks_sample_take(NULL, &run), E_(TKS_EINVAL));
    tks_sample_plan_init(&p, measuring_method());
    CHECK_EQ_U64(tks_sample_take(&p, NULL), E_(TKS_EINVAL));

#define BAD(field, value, err)                                                  \
    do {                                                                        \
        tks_sample_plan_init(&p, measuring_method()); \
        p.ensembles = 3;                                                        \
        p.samples = 50;                                                         \
        p.field = value;                                                        \
        run.ticks = (uint64_t *)&p; /* must be cleared, never freed */          \
        CHECK_EQ_U64(tks_sample_take(&p, &run), E_(err));                       \
        CHECK(run.ticks == NULL);                                               \
    } while (0)

    BAD(ensembles, 0, TKS_ERANGE);
    BAD(ensembles, TKS_ENSEMBLES_MAX + 1, TKS_ERANGE);
    BAD(samples, 0, TKS_ERANGE);
    BAD(samples, 1, TKS_ERANGE);
    BAD(samples, TKS_SAMPLES_MAX + 1, TKS_ERANGE);
    BAD(work_start, TKS_WORK_MAX + 1, TKS_ERANGE);
    BAD(work_step, 101, TKS_ERANGE);          /* 3 ensembles: 0, 101, 202 adds */
    BAD(work_step, UINT32_MAX, TKS_ERANGE);   /* must not wrap round to a small number */
    BAD(budget_s, -1.0, TKS_EINVAL);
    BAD(budget_s, NAN, TKS_EINVAL);
    BAD(budget_s, INFINITY, TKS_EINVAL);
    BAD(method, TKS_METHOD_CR0, TKS_EUNAVAIL); /* ring 0 only */
    BAD(method, TKS_METHOD_COUNT, TKS_EINVAL);
#if defined(__x86_64__) || defined(__i386__)
    BAD(method, TKS_METHOD_ISB, TKS_EUNAVAIL); /* another architecture's */
#endif
    BAD(where, (enum tks_where)7, TKS_EINVAL);
#undef BAD

    /* The edges that are allowed. */
    tks_sample_plan_init(&p, measuring_method());
    p.ensembles = 3;
    p.samples = 2;
    p.work_step = TKS_WORK_MAX / 2; /* 0, 100, 200 */
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    CHECK_EQ_U64(run.samples, 2);
    tks_sample_run_free(&run);
}

/* A budget far too small for the plan: the floor (min_samples) is what is taken, and said so. */
static void test_budget(void)
{
    tks_sample_plan p;
    tks_sample_run run;

    tks_sample_plan_init(&p, measuring_method());
    p.ensembles = 2;
    p.samples = 1000;
    p.budget_s = 1e-9; /* below one sample on any CPU (1e-6 let a 45 ns pair fit 11) */
    p.min_samples = 10;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    CHECK_EQ_U64(run.ensembles, 2);
    CHECK_EQ_U64(run.samples, 10);
    CHECK_EQ_U64(run.budget_limited, 1);
    tks_sample_run_free(&run);

    /* A floor above the plan is capped at the plan. */
    p.samples = 5;
    p.min_samples = 50;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    CHECK(run.samples <= 5 && run.samples >= 2);
    tks_sample_run_free(&run);

    /* A generous budget changes nothing. */
    p.samples = 20;
    p.min_samples = 0;
    p.budget_s = 60;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    CHECK_EQ_U64(run.samples, 20);
    CHECK_EQ_U64(run.budget_limited, 0);
    tks_sample_run_free(&run);
}

/* Pinning: an impossible CPU is reported and the run goes on; the affinity is restored after. */
static void test_pinning(void)
{
    tks_sample_plan p;
    tks_sample_run run;
    cpu_set_t before, after;
    int cpu, first = -1;

    if (sched_getaffinity(0, sizeof before, &before) != 0) {
        CHECK_SKIP("the pinning checks (sched_getaffinity: %s)", strerror(errno));
        return;
    }
    for (cpu = 0; cpu < CPU_SETSIZE && first < 0; cpu++)
        if (CPU_ISSET(cpu, &before))
            first = cpu;
    tks_sample_plan_init(&p, measuring_method());
    p.ensembles = 2;
    p.samples = 20;
    p.pin_cpu = first;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    CHECK_EQ_U64(run.pin_status, 0);
    tks_sample_run_free(&run);
    CHECK(sched_getaffinity(0, sizeof after, &after) == 0 && CPU_EQUAL(&before, &after));

    p.pin_cpu = CPU_SETSIZE - 1; /* not a CPU this machine has (it would need 1024 of them) */
    if (CPU_ISSET(p.pin_cpu, &before))
        return;
    CHECK_EQ_U64(tks_sample_take(&p, &run), 0);
    CHECK(run.pin_status != 0);
    CHECK(run.ticks != NULL);
    tks_sample_run_free(&run);
    CHECK(sched_getaffinity(0, sizeof after, &after) == 0 && CPU_EQUAL(&before, &after));
}

static void test_read_deltas(void)
{
    static uint64_t d[5000];
    size_t i, bad = 0;
    int m;

    CHECK_EQ_U64(tks_sample_read_deltas(TKS_METHOD_LFENCE, NULL, 10), E_(TKS_EINVAL));
    CHECK_EQ_U64(tks_sample_read_deltas(TKS_METHOD_LFENCE, d, 0), E_(TKS_EINVAL));
    CHECK_EQ_U64(tks_sample_read_deltas(TKS_METHOD_CR0, d, 10), E_(TKS_EUNAVAIL));
    CHECK_EQ_U64(tks_sample_read_deltas(TKS_METHOD_COUNT, d, 10), E_(TKS_EUNAVAIL));
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        if (!tks_method_available((enum tks_method)m, tks_cpu_features_get()))
            continue;
        /* A clock that went backwards shows as a wrapped delta, 2^63 ticks or more (some 1e19;
         * UINT64_MAX, a delta never written, too). A long one is no fault: a process descheduled
         * between two reads on a loaded machine reads a second or more (1e9 ticks and up). */
        for (i = 0; i < 5000; i++)
            d[i] = UINT64_MAX;
        CHECK_EQ_U64(tks_sample_read_deltas((enum tks_method)m, d, 5000), 0);
        for (i = 0, bad = 0; i < 5000; i++)
            bad += d[i] >> 63;
        if (bad)
            fprintf(stderr, "%s: %zu of 5000 deltas wrapped (>= 2^63: backwards, or not written)\n",
                    tks_method_info((enum tks_method)m)->name, bad);
        CHECK_EQ_U64(bad, 0);
    }
}

static void test_method_names(void)
{
    int m;
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
        CHECK(mi != NULL && mi->name != NULL);
        if (mi && mi->name)
            CHECK_EQ_U64(tks_method_from_name(mi->name), m);
    }
    CHECK_STR(tks_method_info(TKS_METHOD_LFENCE)->name, "lfence");
    CHECK_EQ_U64(tks_method_from_name("nope"), E_(-1));
    CHECK_EQ_U64(tks_method_from_name(""), E_(-1));
    CHECK_EQ_U64(tks_method_from_name("LFENCE"), E_(-1));
    CHECK_EQ_U64(tks_method_from_name("lfence "), E_(-1));
    CHECK_EQ_U64(tks_method_from_name(NULL), E_(-1));
    CHECK(tks_method_info(TKS_METHOD_COUNT) == NULL);
}

static void test_quantum(void)
{
    uint64_t q = 0, unfenced = 12345;
    enum tks_method m = measuring_method();
    CHECK_EQ_U64(tks_timer_quantum_step(m, NULL, NULL), E_(TKS_EINVAL));
    CHECK_EQ_U64(tks_timer_quantum_step(m, &q, NULL), 0);
    CHECK(q >= 1);
    q = 0;
    CHECK_EQ_U64(tks_timer_quantum_step(m, &q, &unfenced), 0);
    CHECK(q >= 1);
#if defined(__x86_64__) || defined(__i386__)
    /* RDTSC exists wherever the TSC does: back-to-back reads differ by a nonzero amount. */
    CHECK(unfenced >= 1 && unfenced < 1000000000ull);
#endif
    CHECK_EQ_U64(tks_timer_quantum_step(TKS_METHOD_CR0, &q, NULL), E_(TKS_EUNAVAIL));
}

/* The kernel module as a source of samples, where it is not loaded: the errors that tell a user
 * so, before anything is allocated. (The module itself is tested in a VM: tests/kmod.) */
static void test_kernel_source(void)
{
    tks_sample_plan p;
    tks_sample_run run;
    tks_kernel_info info;
    char path[] = "/tmp/tks_not_a_device.XXXXXX";
    int fd = mkstemp(path);

    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    tks_sample_plan_init(&p, TKS_METHOD_CR0); /* ring 0: the module, not this CPU, decides */
    p.ensembles = 2;
    p.samples = 10;
    p.where = TKS_WHERE_KERNEL_IRQ_OFF;
    p.kernel_device = "/nonexistent/tickscope";
    run.ticks = (uint64_t *)&p;
    CHECK_EQ_U64(tks_sample_take(&p, &run), E_(TKS_ENODEV));
    CHECK(run.ticks == NULL);
    CHECK_EQ_U64(tks_kernel_probe("/nonexistent/tickscope", &info), E_(TKS_ENODEV));
    CHECK(!tks_method_available_where(TKS_METHOD_CR0, TKS_WHERE_KERNEL_IRQ_OFF, "/nonexistent"));
    CHECK(!tks_method_available_where(TKS_METHOD_CR0, TKS_WHERE_USER, NULL));
#if defined(__x86_64__) || defined(__i386__)
    /* A file that is not the module answers its first request with ENOTTY (an emulator may
     * answer otherwise, hence x86 only). */
    p.kernel_device = path;
    CHECK_EQ_U64(tks_sample_take(&p, &run), E_(TKS_EPROTO));
    CHECK(run.ticks == NULL);
#endif
    unlink(path);
}

int main(void)
{
    const struct tks_cpu_features *f = tks_cpu_features_get();
    enum tks_method d = tks_method_default(f);
    struct cpu_truth truth;
    cpu_truth_get(&truth);
    /* The library's default is the one this CPU's features call for (a regression to an unfenced
     * default, or to none, fails here instead of skipping the measurements below). */
    CHECK_STR((unsigned)d < TKS_METHOD_COUNT ? tks_method_info(d)->name : "(none)", truth.default_method);
    if (truth.fenced_both && (unsigned)d < TKS_METHOD_COUNT && tks_method_available(d, f) &&
        (tks_method_info(d)->flags & TKS_MF_FENCED_BEGIN) && (tks_method_info(d)->flags & TKS_MF_FENCED_END))
        fenced = d;
    CHECK(fenced != TKS_METHOD_COUNT || !truth.fenced_both);

    test_plan_init();
    test_method_names();
    test_read_deltas();
    test_quantum();
    test_bad_plans();
    test_kernel_source();
    if (fenced != TKS_METHOD_COUNT) {
        test_take_structure();
        test_work_grows();
        test_budget();
        test_pinning();
    } else if (!truth.fenced_both) {
        CHECK_SKIP("hardware: the measurement checks need a method fenced at both ends; CPUID says "
                   "LFENCE is not dispatch-serialising here (the default is %s)", truth.default_method);
    }
    CHECK_DONE();
}
