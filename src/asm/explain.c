/* SPDX-License-Identifier: MIT */
/* explain.c: tks_explain_run: what limits a snippet. The snippet runs as given (the base), then
 * perturbed, each copy gaining:
 *   - 3 cycles of latency on every register it carries from copy to copy (imul r, r, 1; three
 *     vpor v, v, v): a chain-bound snippet slows by 3 cycles, others absorb it;
 *   - independent work of each blocking kind (ports.c's blockers, writing a register the snippet
 *     does not name), sized to take half the base's time alone: a snippet bound by that kind's
 *     ports slows by what the work costs alone, others absorb it;
 *   - eight 8-byte NOPs, which no execution port runs: a snippet bound by the front end (fetch,
 *     decode, dispatch) slows by what they cost alone;
 *   - for a pointer chase (--chase), the same chase over half of each cache level: a
 *     memory-bound snippet costs far more at its own working set than inside the caches.
 * Each perturbation's ratio, its cost over its cost alone, is 1 when it competes for the
 * bottleneck and 0 when absorbed; tks_explain_classify reads them in the order memory, front
 * end, chain, ports. */
#include "tickscope/asm_explain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"
#include "asm/asm_regs.h"
#include "asm/explain_exp.h"
#include "base/bytes_text.h"
#include "base/now.h"
#include "tickscope/asm_ports.h"

#define CHAIN_CYCLES 3.0 /* latency added to each carried register: imul 3, three adds, vpor or
                          * vpshufd 1 each */
#define NOPS 8
#define NOP_TEXT "nop DWORD PTR [rax+rax*1+0x12345678]" /* 8 bytes: 0f 1f 84 00 imm32 */
#define PILOT_COPIES 8

static int run_one(const tks_asm_options *base, const char *code, uint64_t chase,
                   enum tks_asm_mode mode, tks_explain_experiment *e, size_t *bytes)
{
    tks_asm_options o = *base;
    tks_asm_result *res = calloc(1, sizeof *res);
    int rc;
    if (!res)
        return TKS_ENOMEM;
    o.code = code;
    o.mode = mode;
    o.chase_bytes = chase;
    e->cycles = (tks_asm_interval){NAN, NAN, NAN};
    /* a run that other load disturbed (an interval wider than 10%) is taken again, twice at
     * most, and the narrowest kept: the ratios compare two runs' intervals */
    for (int attempt = 0; attempt < 3; attempt++) {
        tks_diags_free(&res->diags);
        memset(&res->diags, 0, sizeof res->diags);
        rc = tks_asm_run(&o, res);
        if (rc == 0 && !isfinite(res->core_cycles.value)) {
            rc = TKS_EUNAVAIL;
            snprintf(res->error, sizeof res->error, "no core-cycle reference could be measured");
        }
        if (rc)
            break;
        if (tks_diags_has(&res->diags, TKS_DIAG_CORE_ADD_CHAIN_SLOW))
            e->core_shared = 1;
        if (!isfinite(e->cycles.value) ||
            res->core_cycles.hi - res->core_cycles.lo < e->cycles.hi - e->cycles.lo)
            e->cycles = res->core_cycles;
        if (e->cycles.hi - e->cycles.lo <= 0.1 * e->cycles.value)
            break;
    }
    e->rc = rc;
    if (rc)
        e->cycles = (tks_asm_interval){NAN, NAN, NAN};
    if (rc)
        snprintf(e->error, sizeof e->error, "%.159s", res->error);
    if (bytes)
        *bytes = res->code_bytes;
    tks_asm_result_free(res);
    free(res);
    return rc == TKS_ENOMEM ? rc : 0;
}

tks_explain_experiment *tks__explain_add(tks_explain_result *r, enum tks_explain_kind k,
                                         const char *name, const char *added)
{
    tks_explain_experiment *e;
    if (r->n == TKS_EXPLAIN_MAX)
        return NULL;
    e = &r->exp[r->n++];
    memset(e, 0, sizeof *e);
    e->kind = k;
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->added, sizeof e->added, "%s", added);
    e->alone = e->ratio = NAN;
    e->delta = (tks_asm_interval){NAN, NAN, NAN};
    return e;
}

