/* SPDX-License-Identifier: MIT */
/* mem.c: the mem suite's latencies: a dependent pointer chase over a random cyclic permutation of
 * cache lines (lmbench's lat_mem_rd, with the order randomised so no prefetcher follows it), from
 * 4 KiB to four times the last-level cache, over small pages and over transparent huge pages; the
 * knees of that curve beside /sys's sizes; and a TLB miss. Bandwidth is in mem_bw.c. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/procfs.h"
#include "sys/sys_internal.h"
#include "sys/mem.h"

const char *const tks__sys_mem_ids[] = {
    "curve", "lat_l1", "lat_l2", "lat_l3", "lat_ram", "lat_ram_huge", "tlb_pages", "tlb_packed",
    "tlb_miss", "read_l1", "read_l2", "read_l3", "read_ram", "write_l1", "write_l2", "write_l3",
    "write_ram", "copy_l1", "copy_l2", "copy_l3", "copy_ram", NULL};

#define LINE 64u
#define CHASE_LOADS 1024u /* dependent loads per window */
#define HUGE_BYTES (2u << 20)

static void **chase_start;

static void bm_chase(tks_state *st)
{
    void **p = chase_start;
    TKS_MEASURE(st, {
        for (unsigned i = 0; i < CHASE_LOADS; i++)
            p = (void **)*p;
    });
    tks_do_not_optimize(p);
}

/* xorshift64*: the same permutation on every run, so two runs chase the same order. */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Link n slots (slot i at base + offset(i)) into one cycle in random order: Sattolo's algorithm
 * gives a single cycle through all of them, so the chase visits every slot before repeating. */
