/* SPDX-License-Identifier: MIT */
/* test_asm_ports_catalog.c: the forms `asm --ports --table` takes from the catalogue, without
 * running them: the placeholder text of register forms (one placeholder, the destination; fixed
 * sources distinct, so no zeroing idiom; no memory), the forms left out, and the cached table's
 * throughputs deciding which forms are not single-uop (a cache written here, synthetic figures).
 * TKS_TEST_VERBOSE=1 prints every form's text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/catalog.h"
#include "asm/cpu_table.h"
#include "asm/ports_catalog.h"
#include "check.h"

static const tks__asm_form *named(const tks__asm_form *f, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0)
            return &f[i];
    return NULL;
}

/* The text of form name, or "-" when it has none. */
static const char *code_of(const tks__asm_form *f, size_t n, const char *name, char *buf,
                           size_t size)
{
    const tks__asm_form *x = named(f, n, name);
    CHECK(x != NULL);
    if (!x || tks__ports_form_code(x, buf, size) != 0)
        snprintf(buf, size, "-");
    return buf;
}

static void test_codes(void)
{
    tks__asm_form *all;
    size_t n, written = 0;
    char c[512];
    const char *verbose = getenv("TKS_TEST_VERBOSE");
    CHECK(tks__asm_catalog_forms(~(uint64_t)0, &all, &n) == 0);
    for (size_t i = 0; i < n; i++) {
        const char *p;
        if (tks__ports_form_code(&all[i], c, sizeof c) != 0)
            continue;
        written++;
        if (verbose && *verbose == '1')
            printf("  %-40s %s\n", all[i].name, c);
        /* the mnemonic, then exactly one placeholder: the destination, first */
        CHECK(strncmp(c, all[i].mnemonic, strlen(all[i].mnemonic)) == 0);
        p = c + strlen(all[i].mnemonic) + 1;
        CHECK(strncmp(p, "{r}", 3) == 0 || strncmp(p, "{x}", 3) == 0 || strncmp(p, "{y}", 3) == 0);
        CHECK(!strchr(p + 3, '{') && !strchr(c, '['));
        CHECK(all[i].op[0] == TKS__OP_R64 || all[i].op[0] == TKS__OP_XMM ||
              all[i].op[0] == TKS__OP_YMM);
    }
    CHECK(written > 100 && written < n);
    CHECK(strcmp(code_of(all, n, "xor r64, r64", c, sizeof c), "xor {r}, r14") == 0);
    CHECK(strcmp(code_of(all, n, "add r64, imm8", c, sizeof c), "add {r}, 3") == 0);
    CHECK(strcmp(code_of(all, n, "shl r64, cl", c, sizeof c), "shl {r}, cl") == 0);
    CHECK(strcmp(code_of(all, n, "andn r64, r64, r64", c, sizeof c), "andn {r}, r14, rbp") == 0);
    CHECK(strcmp(code_of(all, n, "vpxor ymm, ymm, ymm", c, sizeof c),
                 "vpxor {y}, ymm15, ymm14") == 0);
    CHECK(strcmp(code_of(all, n, "addpd xmm, xmm", c, sizeof c), "addpd {x}, xmm15") == 0);
    CHECK(strcmp(code_of(all, n, "movq r64, xmm", c, sizeof c), "movq {r}, xmm15") == 0);
    /* left out: memory, a destination no placeholder names, masks, a flags chain */
    CHECK(strcmp(code_of(all, n, "add r64, m64", c, sizeof c), "-") == 0);
    CHECK(strcmp(code_of(all, n, "add r32, r32", c, sizeof c), "-") == 0);
    CHECK(strcmp(code_of(all, n, "vaddpd zmm, zmm, zmm", c, sizeof c), "-") == 0);
    CHECK(strcmp(code_of(all, n, "vaddpd ymm{k}, ymm, ymm", c, sizeof c), "-") == 0);
    CHECK(strcmp(code_of(all, n, "adc r64, r64", c, sizeof c), "-") == 0);
    free(all);
}