static void set_delta(const tks_explain_experiment *base, tks_explain_experiment *e)
{
    if (e->rc || base->rc)
        return;
    e->delta.value = e->cycles.value - base->cycles.value;
    e->delta.lo = e->cycles.lo - base->cycles.hi;
    e->delta.hi = e->cycles.hi - base->cycles.lo;
    if (isfinite(e->alone) && e->alone > 0)
        e->ratio = e->delta.value / e->alone;
}

/* text + "\n" + k copies of line: malloc'd. */
static char *with_added(const char *text, const char *line, int k)
{
    size_t n = strlen(text) + (size_t)k * (strlen(line) + 1) + 2;
    char *s = malloc(n), *p;
    if (!s)
        return NULL;
    p = s + snprintf(s, n, "%s", text);
    for (int i = 0; i < k; i++)
        p += snprintf(p, n - (size_t)(p - s), "\n%s", line);
    return s;
}

/* The snippet with its latency-mode placeholders filled (the --chain register). */
static char *concrete(const tks_asm_options *o)
{
    const char *gpr = "rax";
    int vec = 0;
    if (o->chain && (o->chain[0] == 'x' || o->chain[0] == 'y') && o->chain[1] == 'm')
        vec = atoi(o->chain + 3);
    else if (o->chain)
        gpr = o->chain;
    return tks__asm_expand(o->code, o->syntax, gpr, vec);
}

/* The chain experiments: 3 cycles more on every carried register, in two ways on different
 * units, so that a snippet bound by one unit's throughput is not taken for a chain because the
 * lengthening ran on that unit (six independent imul, one multiplier: the imul lengthening
 * cost 6 cycles a copy, ratio 2, the adds none). 0: imul r, r, 1 or three vpor v, v, v; 1: three
 * add r, 0 or three vpshufd v, v, 0xe4 (the identity shuffle). A chain pays both
 * (tks__explain_classify_with). */
static void lengthen(const char *c, int way, char *added, size_t size, size_t *len)
{
    int vec = c[1] == 'm' && c[2] == 'm';
    for (int k = 0; k < (vec || way ? 3 : 1); k++) {
        const char *sep = *len ? "\n" : "";
        if (vec && way)
            *len += (size_t)snprintf(added + *len, size - *len, "%svpshufd %s, %s, 0xe4", sep, c, c);
        else if (vec)
            *len += (size_t)snprintf(added + *len, size - *len, "%s%s %s, %s, %s", sep,
                                     c[0] == 'z' ? "vpord" : "vpor", c, c, c);
        else if (way)
            *len += (size_t)snprintf(added + *len, size - *len, "%sadd %s, 0", sep, c);
        else
            *len += (size_t)snprintf(added + *len, size - *len, "%simul %s, %s, 1", sep, c, c);
    }
}

static int chain_exp(const tks_asm_options *o, const char *text, enum tks_asm_mode mode, int way,
                     tks_explain_result *r)
{
    char carried[16][8], added[1024] = "", *code;
    size_t n = tks_explain_carried(text, carried, 16), len = 0;
    tks_explain_experiment *e;
    int rc;
    r->chains = (int)n;
    if (!n)
        return 0;
    for (size_t i = 0; i < n && len < sizeof added - 128; i++)
        lengthen(carried[i], way, added, sizeof added, &len);
    if (!(e = tks__explain_add(r, TKS_EXPLAIN_LONGER,
                               way ? "chain +3 cycles, other units" : "chain +3 cycles", added)))
        return 0;
    for (char *p = e->added; *p; p++)
        if (*p == '\n')
            *p = ';';
    if (!(code = malloc(strlen(text) + len + 2)))
        return TKS_ENOMEM;
    sprintf(code, "%s\n%s", text, added);
    e->alone = CHAIN_CYCLES;
    rc = run_one(o, code, o->chase_bytes, mode, e, NULL);
    free(code);
    return rc;
}

