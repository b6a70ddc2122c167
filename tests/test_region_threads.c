/* SPDX-License-Identifier: MIT */
/* test_region_threads.c: what the regions say about threads and CPUs, on real runs, counts only:
 * a pass that ends on another CPU than the pass before is counted as moved (TSC_AUX), exactly
 * once per move when the thread is pinned from CPU to CPU; and the report's per-thread rows
 * (tks_region_set_per_thread) sum to the merged row. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cpu_truth.h"
#include "tickscope.h"
#include "tickscope/region.h"

static volatile unsigned sink;

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

static void passes(const char *name, int n)
{
    (void)name;
    for (int i = 0; i < n; i++) {
        TKS_REGION_BEGIN("hop");
        sink += (unsigned)i;
        TKS_REGION_END("hop");
    }
}

/* Pinned to CPU a, then b, then a: two moves, whatever else the scheduler does (it cannot move a
 * pinned thread). Only where the CPU's default method reads TSC_AUX (RDTSCP: "lfence", or
 * "rdtscp" where LFENCE does not serialise; CPUID's word, cpu_truth.h, not the library's) is there
 * a CPU to compare: elsewhere (lfence_rdtsc, cpuid, arm64's isb) no move is counted. */
static void test_moved(void)
{
    tks_region_stats s;
    cpu_set_t orig;
    struct cpu_truth truth;
    int a = -1, b = -1, aux;
    cpu_truth_get(&truth);
    aux = strcmp(truth.default_method, "lfence") == 0 || strcmp(truth.default_method, "rdtscp") == 0;
    CHECK(sched_getaffinity(0, sizeof orig, &orig) == 0);
    for (int c = 0; c < CPU_SETSIZE && b < 0; c++)
        if (CPU_ISSET(c, &orig))
            *(a < 0 ? &a : &b) = c;
    if (b < 0) {
        if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
            CHECK_SKIP("hardware: one CPU online: no move to count");
        else
            CHECK_SKIP("the moves: this process may run on one CPU only (its affinity mask)");
        return;
    }
    CHECK(pin(a) == 0);
    passes("hop", 10);
    CHECK(pin(b) == 0);
    passes("hop", 10);
    CHECK(pin(a) == 0);
    passes("hop", 10);
    sched_setaffinity(0, sizeof orig, &orig);
    CHECK(tks_region_stats_get("hop", &s) == 0);
    CHECK_EQ_U64(s.passes, 30);
    CHECK_EQ_U64(s.moved, aux ? 2 : 0);
}

#define THREADS 3

static pthread_barrier_t all_alive;

/* The barrier keeps the three alive together: a thread that has ended hands its slots to the
 * next new thread, and then the two share a row. */
static void *worker(void *arg)
{
    int n = *(const int *)arg;
    pthread_barrier_wait(&all_alive);
    for (int i = 0; i < n; i++) {
        TKS_REGION_BEGIN("per thread");
        sink += (unsigned)i;
        TKS_REGION_END("per thread");
    }
    pthread_barrier_wait(&all_alive);
    return NULL;
}

/* One row per thread beside the merged one, in the CSV: 100, 200 and 300 passes, summing to the
 * merged 600. */
static void test_per_thread(void)
{
    pthread_t t[THREADS];
    int n[THREADS] = {100, 200, 300};
    char path[] = "/tmp/tks_region_pt_XXXXXX";
    char line[2048];
    unsigned long long rows = 0, sum = 0, merged = 0;
    int fd = mkstemp(path);
    FILE *f;

    CHECK(fd >= 0);
    close(fd);
    CHECK(pthread_barrier_init(&all_alive, NULL, THREADS) == 0);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, worker, &n[i]) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&all_alive);
    CHECK(tks_region_set_per_thread(2) == TKS_EINVAL);
    CHECK(tks_region_set_per_thread(1) == 0);
    CHECK(tks_region_report(path, TKS_REGION_CSV) == 0);
    f = fopen(path, "r");
    CHECK(f != NULL);
    while (f && fgets(line, sizeof line, f)) {
        /* region,method,passes,...,thread (the last column: "all" or the thread's number) */
        char *c = strchr(line, ','), *last = strrchr(line, ',');
        unsigned long long p;
        if (strncmp(line, "per thread,", 11) != 0 || !c || !(c = strchr(c + 1, ',')) || !last)
            continue;
        p = strtoull(c + 1, NULL, 10);
        if (strncmp(last, ",all", 4) == 0) {
            merged = p;
        } else {
            rows++;
            sum += p;
        }
    }
    if (f)
        fclose(f);
    CHECK_EQ_U64(rows, THREADS);
    CHECK_EQ_U64(sum, 600);
    CHECK_EQ_U64(merged, 600);
    CHECK(tks_region_set_per_thread(0) == 0);
    unlink(path);
}

int main(void)
{
    tks_region_set_output("none", -1);
    test_moved();
    test_per_thread();
    CHECK_DONE();
}
