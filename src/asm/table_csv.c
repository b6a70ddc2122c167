/* SPDX-License-Identifier: MIT */
/* table_csv.c: the CPU's instruction table as CSV, one line per measurement: what `--format csv`
 * writes, what the per-model cache holds and what --diff reads back. */
#include "asm/cpu_table.h"
#include "base/double_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char header[] = "form,key,feature,kind,src,dst,cycles,cycles_lo,cycles_hi,ticks,"
                             "ticks_lo,ticks_hi,r2,windows,chain_cycles,hash,snippet,error";
#define NCOLS 18

static const char *const kind_names[] = {"throughput", "latency", "latency_addr", "latency_mem"};

const char *tks__asm_kind_name(enum tks__asm_kind k)
{
    return (unsigned)k < 4 ? kind_names[k] : "?";
}

static void field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

/* Whole precision: the table read back from the cache prints as it printed when measured (with
 * six digits, 1.0005 measured printed "1.001" and read back "1.000"). */
static void num(FILE *f, double v)
{
    char buf[40];

    fputc(',', f);
    if (isfinite(v)) {
        tks__double_text(buf, sizeof buf, v);
        fputs(buf, f);
    }
}

void tks__asm_csv_header(FILE *f)
{
    fprintf(f, "%s\n", header);
}

void tks__asm_csv_entry(FILE *f, const tks__asm_entry *e)
{
    const tks__asm_batch_result *r = &e->res;
    int ok = r->rc == 0;
    field(f, e->form);
    fputc(',', f);
    field(f, e->key);
    fputc(',', f);
    field(f, e->feature);
    fprintf(f, ",%s,%d,%d", tks__asm_kind_name(e->kind), e->src, e->dst);
    num(f, ok ? r->cycles.value : NAN);
    num(f, ok ? r->cycles.lo : NAN);
    num(f, ok ? r->cycles.hi : NAN);
    num(f, ok ? r->ticks.value : NAN);
    num(f, ok ? r->ticks.lo : NAN);
    num(f, ok ? r->ticks.hi : NAN);
    num(f, ok ? r->r2 : NAN);
    fprintf(f, ",%llu", (unsigned long long)r->windows);
    num(f, e->chain_cycles);
    fprintf(f, ",%016llx,", (unsigned long long)e->hash);
    field(f, e->snippet);
    fputc(',', f);
    field(f, ok ? "" : r->error);
    fputc('\n', f);
}

/* Split one CSV line (quotes honoured) into at most max fields, in place. */
static int split(char *line, char **cell, int max)
{
    int n = 0;
    char *p = line, *w;
    while (n < max) {
        cell[n++] = w = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p)
                    break;
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
            }
        } else {
            while (*p && *p != ',')
                *w++ = *p++;
        }
        if (*p != ',') {
            *w = 0;
            break;
        }
        p++;
        *w = 0;
    }
    return n;
}

static double dbl(const char *s)
{
    char *end;
    double v;
    if (!*s)
        return NAN;
    v = strtod(s, &end);
    return *end ? NAN : v;
}

static int entry_of(char **c, tks__asm_entry *e)
{
    int k;
    memset(e, 0, sizeof *e);
    for (k = 0; k < 4 && strcmp(c[3], kind_names[k]) != 0; k++)
        ;
    if (k == 4 || strlen(c[0]) >= sizeof e->form || strlen(c[1]) >= sizeof e->key)
        return -1;
    snprintf(e->form, sizeof e->form, "%s", c[0]);
    snprintf(e->key, sizeof e->key, "%s", c[1]);
    snprintf(e->feature, sizeof e->feature, "%s", c[2]);
    e->kind = (enum tks__asm_kind)k;
    e->src = atoi(c[4]);
    e->dst = atoi(c[5]);
    e->res.cycles.value = dbl(c[6]);
    e->res.cycles.lo = dbl(c[7]);
    e->res.cycles.hi = dbl(c[8]);
    e->res.ticks.value = dbl(c[9]);
    e->res.ticks.lo = dbl(c[10]);
    e->res.ticks.hi = dbl(c[11]);
    e->res.r2 = dbl(c[12]);
    e->res.windows = strtoull(c[13], NULL, 10);
    e->chain_cycles = dbl(c[14]);
    if (!isfinite(e->chain_cycles))
        e->chain_cycles = 0;
    e->hash = strtoull(c[15], NULL, 16);
    snprintf(e->snippet, sizeof e->snippet, "%s", c[16]);
    snprintf(e->res.error, sizeof e->res.error, "%s", c[17]);
    e->res.rc = c[17][0] ? TKS_EIO : 0;
    e->from_cache = 1;
    return 0;
}

int tks__asm_table_read_csv(const char *path, tks__asm_table *t, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    char line[2048], *c[NCOLS];
    size_t cap = 0, lineno = 0;
    memset(t, 0, sizeof *t);
    if (!f) {
        snprintf(err, errsz, "cannot read '%s': %s", path, strerror(errno));
        return TKS_EIO;
    }
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = 0;
        lineno++;
        if (lineno == 1) {
            if (strcmp(line, header) != 0) {
                snprintf(err, errsz, "'%s' is not a table of `tickscope asm --table` (its first "
                         "line is not the CSV header \"form,key,...\")", path);
                fclose(f);
                return TKS_EINVAL;
            }
            continue;
        }
        if (!len)
            continue;
        if (t->n == cap) {
            tks__asm_entry *g = realloc(t->e, (cap = cap ? cap * 2 : 256) * sizeof *g);
            if (!g) {
                fclose(f);
                tks__asm_table_free(t);
                return TKS_ENOMEM;
            }
            t->e = g;
        }
        if (split(line, c, NCOLS) != NCOLS || entry_of(c, &t->e[t->n]) != 0) {
            /* a line cut short by an interrupted run is the only damage expected: stop there */
            if (!fgets(line, sizeof line, f))
                break;
            snprintf(err, errsz, "'%s' line %zu: not a row of the table", path, lineno);
            fclose(f);
            tks__asm_table_free(t);
            return TKS_EINVAL;
        }
        t->n++;
    }
    fclose(f);
    if (lineno == 0) {
        snprintf(err, errsz, "'%s' is empty", path);
        return TKS_EINVAL;
    }
    return 0;
}