/* A free register of the harness's pool for added work ("" when the snippet names them all or
 * its placeholders take the whole pool). */
static void free_registers(const char *text, enum tks_asm_mode mode, const char *raw,
                           char *gpr, int *vec)
{
    tks__asm_regset s, one;
    int pooled = mode == TKS_ASM_THROUGHPUT && tks__asm_has_placeholder(raw);
    tks__asm_regs_named(text, &s);
    gpr[0] = 0;
    *vec = -1;
    if (!(pooled && strstr(raw, "{r}")))
        for (unsigned i = 0; i < TKS__ASM_GPR_POOL && !gpr[0]; i++) {
            tks__asm_regs_named(tks__asm_pool_gpr(i), &one);
            if (!(one.named & s.named))
                snprintf(gpr, 8, "%s", tks__asm_pool_gpr(i));
        }
    if (!(pooled && (strstr(raw, "{x}") || strstr(raw, "{y}"))))
        for (int i = 14; i >= 0 && *vec < 0; i--) /* ymm15 is the blockers' source */
            if (!(s.named & ((uint64_t)1 << (16 + i))))
                *vec = i;
}

/* Independent work of each blocking kind, sized by a pilot to half the base's time. */
static int work_exps(const tks_asm_options *o, const char *text, enum tks_asm_mode mode,
                     double t0, tks_explain_result *r)
{
    size_t nb;
    const tks_asm_row *b = tks_ports_default_blockers(&nb);
    char gpr[8];
    int vec, rc = 0;
    free_registers(text, mode, o->code, gpr, &vec);
    for (size_t i = 0; i < nb && !rc; i++) {
        tks_explain_experiment pilot, *e;
        char *line, *pilot_code, *code, name[64];
        int k;
        if ((strstr(b[i].code, "{r}") && !gpr[0]) ||
            ((strstr(b[i].code, "{x}") || strstr(b[i].code, "{y}")) && vec < 0) ||
            (o->chase_bytes && strncmp(b[i].code, "mov [", 5) == 0)) {
            r->skipped_work++; /* no register for it, or a store into the chase's lines */
            continue;
        }
        if (!(line = tks__asm_expand(b[i].code, TKS_ASM_INTEL, gpr[0] ? gpr : "rax",
                                     vec < 0 ? 0 : vec)))
            return TKS_ENOMEM;
        memset(&pilot, 0, sizeof pilot);
        if (!(pilot_code = with_added("", line, PILOT_COPIES))) {
            free(line);
            return TKS_ENOMEM;
        }
        rc = run_one(o, pilot_code + 1, 0, TKS_ASM_THROUGHPUT, &pilot, NULL);
        free(pilot_code);
        if (rc || pilot.rc) {
            free(line);
            continue;
        }
        {
            double per = pilot.cycles.value / PILOT_COPIES;
            k = (int)lround(0.5 * t0 / per);
            k = k < 1 ? 1 : k > 32 ? 32 : k;
            snprintf(name, sizeof name, "+%d x %.50s", k, b[i].name);
            if (!(e = tks__explain_add(r, TKS_EXPLAIN_WORK, name, line))) {
                free(line);
                break;
            }
            e->alone = k * per;
        }
        if (!(code = with_added(text, line, k))) {
            free(line);
            return TKS_ENOMEM;
        }
        rc = run_one(o, code, o->chase_bytes, mode, e, NULL);
        free(code);
        free(line);
    }
    return rc;
}

