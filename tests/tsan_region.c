/* SPDX-License-Identifier: MIT */
/* tsan_region.c: reports taken while threads run regions, built with the library under
 * ThreadSanitizer (tests/CMakeLists.txt: test_region_tsan). TSan fails the run on any data race
 * (TSAN_OPTIONS=halt_on_error=1); the program checks what every report it takes mid-run must
 * hold: passes never go down and never pass the total, the moments are finite, and at the end
 * every pass is there. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "tickscope/region.h"

#define THREADS 3
#define PASSES 200000

static __thread volatile unsigned sink; /* per thread: the work must not race itself */
static int started;

static void *worker(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < PASSES; i++) {
        TKS_REGION_BEGIN("busy");
        sink += i;
        TKS_REGION_END("busy");
    }
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    tks_region_stats s;
    unsigned long long last = 0;
    unsigned reports = 0;

    tks_region_set_output("none", -1);
    tks_region_set_reservoir("busy", 512);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, worker, NULL) == 0);
    while (__atomic_load_n(&started, __ATOMIC_RELAXED) < THREADS)
        ;
    /* Reports while the threads run: the runtime reads what their hot paths write. */
    for (;;) {
        if (tks_region_stats_get("busy", &s) == 0) {
            CHECK(s.passes >= last && s.passes <= (unsigned long long)THREADS * PASSES);
            CHECK(s.passes == 0 || (isfinite(s.mean) && s.variance >= 0 && s.raw_min <= s.raw_max));
            last = s.passes;
        }
        CHECK(tks_region_report("/dev/null", TKS_REGION_JSON) == 0);
        reports++;
        if (last == (unsigned long long)THREADS * PASSES || reports > 100000)
            break;
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK(tks_region_stats_get("busy", &s) == 0);
    CHECK_EQ_U64(s.passes, (unsigned long long)THREADS * PASSES);
    CHECK_EQ_U64(s.threads, THREADS);
    printf("%u reports taken while %d threads ran %d passes each\n", reports, THREADS, PASSES);
    CHECK(reports >= 2);
    CHECK_DONE();
}
