/* SPDX-License-Identifier: MIT */
/* explain_memory.c: whether a benchmark's block waits on memory. The runner cannot vary the
 * working set of a user's block, as `asm --explain --chase` does a snippet's; it can see it. A
 * touch run (runner.h) counts the anonymous pages the process referenced while the block ran
 * alone (base/proc_refs.h), less what an empty block's run references (the runner's, the
 * stack; the fewer of two runs each): the block's working set, to a page. Pointer chases over
 * random cycles then say what one dependent load costs inside the first cache level (8 KiB), in
 * each cache level smaller than the working set (over half of it, as `asm --explain` does; where
 * /sys declares no levels, over 32 KiB and every fourfold size up to the working set) and over
 * the working set itself: the cost across working sets, and where it steps up most.
 * Where a load over the working set costs ten times one inside L1 (on the CPUs we know, an L2 hit
 * costs 3-4 times an L1 hit and an L3 hit 10-15 times: Agner Fog's microarchitecture manual;
 * here, on a Zen 5 guest: 4, 14, about 50 and from 700 to over 10,000 cycles), its data comes
 * from beyond the core's own caches, and a block that costs at least a quarter of such a load a
 * repetition, while no added work competed, is memory-bound. (A quarter, not all of it: a load's
 * cost out there moves by several times with how warm the page walks are, a guest's nested ones
 * above all: on the Zen 5 guest a chase over 64 MiB read 4.6 us a load over its first 5,000 steps
 * and 0.21 us over 200,000, and the block's runs and the ring's need not be equally warm.) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "asm/explain_exp.h"
#include "base/bytes_text.h"
#include "runner/explain_run.h"
#include "runner/runner.h"

#define INSIDE_L1 ((uint64_t)8 << 10)    /* the scale: inside any x86 core's L1 (32 KiB or more) */
#define ABOVE_L1 ((uint64_t)64 << 10)    /* no load is measured over a working set this small */
#define RING_FLOOR ((uint64_t)256 << 20) /* the largest ring built at least (see ring_max) */
#define TOUCH_RUNS 2
#define LADDER_MAX 7 /* the rings between 8 KiB and the working set's */

static const tks_benchmark_spec chase_spec = {"explain: a dependent load", tks__explain_chase_body,
                                              NULL, 0, 1};

/* Once a process: the pages an empty block's touch run references (UINT64_MAX: not yet), and a
 * load inside L1. */
static uint64_t g_empty_bytes = UINT64_MAX;
static tks_asm_interval g_inside = {NAN, NAN, NAN};

/* The pages referenced while spec's block ran: the fewer of TOUCH_RUNS runs. A run never counts
 * fewer pages than the block touches, and may count more that it does not need (while files'
 * pages were counted, now and then hundreds more, for a block of a few registers as for an empty
 * one); the fewer of two keeps such a run out of the working set. */
static int touch(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *spec,
                 const tks_args *args, uint64_t *bytes, char *why, size_t whylen)
{
    *bytes = UINT64_MAX;
    for (int i = 0; i < TOUCH_RUNS; i++) {
        tks__touched t = {0, 0, ""};
        tks_result res;
        int rc = tks__run_benchmark_perturbed(o, p, spec, args, 0, 0, &t, &res);
        if (rc)
            snprintf(why, whylen, "%.150s", res.error);
        tks_result_free(&res);
        if (rc)
            return rc;
        if (t.bytes < *bytes)
            *bytes = t.bytes;
    }
    return 0;
}

/* One dependent load over a random cycle of bytes, as a row. */
static void load_row(const tks_options *o, const tks_platform *p, uint64_t bytes,
                     const char *why_added, tks_explain_result *r)
{
    tks_explain_experiment *e;
    tks_args a = {.n = 1};
    char name[64], size[32];
    tks__fmt_bytes(size, sizeof size, bytes);
    snprintf(name, sizeof name, "a dependent load over %s", size);
    if (!(e = tks__explain_add(r, TKS_EXPLAIN_TOUCHED, name, why_added)))
        return;
    e->working_set = bytes;
    if (bytes == INSIDE_L1 && isfinite(g_inside.value)) {
        e->cycles = g_inside;
        return;
    }
    a.v[0] = (long long)bytes;
    e->rc = tks__explain_measure(o, p, &chase_spec, &a, 0, 0, &e->cycles, &e->core_shared,
                                 e->error, sizeof e->error);
    if (bytes == INSIDE_L1 && !e->rc)
        g_inside = e->cycles;
}

/* The rings between 8 KiB and the working set's ring, ascending: half of each level between
 * (no levels: 32 KiB and every fourfold size below ring). */
static size_t ladder(uint64_t ring, const uint64_t *levels, size_t nl, uint64_t *out,
                     size_t max)
{
    size_t n = 0;
    if (nl) {
        for (size_t i = 0; i < nl && n < max; i++)
            if (levels[i] / 2 > INSIDE_L1 && levels[i] / 2 < ring)
                out[n++] = levels[i] / 2;
        return n;
    }
    for (uint64_t b = (uint64_t)32 << 10; b < ring && n < max; b *= 4)
        out[n++] = b;
    return n;
}

/* The largest ring built: twice the largest cache level the machine declares, so that its loads
 * come from beyond every cache, and at least RING_FLOOR (no level declared, or smaller ones: an
 * Emerald Rapids guest declares a 300 MiB L3, a Zen 4 one 32 MiB). */
