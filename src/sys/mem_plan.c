/* SPDX-License-Identifier: MIT */
/* mem_plan.c: the mem suite's largest working set, planned from the cache levels /sys declares
 * (the curve's last point, lat_ram and the *_ram bandwidth rows). Pure: the levels come in as
 * parameters, so a test plans for a 300 MiB L3 this machine does not have. */
#include "sys/mem.h"

/* A full run goes to four times the last level (32 MiB assumed when /sys declares none). */
#define FULL_TIMES 4u
#define NO_LEVELS_LLC ((size_t)32 << 20)
/* --quick goes no further than this. What grows with the largest set is not the sampling (a
 * chase window is 1,024 loads whatever the set) but the work around it: both buffers touched,
 * each curve point linked in random order (a cache and TLB miss a line), and each bandwidth row's
 * minimum of 64 windows, a pass of its set each. Measured on a 2-vCPU Zen 4 KVM guest (32 MiB
 * L3, load average 3 to 5): the mem suite of `sys --quick` took 10 s to 128 MiB (4x its L3), 17 s
 * to 256 MiB (--max-set 256M) and 67 s to 1 GiB (a declared 300 MiB L3). 128 MiB is past the L3
 * a core sees on the CPUs this project runs on (32 MiB, 96 MiB a Zen 4 CCD with 3D V-Cache);
 * a larger declared level is said (sys.quick_within_caches), not chased. */
#define QUICK_MAX ((size_t)128 << 20)

void tks__sys_mem_plan(const tks_sys_cache_level *c, size_t n, int quick, size_t max_set,
                       struct tks__sys_mem_plan *out)
{
    out->llc = n ? c[n - 1].bytes : 0;
    out->full = FULL_TIMES * (out->llc ? out->llc : NO_LEVELS_LLC);
    out->max = max_set ? max_set : out->full;
    out->capped = !max_set && quick && out->max > QUICK_MAX;
    if (out->capped)
        out->max = QUICK_MAX;
    out->beyond = !out->llc || out->max > out->llc;
    /* bandwidth over half of each level (so it stays there), within the buffer; then max */
    for (int l = 0; l < 4; l++)
        out->bw[l] = l == 3 ? out->max : 0;
    for (size_t i = 0; i < n; i++)
        if (c[i].level >= 1 && c[i].level <= 3)
            out->bw[c[i].level - 1] = c[i].bytes / 2 < out->max ? c[i].bytes / 2 : out->max;
}
