/* SPDX-License-Identifier: MIT */
/* ports_catalog.c: the catalogue's register forms as --ports measures them. A form becomes one
 * instruction whose destination is a placeholder ({r} a general register, {x} an xmm, {y} a ymm
 * one: ports.c gives each copy a register of its own, as the table's throughput snippet rotates
 * its destination) and whose sources are fixed registers the copies only read: r14 (the scratch
 * pointer, which no copy writes) then rbp for general sources, ymm15, ymm14, ... at the operand's
 * width for vector ones (distinct, so that no pair is a zeroing idiom such as vpxor y, a, a).
 * The cached table of this CPU model, when it has the form's throughput, says beforehand which
 * forms are not one micro-op: ports.c's rule, a rate more than 15% off every whole number. */
#include "asm/ports_catalog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/cpu_table.h"

static const char *const fixed_gpr[2][4] = {{"r14b", "r14w", "r14d", "r14"},
                                            {"bpl", "bp", "ebp", "rbp"}};

int tks__ports_form_code(const tks__asm_form *f, char *code, size_t size)
{
    int ngpr = 0, nvec = 0;
    size_t len;
    if (f->masked || (f->flags_in && f->flags_out))
        return -1; /* a mask to set up, or copies chained through the flags */
    if (f->op[0] != TKS__OP_R64 && f->op[0] != TKS__OP_XMM && f->op[0] != TKS__OP_YMM)
        return -1;
    len = (size_t)snprintf(code, size, "%s %s", f->mnemonic,
                           f->op[0] == TKS__OP_R64 ? "{r}" : f->op[0] == TKS__OP_XMM ? "{x}"
                                                                                  : "{y}");
    for (int k = 1; k < f->nops && len < size; k++) {
        char o[16];
        int cls = f->op[k];
        if (cls == TKS__OP_MEM || cls == TKS__OP_K)
            return -1;
        if (cls <= TKS__OP_R64) {
            if (ngpr == 2)
                return -1;
            snprintf(o, sizeof o, "%s", fixed_gpr[ngpr++][cls - TKS__OP_R8]);
        } else if (cls >= TKS__OP_XMM && cls <= TKS__OP_ZMM) {
            snprintf(o, sizeof o, "%cmm%d", "xyz"[cls - TKS__OP_XMM], 15 - nvec++);
        } else if (cls == TKS__OP_IMM8) {
            snprintf(o, sizeof o, "3");
        } else if (cls == TKS__OP_IMM32) {
            snprintf(o, sizeof o, "0x12345");
        } else {
            snprintf(o, sizeof o, "cl");
        }
        len += (size_t)snprintf(code + len, size - len, ", %s", o);
    }
    return len < size ? 0 : -1;
}

static int has_memory(const tks__asm_form *f)
{
    for (int k = 0; k < f->nops; k++)
        if (f->op[k] == TKS__OP_MEM)
            return 1;
    return 0;
}

/* The cached throughput of form name (core cycles a copy), NULL when the table lacks it. */
static const tks__asm_entry *cached_throughput(const tks__asm_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].kind == TKS__KIND_THROUGHPUT && t->e[i].res.rc == 0 &&
            isfinite(t->e[i].res.cycles.value) && t->e[i].res.cycles.value > 0 &&
            strcmp(t->e[i].form, name) == 0)
            return &t->e[i];
    return NULL;
}

/* ports.c's rule: one micro-op on n ports runs n a cycle, within 15%. */
static int single_uop(double cycles)
{
    double rate = 1.0 / cycles;
    long n = lround(rate);
    return n >= 1 && n <= TKS_PORTS_MAX_PORTS && fabs(rate - (double)n) <= 0.15 * (double)n;
}

static void cached_form(tks_ports_form *x, const char *name, const char *code,
                        const tks__asm_entry *e)
{
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->code, sizeof x->code, "%s", code);
    x->cycles = e->res.cycles;
    x->per_cycle = 1.0 / e->res.cycles.value;
    x->status = TKS_PORTS_NOT_SINGLE;
    x->domain = x->port_class = -1;
    snprintf(x->error, sizeof x->error, "not single-uop by the cached table (%s)", e->snippet);
}

int tks__ports_catalog_build(const char *only, const char *cache_dir, tks__ports_catalog *pc)
{
    tks__asm_form *forms = NULL;
    tks__asm_table table;
    size_t nforms = 0;
    char cpu[128], err[256];
    int rc;
    memset(pc, 0, sizeof *pc);
    memset(&table, 0, sizeof table);
    if ((rc = tks__asm_catalog_forms(tks__asm_cpu_feats(), &forms, &nforms)) != 0)
        return rc;
    /* no table cached (or not one): every form is measured */
    if ((cache_dir && !*cache_dir) ||
        tks__asm_table_cache_file(cache_dir, 0, cpu, sizeof cpu, pc->cache_path,
                                  sizeof pc->cache_path) != 0 ||
        tks__asm_table_read_csv(pc->cache_path, &table, err, sizeof err) != 0)
        pc->cache_path[0] = 0;
    pc->rows = calloc(nforms ? nforms : 1, sizeof *pc->rows);
    pc->cached = calloc(nforms ? nforms : 1, sizeof *pc->cached);
    if (!pc->rows || !pc->cached) {
        free(forms);
        tks__asm_table_free(&table);
        tks__ports_catalog_free(pc);
        return TKS_ENOMEM;
    }
    for (size_t i = 0; i < nforms; i++) {
        char code[sizeof pc->rows[0].code];
        const tks__asm_entry *e;
        if (only && !strstr(forms[i].name, only))
            continue;
        pc->matched++;
        if (has_memory(&forms[i])) {
            pc->memory++;
            continue;
        }
        if (tks__ports_form_code(&forms[i], code, sizeof code) != 0) {
            pc->unwritable++;
            continue;
        }
        if ((e = cached_throughput(&table, forms[i].name)) && !single_uop(e->res.cycles.value)) {
            cached_form(&pc->cached[pc->n_cached++], forms[i].name, code, e);
            continue;
        }
        snprintf(pc->rows[pc->n].name, sizeof pc->rows[0].name, "%s", forms[i].name);
        snprintf(pc->rows[pc->n].code, sizeof pc->rows[0].code, "%s", code);
        pc->rows[pc->n].mode = TKS_ASM_THROUGHPUT;
        pc->n++;
    }
    free(forms);
    tks__asm_table_free(&table);
    return 0;
}

void tks__ports_catalog_free(tks__ports_catalog *pc)
{
    free(pc->rows);
    free(pc->cached);
    pc->rows = NULL;
    pc->cached = NULL;
    pc->n = pc->n_cached = 0;
}

int tks__ports_catalog_merge(const tks__ports_catalog *pc, tks_ports_result *r)
{
    tks_ports_form *f;
    if (!pc->n_cached)
        return 0;
    if (!(f = realloc(r->forms, (r->n_forms + pc->n_cached) * sizeof *f)))
        return TKS_ENOMEM;
    memcpy(f + r->n_forms, pc->cached, pc->n_cached * sizeof *f);
    r->forms = f;
    r->n_forms += pc->n_cached;
    return 0;
}

size_t tks__ports_snippets(size_t n, size_t nb)
{
    /* every form alone, the width's six bodies, four runs a pair (its parts alone, the mix,
     * the NOP body beside it; many alone runs are shared, a mix taken again adds two) */
    return nb + n + 6 + 4 * (nb * (nb - 1) / 2 + nb * n);
}