static uint64_t ring_max(const uint64_t *levels, size_t nl)
{
    uint64_t m = RING_FLOOR;
    for (size_t i = 0; i < nl; i++)
        m = levels[i] <= UINT64_MAX / 2 && 2 * levels[i] > m ? 2 * levels[i] : m;
    return m;
}

/* Whether loads can change r's class: none was found (undetermined, or latency: every addition
 * absorbed), or the working set lies beyond every declared cache level (beyond), where a
 * load's cost outweighs what the additions said (tks__explain_memory_verdict). */
static int may_change(const tks_explain_result *r, int beyond)
{
    return beyond || r->cls == TKS_EXPLAIN_UNDETERMINED || r->cls == TKS_EXPLAIN_LATENCY;
}

/* The largest of levels[0..nl) smaller than ws: its number (1: L1) and size (0: none). */
static void exceeded(uint64_t ws, const uint64_t *levels, size_t nl, tks_explain_result *r)
{
    for (size_t i = 0; i < nl; i++)
        if (levels[i] < ws) {
            r->level = (int)i + 1;
            r->level_bytes = levels[i];
        }
}

void tks__explain_memory(const tks_options *o, const tks_platform *p,
                         const tks_benchmark_spec *spec, const tks_args *args,
                         const uint64_t *levels, size_t nl, tks_explain_result *r)
{
    uint64_t rings[LADDER_MAX], ring, cap;
    size_t n;
    tks_explain_experiment *e;
    uint64_t block = 0, ws;
    char size[32], added[160], why[160] = "";
    int rc = 0, beyond;
    if (g_empty_bytes == UINT64_MAX &&
        touch(o, p, &tks__explain_alone_spec, NULL, &g_empty_bytes, why, sizeof why) != 0) {
        g_empty_bytes = UINT64_MAX;
        rc = TKS_EUNAVAIL;
    }
    if (!rc)
        rc = touch(o, p, spec, args, &block, why, sizeof why);
    ws = block > g_empty_bytes ? block - g_empty_bytes : 0;
    tks__fmt_bytes(size, sizeof size, ws);
    snprintf(added, sizeof added, "none: the pages the block referenced as it ran, less an "
             "empty block's (the fewer of two runs each): %s", rc ? "not read" : size);
    if (!(e = tks__explain_add(r, TKS_EXPLAIN_TOUCHED, "the block's working set", added)))
        return;
    e->working_set = ws;
    e->cycles = (tks_asm_interval){NAN, NAN, NAN};
    if (rc) {
        e->rc = rc;
        snprintf(e->error, sizeof e->error, "%.159s", why);
        return;
    }
    beyond = 0; /* over every level declared (none declared: not known) */
    for (size_t i = 0; i < nl; i++)
        beyond = ws > levels[i] && (i == 0 || beyond);
    if (ws <= ABOVE_L1 || !may_change(r, beyond))
        return; /* inside L1, or a bottleneck found: no load can change the class */
    cap = ring_max(levels, nl);
    ring = ws > cap ? cap : ws & ~(uint64_t)63;
    n = ladder(ring, levels, nl, rings, LADDER_MAX);
    load_row(o, p, INSIDE_L1, "none: a chase inside the first cache level, for scale", r);
    for (size_t i = 0; i < n; i++)
        load_row(o, p, rings[i], nl ? "none: a chase over half of a cache level smaller than "
                 "the working set" : "none: a chase over a smaller ring (no cache levels "
                 "declared)", r);
    snprintf(added, sizeof added, "none: a chase over a random cycle of the working set's size%s%s%s",
             ws > cap ? " (at most " : "", ws > cap ? tks__fmt_bytes(size, sizeof size, cap) : "",
             ws > cap ? ")" : "");
    load_row(o, p, ring, added, r);
    exceeded(ws, levels, nl, r);
    tks__explain_memory_verdict(r, beyond);
}

uint64_t tks__explain_touched_rows(const tks_explain_result *r,
                                   const tks_explain_experiment **big,
                                   const tks_explain_experiment **small)
{
    uint64_t ws = 0;
    *big = *small = NULL;
    for (size_t i = 1; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        if (e->kind != TKS_EXPLAIN_TOUCHED || e->rc)
            continue;
        if (!(e->cycles.value > 0)) {
            ws = e->working_set; /* the working set's own row has no load */
            continue;
        }
        if (!*big || e->working_set > (*big)->working_set)
            *big = e;
        if (!*small || e->working_set < (*small)->working_set)
            *small = e;
    }
    return ws;
}

int tks__explain_memory_verdict(tks_explain_result *r, int beyond)
{
    const tks_explain_experiment *big, *small, *prev = NULL;
    double steepest = 1.0;
    if (!r->n || r->exp[0].rc || !may_change(r, beyond))
        return 0;
    tks__explain_touched_rows(r, &big, &small);
    if (!big || big == small || big->cycles.value < TKS_EXPLAIN_BEYOND * small->cycles.value ||
        r->exp[0].cycles.value < TKS_EXPLAIN_SHARE * big->cycles.value)
        return 0;
    r->cls = TKS_EXPLAIN_MEMORY;
    r->port_kinds[0] = 0;
    /* the knee: the steepest step between two loads (ascending rings) */
    for (size_t i = 1; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        if (e->kind != TKS_EXPLAIN_TOUCHED || e->rc || !(e->cycles.value > 0))
            continue;
        if (prev && e->cycles.value > steepest * prev->cycles.value) {
            steepest = e->cycles.value / prev->cycles.value;
            r->knee_lo = prev->working_set;
            r->knee_hi = e->working_set;
        }
        prev = e;
    }
    return 1;
}
