/* SPDX-License-Identifier: MIT */
/* x86/pmc.c: the hardware cycle counter read from user space with RDPMC, under the seqlock of
 * the perf_event page, when the kernel allows it. */
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "arch/arch.h"

static inline uint64_t rdpmc(uint32_t counter)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return ((uint64_t)hi << 32) | lo;
}

/* The self-monitoring sequence of linux/perf_event.h: the kernel may move the event to another
 * hardware counter or fold its value into offset at any time, so read under its seqlock. */
static uint64_t counter_rdpmc(volatile struct perf_event_mmap_page *pc)
{
    uint32_t seq, idx;
    uint64_t count;
    do {
        seq = pc->lock;
        __asm__ __volatile__("" ::: "memory");
        idx = pc->index;
        count = (uint64_t)pc->offset;
        if (pc->cap_user_rdpmc && idx && pc->pmc_width > 0 && pc->pmc_width <= 64) {
            unsigned width = pc->pmc_width;
            int64_t pmc = (int64_t)(rdpmc(idx - 1) << (64 - width));
            count += (uint64_t)(pmc >> (64 - width)); /* sign-extend from pmc_width bits */
        }
        __asm__ __volatile__("" ::: "memory");
    } while (pc->lock != seq);
    return count;
}

tks__counter_read_fn *tks__arch_counter_open(int fd, volatile struct perf_event_mmap_page **page,
                                             size_t *page_size, const char **why)
{
    void *p;
    *page = NULL;
    *page_size = (size_t)sysconf(_SC_PAGESIZE);
    p = mmap(NULL, *page_size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        *why = "mmap of the counter page failed";
        return NULL;
    }
    *page = p;
    if (!(*page)->cap_user_rdpmc) {
        *why = "rdpmc not permitted (cap_user_rdpmc = 0; see /sys/bus/event_source/devices/cpu/rdpmc)";
        return NULL;
    }
    if ((*page)->index == 0) {
        *why = "the counter is not on a hardware register (index 0)";
        return NULL;
    }
    *why = NULL;
    return counter_rdpmc;
}
