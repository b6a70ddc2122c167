/* SPDX-License-Identifier: MIT */
/* test_region_events.c: regions reading event counters (TICKSCOPE_REGION_COUNTERS): a region
 * that faults in 8 fresh pages a pass reads 8 page faults per pass (within 1%), on each of two
 * threads and merged; a name nobody knows is not counted and the report's diagnostic says why;
 * the JSON and CSV reports carry the figures; a region around nothing faults nothing. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "cpu_truth.h"
#include "file_util.h"
#include "tickscope.h"
#include "tickscope/region.h"

#define PASSES 200
#define PAGES 8

static void *faulting(void *unused)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    (void)unused;
    for (int i = 0; i < PASSES; i++) {
        char *p = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        TKS_REGION_BEGIN("pages");
        for (size_t k = 0; k < PAGES; k++)
            ((volatile char *)p)[k * page] = 1;
        TKS_REGION_END("pages");
        munmap(p, PAGES * page);
        TKS_REGION_BEGIN("nothing");
        TKS_REGION_END("nothing");
    }
    return NULL;
}

int main(void)
{
    tks_region_stats st;
    pthread_t t;
    char dir[] = "/tmp/tks_region_events_XXXXXX", path[256], text[1 << 16];
    setenv("TICKSCOPE_REGION_COUNTERS", "page-faults,no-such-event,minor-faults", 1);
    setenv("TICKSCOPE_REGION_OUT", "none", 1);
    CHECK(mkdtemp(dir) != NULL);
    faulting(NULL);
    CHECK(pthread_create(&t, NULL, faulting, NULL) == 0);
    pthread_join(t, NULL);

    CHECK(tks_region_stats_get("pages", &st) == 0);
    CHECK_EQ_U64(st.passes, 2 * PASSES);
    CHECK_EQ_U64(st.n_events, 3);
    if (!isfinite(st.events[0])) {
        /* perf_event_open refused even software events: it does not exist (QEMU user mode, no
         * package brings it: hardware), or a policy refuses it (a container's seccomp). Asked of
         * the kernel directly (cpu_truth.h); where it counts them, so must the regions. */
        const char *machine = cpu_truth_perf_software();
        CHECK(strcmp(machine, "ok") != 0);
        if (strcmp(machine, "ENOSYS") == 0)
            CHECK_SKIP("hardware: perf_event_open does not exist here (ENOSYS): no event counts");
        else
            CHECK_SKIP("software events cannot be counted here (%s): see the report's diagnostic", machine);
        CHECK_DONE();
    }
    CHECK_NEAR(st.events[0], PAGES, 0.01 * PAGES);
    CHECK_NEAR(st.events[2], PAGES, 0.01 * PAGES);
    CHECK(st.events_lo[0] <= st.events[0] && st.events[0] <= st.events_hi[0]);
    CHECK(isnan(st.events[1])); /* the unknown name */
    CHECK(tks_region_stats_get("nothing", &st) == 0);
    CHECK_NEAR(st.events[0], 0, 0.01);

    snprintf(path, sizeof path, "%s/r.json", dir);
    CHECK(tks_region_report(path, TKS_REGION_JSON) == 0);
    slurp(path, text, sizeof text);
    CHECK(strstr(text, "\"events\": [") && strstr(text, "\"per_pass\": "));
    CHECK(strstr(text, "\"code\": \"events.unknown\""));
    snprintf(path, sizeof path, "%s/r.txt", dir);
    CHECK(tks_region_report(path, TKS_REGION_TEXT) == 0);
    slurp(path, text, sizeof text);
    CHECK(strstr(text, "pages: events per pass [95%]: page-faults ") &&
          strstr(text, "no-such-event not counted"));
    CHECK(strstr(text, "no-such-event: unknown event name"));
    snprintf(path, sizeof path, "%s/r.csv", dir);
    CHECK(tks_region_report(path, TKS_REGION_CSV) == 0);
    slurp(path, text, sizeof text);
    CHECK(strstr(text, ",thread,page-faults,page-faults_lo,page-faults_hi,no-such-event,"));
    CHECK(count_entries(dir) == 3); /* the three reports, whole: no temporary left */
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    CHECK(system(path) == 0);
    CHECK_DONE();
}