static int nop_exp(const tks_asm_options *o, const char *text, enum tks_asm_mode mode,
                   tks_explain_result *r)
{
    tks_explain_experiment pilot, *e;
    char *alone = with_added("", NOP_TEXT, NOPS), *code = with_added(text, NOP_TEXT, NOPS);
    int rc = TKS_ENOMEM;
    memset(&pilot, 0, sizeof pilot);
    if (alone && code && (rc = run_one(o, alone + 1, 0, TKS_ASM_THROUGHPUT, &pilot, NULL)) == 0 &&
        (e = tks__explain_add(r, TKS_EXPLAIN_NOPS, "+8 x 8-byte NOP (64 bytes)", NOP_TEXT))) {
        e->alone = pilot.rc ? NAN : pilot.cycles.value;
        rc = run_one(o, code, o->chase_bytes, mode, e, NULL);
    }
    free(alone);
    free(code);
    return rc;
}

/* The chase over half of each cache level smaller than its own working set; without the
 * levels (a VM whose /sys has none), over 16 KiB, 256 KiB and 4 MiB. */
static int wset_exps(const tks_asm_options *o, const char *text, const uint64_t *levels,
                     size_t nl, tks_explain_result *r)
{
    static const uint64_t grid[] = {(uint64_t)32 << 10, (uint64_t)512 << 10, (uint64_t)8 << 20};
    int rc = 0, known = nl > 0;
    if (!known) {
        levels = grid;
        nl = sizeof grid / sizeof grid[0];
    }
    for (size_t i = 0; i < nl && !rc; i++) {
        char name[64], size[20];
        tks_explain_experiment *e;
        uint64_t ws = levels[i] / 2;
        if (known && levels[i] < o->chase_bytes) {
            r->level = (int)i + 1;
            r->level_bytes = levels[i];
        }
        if (ws >= o->chase_bytes || ws < 4096)
            continue;
        tks__fmt_bytes(size, sizeof size, ws);
        if (known)
            snprintf(name, sizeof name, "chase over %s (in L%zu)", size, i + 1);
        else
            snprintf(name, sizeof name, "chase over %s", size);
        if (!(e = tks__explain_add(r, TKS_EXPLAIN_WSET, name, "")))
            break;
        e->working_set = ws;
        e->level = known ? (int)i + 1 : 0;
        rc = run_one(o, text, ws, o->mode, e, NULL);
    }
    return rc;
}

int tks_explain_run(const tks_asm_options *o, const uint64_t *level_bytes, size_t n_levels,
                    tks_explain_result *r)
{
    double t0 = tks__now_s();
    int pooled, rc;
    char *text;
    tks_explain_experiment *base;
    memset(r, 0, sizeof *r);
    r->chains = -1;
    if (o->syntax != TKS_ASM_INTEL) {
        snprintf(r->error, sizeof r->error, "--explain reads the snippet's registers in Intel "
                 "syntax: give it without --att or --hex");
        return TKS_EINVAL;
    }
    pooled = o->mode == TKS_ASM_THROUGHPUT && tks__asm_has_placeholder(o->code);
    if (!(text = pooled ? strdup(o->code) : concrete(o)))
        return TKS_ENOMEM;
    base = tks__explain_add(r, TKS_EXPLAIN_BASE, "the snippet as given", "");
    base->working_set = r->chase_bytes = o->chase_bytes;
    if ((rc = run_one(o, text, o->chase_bytes, o->mode, base, &r->code_bytes)) != 0 || base->rc) {
        snprintf(r->error, sizeof r->error, "%s", base->error);
        free(text);
        return rc ? rc : base->rc;
    }
    if (o->chase_bytes && (rc = wset_exps(o, text, level_bytes, n_levels, r)) != 0)
        goto out;
    /* copies are independent by construction in throughput mode with placeholders */
    for (int way = 0; way < 2 && !pooled; way++)
        if ((rc = chain_exp(o, text, o->mode, way, r)) != 0)
            goto out;
    if ((rc = nop_exp(o, text, o->mode, r)) != 0)
        goto out;
    rc = work_exps(o, text, o->mode, base->cycles.value, r);
out:
    free(text);
    for (size_t i = 1; i < r->n; i++)
        set_delta(&r->exp[0], &r->exp[i]);
    tks_explain_classify(r);
    r->seconds = tks__now_s() - t0;
    if (rc && !r->error[0])
        snprintf(r->error, sizeof r->error, "%s", tks_strerror(rc));
    return rc;
}

