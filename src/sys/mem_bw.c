/* SPDX-License-Identifier: MIT */
/* mem_bw.c: the mem suite's bandwidth (lmbench's bw_mem): read, write and copy over a buffer
 * half the size of each cache level, so it stays in that level, and over the largest working
 * set, which comes from memory. One pass per window; the row's figure is bytes per nanosecond. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sys/mem.h"

static struct {
    char *buf;
    size_t bytes;
} bw;

/* Four sums, so the adds are not one dependent chain; the compiler may vectorise them. */
static void bm_read(tks_state *st)
{
    const uint64_t *p = (const uint64_t *)bw.buf;
    size_t n = bw.bytes / sizeof *p;
    TKS_MEASURE(st, {
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (size_t i = 0; i + 4 <= n; i += 4) {
            s0 += p[i];
            s1 += p[i + 1];
            s2 += p[i + 2];
            s3 += p[i + 3];
        }
        tks_do_not_optimize(s0 + s1 + s2 + s3);
    });
}

static void bm_write(tks_state *st)
{
    char *p = bw.buf;
    size_t n = bw.bytes;
    TKS_MEASURE(st, {
        memset(p, 0x5a, n);
        tks_clobber_memory();
    });
}

/* The first half copied onto the second: bytes is what one pass copies (half the buffer). */
static void bm_copy(tks_state *st)
{
    char *p = bw.buf;
    size_t n = bw.bytes;
    TKS_MEASURE(st, {
        memcpy(p + n, p, n);
        tks_clobber_memory();
    });
}

int tks__sys_mem_bw(struct tks__sys_run *run, char *buf, const struct tks__sys_mem_plan *pl)
{
    static const char *const names[] = {"l1", "l2", "l3", "ram"};
    char id[32], what[96];
    tks_sys_op *op;
    bw.buf = buf;
    for (int l = 0; l < 4; l++) {
        size_t b = pl->bw[l];
        if (!b)
            continue;
        bw.bytes = b;
        /* a pass over memory takes milliseconds: more time, or too few windows */
        run->time_factor = l == 3 ? 4 : 0;
        snprintf(id, sizeof id, "read_%s", names[l]);
        snprintf(what, sizeof what, "read bandwidth, %zu KiB (%s)", b >> 10, names[l]);
        if (tks__sys_wanted(run, id) &&
            (op = tks__sys_measure(run, id, what, bm_read, TKS_MODE_LATENCY, 1)) != NULL) {
            op->bytes = (double)b;
            tks__sys_units(run, op, 0);
            tks__sys_note0(op, TKS_DIAG_SYS_ROW_READ_BW);
            if (l == 3)
                tks__sys_ram_note(op, pl);
        }
        snprintf(id, sizeof id, "write_%s", names[l]);
        snprintf(what, sizeof what, "write bandwidth, %zu KiB (%s)", b >> 10, names[l]);
        if (tks__sys_wanted(run, id) &&
            (op = tks__sys_measure(run, id, what, bm_write, TKS_MODE_LATENCY, 1)) != NULL) {
            op->bytes = (double)b;
            tks__sys_units(run, op, 0);
            tks__sys_note0(op, TKS_DIAG_SYS_ROW_WRITE_BW);
            if (l == 3)
                tks__sys_ram_note(op, pl);
        }
        bw.bytes = b / 2;
        snprintf(id, sizeof id, "copy_%s", names[l]);
        snprintf(what, sizeof what, "copy bandwidth, %zu KiB (%s)", b >> 11, names[l]);
        if (tks__sys_wanted(run, id) &&
            (op = tks__sys_measure(run, id, what, bm_copy, TKS_MODE_LATENCY, 1)) != NULL) {
            op->bytes = (double)(b / 2);
            tks__sys_units(run, op, 0);
            tks__sys_note0(op, TKS_DIAG_SYS_ROW_COPY_BW);
            if (l == 3)
                tks__sys_ram_note(op, pl);
        }
    }
    run->time_factor = 0;
    return 0;
}