/* A cached table with two throughputs of forms 'r64, r64' this CPU has: 0.25 cycles (4 a cycle,
 * one uop) and 0.7 (1.43 a cycle: not one uop). The second is left out as not single-uop, with
 * the cached figure; the first is measured like any form the cache lacks. */
static void test_cache(void)
{
    char dir[] = "/tmp/tks_ports_catalog.XXXXXX", path[512], cpu[128];
    tks__ports_catalog pc;
    tks__asm_entry e;
    tks_ports_result r;
    size_t all_n;
    FILE *f;
    const char *single = "add r64, r64", *multi = "imul r64, r64";
    CHECK(mkdtemp(dir) != NULL);
    CHECK(tks__ports_catalog_build("r64, r64", dir, &pc) == 0); /* nothing cached yet */
    CHECK(pc.n_cached == 0 && pc.cache_path[0] == 0 && pc.n > 10);
    CHECK(pc.matched == pc.n + pc.memory + pc.unwritable);
    all_n = pc.n;
    for (size_t i = 0; i < pc.n; i++)
        CHECK(strstr(pc.rows[i].name, "r64, r64") && pc.rows[i].mode == TKS_ASM_THROUGHPUT);
    tks__ports_catalog_free(&pc);
    CHECK(tks__asm_table_cache_file(dir, 0, cpu, sizeof cpu, path, sizeof path) == 0);
    CHECK((f = fopen(path, "w")) != NULL);
    if (!f)
        return;
    tks__asm_csv_header(f);
    for (int k = 0; k < 2; k++) {
        double v = k ? 0.7 : 0.25;
        memset(&e, 0, sizeof e);
        snprintf(e.form, sizeof e.form, "%s", k ? multi : single);
        snprintf(e.key, sizeof e.key, "T");
        snprintf(e.feature, sizeof e.feature, "BASE");
        snprintf(e.snippet, sizeof e.snippet, "%s rax, rsi", k ? "imul" : "add");
        e.kind = TKS__KIND_THROUGHPUT;
        e.src = e.dst = -1;
        e.res.cycles = (tks_asm_interval){v, v * 0.99, v * 1.01};
        e.res.ticks = e.res.cycles;
        tks__asm_csv_entry(f, &e);
    }
    CHECK(fclose(f) == 0);
    CHECK(tks__ports_catalog_build("r64, r64", dir, &pc) == 0);
    CHECK(strcmp(pc.cache_path, path) == 0);
    CHECK(pc.n_cached == 1 && pc.n == all_n - 1);
    CHECK(strcmp(pc.cached[0].name, multi) == 0 && pc.cached[0].status == TKS_PORTS_NOT_SINGLE);
    CHECK(fabs(pc.cached[0].cycles.value - 0.7) < 1e-9 && pc.cached[0].ports == 0);
    for (size_t i = 0; i < pc.n; i++)
        CHECK(strcmp(pc.rows[i].name, multi) != 0);
    {
        int found = 0;
        for (size_t i = 0; i < pc.n; i++)
            found |= strcmp(pc.rows[i].name, single) == 0;
        CHECK(found);
    }
    /* put back after the inference, behind what it measured */
    memset(&r, 0, sizeof r);
    CHECK((r.forms = calloc(2, sizeof *r.forms)) != NULL);
    r.n_forms = 2;
    CHECK(tks__ports_catalog_merge(&pc, &r) == 0);
    CHECK(r.n_forms == 3 && strcmp(r.forms[2].name, multi) == 0);
    tks_ports_result_free(&r);
    tks__ports_catalog_free(&pc);
    unlink(path);
    rmdir(dir);
    /* the count of snippets the estimate uses: forms alone, the width, four runs a pair */
    CHECK(tks__ports_snippets(2, 3) == 5 + 6 + 4 * (3 + 6));
}

int main(void)
{
#if defined(__x86_64__)
    const int x86 = 1;
#else /* the forms a CPU has come from x86's CPUID: another architecture's build has none */
    const int x86 = 0;
#endif
    test_codes();
    if (x86)
        test_cache();
    else
        CHECK_SKIP("hardware: the catalogue's forms are those x86-64 CPUID offers; this build is "
                   "for another architecture (the cache part)");
    CHECK_DONE();
}