/* An addition that competes: it cost at least half of its cost alone, beyond the run-to-run
 * drift (3% of the base) and beyond both runs' intervals. */
static int competes(const tks_explain_experiment *e, double base)
{
    return !e->rc && isfinite(e->ratio) && e->ratio >= 0.5 && e->delta.lo > 0 &&
           e->delta.value >= 0.03 * base;
}

/* Every lengthening of the chain that ran competed (one at least): a chain pays added latency
 * whatever unit it runs on, a snippet bound by one unit's throughput only where it ran on that
 * unit. */
static int chain_paid(const tks_explain_result *r)
{
    int ran = 0;
    for (size_t i = 1; i < r->n; i++)
        if (r->exp[i].kind == TKS_EXPLAIN_LONGER && !r->exp[i].rc) {
            if (!competes(&r->exp[i], r->exp[0].cycles.value))
                return 0;
            ran = 1;
        }
    return ran;
}

void tks_explain_classify(tks_explain_result *r)
{
    tks__explain_classify_with(r, 1);
}

void tks__explain_classify_with(tks_explain_result *r, int nops)
{
    const tks_explain_experiment *b = &r->exp[0];
    double smallest = INFINITY;
    size_t len = 0;
    r->cls = TKS_EXPLAIN_UNDETERMINED;
    r->port_kinds[0] = 0;
    if (!r->n || b->rc)
        return;
    for (size_t i = 1; i < r->n; i++)
        if (r->exp[i].kind == TKS_EXPLAIN_WSET && !r->exp[i].rc &&
            r->exp[i].cycles.value < smallest)
            smallest = r->exp[i].cycles.value;
    /* memory: at its own working set at least twice what it costs inside a cache (a chase out
     * of the caches is so slow and so noisy that its interval says little: the figure decides);
     * the knee is the steepest step between two working sets (ascending, the base's last) */
    if (isfinite(smallest) && b->cycles.value >= 2 * smallest) {
        const tks_explain_experiment *prev = NULL;
        double steepest = 1.5;
        r->cls = TKS_EXPLAIN_MEMORY;
        for (size_t i = 1; i <= r->n; i++) {
            const tks_explain_experiment *e = i < r->n ? &r->exp[i] : b;
            if (i < r->n && (e->kind != TKS_EXPLAIN_WSET || e->rc))
                continue;
            if (prev && e->cycles.value >= steepest * prev->cycles.value) {
                steepest = e->cycles.value / prev->cycles.value;
                r->knee_lo = prev->working_set;
                r->knee_hi = e->working_set;
            }
            prev = e;
        }
        return;
    }
    for (size_t i = 1; i < r->n && nops; i++)
        if (r->exp[i].kind == TKS_EXPLAIN_NOPS && competes(&r->exp[i], b->cycles.value)) {
            r->cls = TKS_EXPLAIN_FRONTEND;
            return;
        }
    if (chain_paid(r)) {
        r->cls = TKS_EXPLAIN_CHAIN;
        return;
    }
    for (size_t i = 1; i < r->n; i++) {
        const tks_explain_experiment *e = &r->exp[i];
        if (e->kind == TKS_EXPLAIN_WORK && competes(e, b->cycles.value)) {
            /* the kind is the blocker's name up to its colon */
            const char *kind = strstr(e->name, " x ") ? strstr(e->name, " x ") + 3 : e->name;
            size_t kl = strcspn(kind, ":");
            r->cls = TKS_EXPLAIN_PORTS;
            if (len + kl + 3 < sizeof r->port_kinds)
                len += (size_t)snprintf(r->port_kinds + len, sizeof r->port_kinds - len, "%s%.*s",
                                        len ? ", " : "", (int)kl, kind);
        }
    }
}