int tks__sys_link(char *base, size_t n, size_t stride, size_t spread)
{
    uint32_t *perm = malloc(n * sizeof *perm);
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    if (!perm)
        return TKS_ENOMEM;
    for (size_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(next_rand(&seed) % i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* spread > 0: one slot per `stride` bytes (a page), at a line that varies from slot to slot so
     * the slots fall in different cache sets */
#define SLOT(i) (base + (size_t)(i) * stride + (spread ? ((size_t)(i) % spread) * LINE : 0))
    for (size_t i = 0; i < n; i++)
        *(void **)SLOT(i) = SLOT(perm[i]);
#undef SLOT
    chase_start = (void **)base;
    free(perm);
    return 0;
}

static tks_sys_op *chase(struct tks__sys_run *run, const char *id, const char *what)
{
    return tks__sys_measure(run, id, what, bm_chase, TKS_MODE_LATENCY, CHASE_LOADS);
}

void *tks__sys_map(size_t bytes, int huge)
{
    size_t len = bytes + (huge ? HUGE_BYTES : 0);
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (huge) {
        /* aligned to a huge page, the rest unmapped, so the kernel can back it with 2 MiB pages */
        char *a = (char *)(((uintptr_t)p + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1));
        if (a > p)
            munmap(p, (size_t)(a - p));
        if ((size_t)(a - p) < HUGE_BYTES)
            munmap(a + bytes, HUGE_BYTES - (size_t)(a - p));
        p = a;
        madvise(p, bytes, MADV_HUGEPAGE);
    } else {
        madvise(p, bytes, MADV_NOHUGEPAGE);
    }
    memset(p, 1, bytes); /* faulted in now, never inside a window */
    return p;
}

/* kB of anonymous huge pages this process holds (smaps_rollup), -1 when unknown. */
static long huge_kb(const char *root)
{
    char text[4096];
    const char *s;
    if (tks__proc_read_text(root, "/proc/self/smaps_rollup", text, sizeof text) != 0 ||
        !(s = strstr(text, "AnonHugePages:")))
        return -1;
    return strtol(s + 14, NULL, 10);
}

/* MemAvailable in bytes (0: unknown). */
static size_t available(const char *root)
{
    char text[8192];
    const char *s;
    int rc = tks__proc_read_text(root, "/proc/meminfo", text, sizeof text);
    /* a long meminfo is cut short, but MemAvailable is on its third line */
    if ((rc != 0 && rc != TKS_ERANGE) || !(s = strstr(text, "MemAvailable:")))
        return 0;
    return (size_t)strtoull(s + 13, NULL, 10) << 10;
}

/* Working sets: 4 KiB to max, two points an octave (2^k and 1.5 x 2^k). */
static size_t sizes(size_t max, size_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t b = 4096; b <= max && n < cap; b *= 2) {
        out[n++] = b;
        if (b + b / 2 <= max && n < cap)
            out[n++] = b + b / 2;
    }
    return n;
}

/* A row copied from a measured one under another id and note (a sys.row.* code and its
 * values). */
static void level_row(struct tks__sys_run *run, const char *id, const tks_sys_op *src,
                      enum tks_diag_code note, const tks_diag_value *v, size_t n)
{
    tks_sys_op *op;
    if (!src || !src->ok || !tks__sys_wanted(run, id) || !(op = tks__sys_row(run, id, "")))
        return;
    *op = *src;
    op->diags = (tks_diags){0};
    tks__diags_append(&op->diags, &src->diags); /* src keeps its own */
    snprintf(op->id, sizeof op->id, "%s", id);
    tks__sys_note_add(op, note, v, n);
}

/* A curve point is not a row and prints no diagnostics of its own: a core-cycle figure at a
 * rate that moved (bench.rate_mixed) is said for the suite, with the point's working set. */
static void curve_rate(tks_sys_result *r, const tks_sys_op *op, size_t bytes)
{
    for (size_t k = 0; k < op->diags.n; k++)
        if (op->diags.items[k].code == TKS_DIAG_BENCH_RATE_MIXED)
            tks__diag(&r->diags, TKS_DIAG_SYS_CURVE_RATE_MIXED, TKS__DN(bytes >> 10),
                      TKS__DN(tks_diag_number(&op->diags.items[k], "implied")),
                      TKS__DN(tks_diag_number(&op->diags.items[k], "rate")));
}

/* Measure one chase as a row, keep a copy, and take the row back out: the curve is not rows. */
/* CHASE_CUT: not measured, the time budget is spent. */
#define CHASE_CUT 1
static int chase_point(struct tks__sys_run *run, const char *what, tks_sys_op *keep)
{
    tks_sys_op *op = chase(run, "chase", what);
    if (!op)
        return tks__sys_out_of_time(run) ? CHASE_CUT : TKS_ENOMEM;
    *keep = *op;
    run->r->n_ops--;
    return 0;
}

/* The warning of a level /sys reports that the curve does not show, with the figures around the
 * level the curve does show in its place (and over huge pages: a TLB's reach would not step
 * there). */
static void level_missing(const tks_sys_result *r, const size_t *ws, size_t c, size_t knee,
                          tks_diags *ds)
{
    size_t i = 0;
    if (!knee) {
        tks__diag(ds, TKS_DIAG_SYS_LEVEL_NO_KNEE, TKS__DN(r->caches[c].bytes >> 10));
        return;
    }
    while (i + 2 < r->n_curve && ws[i] != knee)
        i++;
    tks__diag(ds, TKS_DIAG_SYS_LEVEL_ELSEWHERE, TKS__DN(r->caches[c].bytes >> 10),
              TKS__DN(knee >> 10), TKS__DN(r->curve[i].cycles), TKS__DN(r->curve[i + 1].cycles),
              TKS__DN(ws[i + 1] >> 10), TKS__DN(r->curve[i].cycles_huge),
              TKS__DN(r->curve[i + 1].cycles_huge));
}

/* The curve, its knees, and the level rows taken from it. */
static int curve(struct tks__sys_run *run, char *buf, char *hbuf,
                 const struct tks__sys_mem_plan *pl)
{
    static const char *const ids[] = {"lat_l1", "lat_l2", "lat_l3"};
    tks_sys_result *r = run->r;
    size_t ws[TKS_SYS_CURVE_MAX], n = sizes(pl->max, ws, TKS_SYS_CURVE_MAX);
    size_t bytes[TKS_SYS_CURVE_MAX], last_huge = SIZE_MAX;
    double cyc[TKS_SYS_CURVE_MAX];
    tks_sys_op *small = calloc(n, sizeof *small), huge_op = {0}, *op;
    char what[96];
    int rc = 0, cut = 0;
    if (!small)
        return TKS_ENOMEM;
    run->total += n + (hbuf ? n : 0);
    for (size_t i = 0; i < n && rc == 0; i++) {
        tks_sys_curve_point *pt;
        if (tks__sys_out_of_time(run)) {
            rc = CHASE_CUT;
            break;
        }
        pt = &r->curve[r->n_curve++];
        pt->bytes = ws[i];
        pt->cycles = pt->ticks = pt->lo = pt->hi = pt->cycles_huge = NAN;
        snprintf(what, sizeof what, "load-to-use latency, %zu KiB working set", ws[i] >> 10);
        if ((rc = tks__sys_link(buf, ws[i] / LINE, LINE, 0)) != 0 ||
            (rc = chase_point(run, what, &small[i])) != 0) {
            r->n_curve -= rc == CHASE_CUT; /* this point was not measured */
            break;
        }
        if (small[i].ok) {
            pt->ticks = small[i].ticks.value;
            pt->lo = small[i].ticks.lo;
            pt->hi = small[i].ticks.hi;
            pt->cycles = small[i].cycles.value;
            curve_rate(r, &small[i], ws[i]);
        }
        /* huge pages change nothing below the first level's reach of small pages */
        if (hbuf && ws[i] >= HUGE_BYTES / 4) {
            snprintf(what, sizeof what, "load-to-use latency, %zu KiB, huge pages", ws[i] >> 10);
            tks_diags_free(&huge_op.diags);
            if ((rc = tks__sys_link(hbuf, ws[i] / LINE, LINE, 0)) != 0 ||
                (rc = chase_point(run, what, &huge_op)) != 0)
                break;
            if (huge_op.ok) {
                pt->cycles_huge = huge_op.cycles.value;
                last_huge = i;
            }
        } else if (hbuf) {
            tks__sys_progress(run);
        }
    }
    if ((cut = rc == CHASE_CUT)) { /* the rest of the curve is left out for time */
        tks__diag(&r->diags, TKS_DIAG_SYS_CURVE_CUT,
                  TKS__DN(r->n_curve ? ws[r->n_curve - 1] >> 10 : 0), TKS__DN(ws[n - 1] >> 10));
        rc = 0;
    }
    for (size_t i = 0; i < r->n_curve; i++) {
        bytes[i] = r->curve[i].bytes;
        /* ticks when there are no core cycles: the knees are ratios either way */
        cyc[i] = isnan(r->curve[i].cycles) ? r->curve[i].ticks : r->curve[i].cycles;
    }
    r->n_knees = tks_sys_knees(bytes, cyc, r->n_curve, 2.0, r->knees, TKS_SYS_LEVEL_MAX);
    /* Level rows: the point at or below half each level's size (well inside it), or half the
     * knee that ends the level on the curve when none is near the size /sys reports */
    for (size_t c = 0; c < r->n_caches && rc == 0; c++) {
        int lv = r->caches[c].level;
        size_t best = SIZE_MAX, reach = r->caches[c].bytes, knee = tks__sys_shown_level(r, c);
        if (knee)
            reach = knee;
        for (size_t i = 0; i < n; i++)
            if (ws[i] <= reach / 2)
                best = i;
        if (best == SIZE_MAX || lv < 1 || lv > 3)
            continue;
        if (best >= r->n_curve) { /* the curve was cut before it */
            if (tks__sys_wanted(run, ids[lv - 1]))
                tks__sys_left_out(run, ids[lv - 1]);
            continue;
        }
        level_row(run, ids[lv - 1], &small[best],
                  knee ? TKS_DIAG_SYS_ROW_LEVEL_CURVE : TKS_DIAG_SYS_ROW_LEVEL,
                  TKS__DIAG_ARGS(TKS__DN(ws[best] >> 10), TKS__DN(reach >> 10), TKS__DN(lv)), 3);
        if (!tks__sys_knee_near(r, r->caches[c].bytes) && (op = tks__sys_find(run, ids[lv - 1])))
            level_missing(r, ws, c, knee, &op->diags);
    }
    if (rc == 0 && r->n_curve < n) {
        if (tks__sys_wanted(run, "lat_ram"))
            tks__sys_left_out(run, "lat_ram");
        if (hbuf && tks__sys_wanted(run, "lat_ram_huge"))
            tks__sys_left_out(run, "lat_ram_huge");
    } else if (rc == 0 && r->n_curve) {
        level_row(run, "lat_ram", &small[r->n_curve - 1], TKS_DIAG_SYS_ROW_LAT_RAM,
                  TKS__DIAG_ARGS(TKS__DN(ws[r->n_curve - 1] >> 10)), 1);
        tks__sys_ram_note(tks__sys_find(run, "lat_ram"), pl);
        if (last_huge == r->n_curve - 1) {
            level_row(run, "lat_ram_huge", &huge_op, TKS_DIAG_SYS_ROW_LAT_RAM_HUGE,
                      TKS__DIAG_ARGS(TKS__DN(ws[last_huge] >> 10)), 1);
            tks__sys_ram_note(tks__sys_find(run, "lat_ram_huge"), pl);
        } else if (cut && hbuf && tks__sys_wanted(run, "lat_ram_huge")) {
            tks__sys_left_out(run, "lat_ram_huge"); /* its last point's huge pages */
        }
    }
    for (size_t i = 0; small && i < n; i++)
        tks_diags_free(&small[i].diags);
    tks_diags_free(&huge_op.diags);
    free(small);
    return rc;
}

/* A TLB miss: the same number of loads, once over lines packed into a few pages, once over one
 * line per page across many more pages than the TLBs hold; the lines fit in the caches either
 * way, so the difference is the page walk. */
static int tlb(struct tks__sys_run *run, char *buf, size_t max, size_t page)
{
    size_t pages = 8192;
    int rc;
    if (pages * page > max)
        pages = max / page;
    if (tks__sys_wanted(run, "tlb_pages")) {
        tks_sys_op *op;
        if ((rc = tks__sys_link(buf, pages, page, page / LINE)) != 0)
            return rc;
        op = chase(run, "tlb_pages", "load, one line per page (TLB miss)");
        if (op)
            tks__sys_note(op, TKS_DIAG_SYS_ROW_TLB_PAGES, TKS__DN(pages));
    }
    if (tks__sys_wanted(run, "tlb_packed")) {
        tks_sys_op *op;
        if ((rc = tks__sys_link(buf, pages, LINE, 0)) != 0)
            return rc;
        op = chase(run, "tlb_packed", "load, the same lines packed (TLB hit)");
        if (op)
            tks__sys_note(op, TKS_DIAG_SYS_ROW_TLB_PACKED, TKS__DN(pages),
                          TKS__DN(pages * LINE / page));
    }
    tks__sys_derive(run, "tlb_miss", "TLB miss (page walk)", "tlb_pages", "tlb_packed", 1, 1,
                    TKS_DIAG_SYS_ROW_TLB_MISS);
    return 0;
}

void tks__sys_ram_note(tks_sys_op *op, const struct tks__sys_mem_plan *pl)
{
    if (op && op->ok && pl->capped && !pl->beyond)
        tks__diag(&op->diags, TKS_DIAG_SYS_QUICK_WITHIN_CACHES, TKS__DN(pl->max >> 10),
                  TKS__DN(pl->llc >> 10));
}

int tks__sys_mem(struct tks__sys_run *run)
{
    tks_sys_result *r = run->r;
    struct tks__sys_mem_plan pl;
    size_t max, avail, page = 4096;
    char *buf, *hbuf = NULL;
    long before;
    int rc;
    r->n_caches = tks_sys_cache_levels(run->o->root, r->caches, TKS_SYS_LEVEL_MAX);
    if (!r->n_caches)
        tks__diag0(&r->diags, TKS_DIAG_SYS_NO_CACHE_SIZES);
    tks__sys_mem_plan(r->caches, r->n_caches, run->o->quick, run->o->mem_max_bytes, &pl);
    max = pl.max;
    if (pl.capped)
        tks__diag(&r->diags, TKS_DIAG_SYS_QUICK_CAPPED, TKS__DN(pl.max >> 20),
                  TKS__DN(pl.full >> 20));
    avail = available(run->o->root);
    /* the chase buffer, the huge-page one and the copy's two halves live at once */
    if (avail && 2 * max + max / 2 > avail) {
        tks__diag(&r->diags, TKS_DIAG_SYS_MEMORY_SHORT, TKS__DN(max >> 20),
                  TKS__DN((2 * max) >> 20), TKS__DN(avail >> 20));
        return TKS_ERANGE;
    }
    if (!(buf = tks__sys_map(max, 0)))
        return TKS_ENOMEM;
    if (run->o->huge_pages && tks__sys_wanted(run, "curve")) {
        before = huge_kb(NULL); /* this process, whatever root the /sys files come from */
        hbuf = tks__sys_map(max, 1);
        long got = huge_kb(NULL) - before;
        if (!hbuf) {
            tks__diag0(&r->diags, TKS_DIAG_SYS_HUGE_NO_MEMORY);
        } else if (before < 0 || got <= 0) {
            tks__diag0(&r->diags, TKS_DIAG_SYS_HUGE_REFUSED);
            munmap(hbuf, max);
            hbuf = NULL;
        } else {
            tks__diag(&r->diags, TKS_DIAG_SYS_HUGE_BACKED, TKS__DN(got >> 10), TKS__DN(max >> 20));
        }
    }
    if (tks__sys_wanted(run, "curve") || tks__sys_wanted(run, "lat_l1") ||
        tks__sys_wanted(run, "lat_l2") || tks__sys_wanted(run, "lat_l3") ||
        tks__sys_wanted(run, "lat_ram") || tks__sys_wanted(run, "lat_ram_huge"))
        rc = curve(run, buf, hbuf, &pl);
    else
        rc = 0;
    if (rc == 0)
        rc = tlb(run, buf, max, page);
    if (hbuf)
        munmap(hbuf, max);
    if (rc == 0)
        rc = tks__sys_mem_bw(run, buf, &pl);
    munmap(buf, max);
    return rc;
}
