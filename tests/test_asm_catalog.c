/* SPDX-License-Identifier: MIT */
/* test_asm_catalog.c: the instruction catalogue of `asm --table` without running it: its size with
 * every extension and with the baseline alone (a CPU without AVX gets no vector form), unique
 * names, the measurements of a form and the registers of their snippets (throughput copies on
 * distinct destinations, a latency pair on one register), and the snippet checks of item 5 on
 * bytes and texts made for them (the copy-boundary and memory checks need objdump); the init's
 * size against the kernel module's, and a ring-0 batch refused as a whole (these need as). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"
#include "asm/catalog.h"
#include "asm/cpu_table.h"
#include "check.h"
#include "tickscope/kmod.h"

static const tks__asm_form *named(const tks__asm_form *f, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0)
            return &f[i];
    return NULL;
}

static void test_sizes(void)
{
    tks__asm_form *all, *base;
    size_t n_all, n_base, vec = 0;
    CHECK(tks__asm_catalog_forms(~(uint64_t)0, &all, &n_all) == 0);
    CHECK(n_all >= 1000);
    for (size_t i = 0; i < n_all; i++)
        for (size_t j = i + 1; j < n_all; j++)
            if (strcmp(all[i].name, all[j].name) == 0) {
                CHECK(!"two forms of one name");
                printf("  %s\n", all[i].name);
            }
    CHECK(tks__asm_catalog_forms((uint64_t)1 << TKS__F_BASE, &base, &n_base) == 0);
    CHECK(n_base > 200 && n_base < n_all);
    for (size_t i = 0; i < n_base; i++) {
        CHECK(base[i].feat == TKS__F_BASE && base[i].feat2 == TKS__F_BASE);
        vec += strstr(base[i].name, "ymm") || strstr(base[i].name, "zmm") ||
               base[i].mnemonic[0] == 'v' || base[i].mnemonic[0] == 'k';
    }
    CHECK(vec == 0);
    /* a masked xmm form needs AVX512VL beside its own feature; a zmm one does not */
    CHECK(named(all, n_all, "vaddpd xmm{k}, xmm, xmm") != NULL);
    CHECK(named(all, n_all, "vaddpd xmm{k}, xmm, xmm")->feat2 == TKS__F_AVX512VL);
    CHECK(named(all, n_all, "vaddpd zmm{k}, zmm, zmm")->feat == TKS__F_AVX512F);
    CHECK(named(all, n_all, "vaddpd ymm, ymm, ymm")->feat == TKS__F_AVX);
    CHECK(named(all, n_all, "add r8, imm8") != NULL && named(all, n_all, "add r16, imm16"));
    free(all);
    free(base);
}

static void test_snippets(void)
{
    tks__asm_form *all;
    size_t n;
    tks__asm_measure_spec spec[8];
    tks__asm_snippet s;
    const tks__asm_form *f;
    size_t ns;
    CHECK(tks__asm_catalog_forms(~(uint64_t)0, &all, &n) == 0);

    /* add r64, r64: throughput and the destination's own chain; the source pair would be the
     * destination alone */
    f = named(all, n, "add r64, r64");
    CHECK(f && (ns = tks__asm_form_specs(f, spec, 8)) == 2);
    CHECK_STR(spec[0].key, "T");
    CHECK_STR(spec[1].key, "L0-0");
    CHECK(tks__asm_form_snippet(f, &spec[0], &s) == 0);
    CHECK(s.nvar >= 8 && strcmp(s.variant[0], s.variant[1]) != 0);
    CHECK(strstr(s.init, "ldmxcsr") != NULL);
    for (size_t v = 0; v < s.nvar; v++) /* the fixed source is never a destination */
        CHECK(strncmp(s.variant[v], "add rsi", 7) != 0 && !strstr(s.variant[v], "r14") &&
              !strstr(s.variant[v], "r15") && !strstr(s.variant[v], "rcx"));
    tks__asm_snippet_free(&s);

    /* vaddpd ymm: two source pairs, each chained through ymm0 */
    f = named(all, n, "vaddpd ymm, ymm, ymm");
    CHECK(f && (ns = tks__asm_form_specs(f, spec, 8)) == 3);
    CHECK(tks__asm_form_snippet(f, &spec[1], &s) == 0);
    CHECK_STR(s.variant[0], "vaddpd ymm0, ymm0, ymm15");
    tks__asm_snippet_free(&s);
    CHECK(tks__asm_form_snippet(f, &spec[2], &s) == 0);
    CHECK_STR(s.variant[0], "vaddpd ymm0, ymm15, ymm0");
    tks__asm_snippet_free(&s);

    /* a load: the address latency through [r14+rax] and the AND that keeps it in the area */
    f = named(all, n, "mov r64, m64");
    CHECK(f && (ns = tks__asm_form_specs(f, spec, 8)) == 2 && spec[1].kind == TKS__KIND_LATENCY_ADDR);
    CHECK(tks__asm_form_snippet(f, &spec[1], &s) == 0);
    CHECK(strstr(s.variant[0], "QWORD PTR [r14+rax]") && strstr(s.variant[0], TKS__ADDR_CHAIN));
    tks__asm_snippet_free(&s);

    /* a read-modify-write of memory: store to load through one address */
    f = named(all, n, "add m32, r32");
    CHECK(f && (ns = tks__asm_form_specs(f, spec, 8)) == 2 && spec[1].kind == TKS__KIND_LATENCY_MEM);
    CHECK(tks__asm_form_snippet(f, &spec[0], &s) == 0);
    CHECK(s.nvar == TKS__BATCH_VARIANTS && strstr(s.variant[1], "[r14+72]"));
    CHECK(s.mode == TKS_ASM_THROUGHPUT);
    tks__asm_snippet_free(&s);
    CHECK(tks__asm_form_snippet(f, &spec[1], &s) == 0 && s.mode == TKS_ASM_LATENCY);
    tks__asm_snippet_free(&s);

    /* a load into a register: whole rounds of the registers, each as often as the next, each
     * copy on a line of its own */
    f = named(all, n, "add r64, m64");
    CHECK(f && tks__asm_form_specs(f, spec, 8) >= 1);
    CHECK(tks__asm_form_snippet(f, &spec[0], &s) == 0);
    CHECK(s.nvar > 8 && s.nvar <= TKS__BATCH_VARIANTS);
    {
        char first[8] = "";
        size_t again = 0;
        sscanf(s.variant[0], "add %7[a-z0-9]", first);
        for (size_t v = 1; v < s.nvar; v++) {
            char reg[8] = "";
            sscanf(s.variant[v], "add %7[a-z0-9]", reg);
            again += strcmp(reg, first) == 0;
        }
        CHECK(first[0] && again == 0); /* nvar is one round: no register twice */
        CHECK(strstr(s.variant[s.nvar - 1], "[r14+") != NULL);
    }
    /* a line each, in consecutive 8-byte banks of it (eight, then round again) */
    CHECK(strstr(s.variant[0], "[r14+0]") && strstr(s.variant[2], "[r14+144]") &&
          strstr(s.variant[8], "[r14+512]"));
    tks__asm_snippet_free(&s);
    /* wider operands stay naturally aligned: 32 bytes into a line at most, 64-byte ones at 0 */
    f = named(all, n, "vaddpd ymm, ymm, m256");
    CHECK(f && tks__asm_form_snippet(f, &spec[0], &s) == 0);
    CHECK(strstr(s.variant[1], "[r14+96]") && strstr(s.variant[2], "[r14+128]"));
    tks__asm_snippet_free(&s);
    f = named(all, n, "vaddpd zmm, zmm, m512");
    CHECK(f && tks__asm_form_snippet(f, &spec[0], &s) == 0);
    CHECK(strstr(s.variant[1], "[r14+64]") && strstr(s.variant[3], "[r14+192]"));
    tks__asm_snippet_free(&s);

    /* a masked form writes under k1; a compare into a mask has no latency pair (two kinds) */
    f = named(all, n, "vpaddd zmm{k}, zmm, zmm");
    CHECK(f && tks__asm_form_snippet(f, &spec[0], &s) == 0 && strstr(s.variant[0], "{k1}"));
    tks__asm_snippet_free(&s);
    f = named(all, n, "vpcmpeqd k, zmm, zmm");
    CHECK(f && tks__asm_form_specs(f, spec, 8) == 1);
    free(all);
}

static void test_checks(void)
{
    char err[512];
    static const unsigned char split[] = {0x90, 0x0f};                    /* nop; .byte 0x0f */
    static const unsigned char whole[] = {0x48, 0x01, 0xc0};              /* add rax, rax */
    static const unsigned char foreign[] = {0x48, 0x8b, 0x07};            /* mov rax, [rdi] */
    static const unsigned char scratch[] = {0x49, 0x8b, 0x46, 0x40};      /* mov rax, [r14+64] */
    static const unsigned char lea[] = {0x48, 0x8d, 0x04, 0x40};          /* lea rax, [rax+rax*2] */
    const size_t off2[] = {0, 2}, off3[] = {0, 3}, off4[] = {0, 4};
    CHECK(tks__asm_check_syntax("mov $5, %eax", TKS_ASM_INTEL, "the snippet", err, sizeof err) ==
          TKS_EINVAL);
    CHECK(strstr(err, "add --att") != NULL);
    CHECK(tks__asm_check_syntax("imul %rax, %rax", TKS_ASM_INTEL, "x", err, sizeof err) ==
          TKS_EINVAL);
    CHECK(tks__asm_check_syntax("mov eax, 5", TKS_ASM_ATT, "x", err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "drop --att") != NULL);
    CHECK(tks__asm_check_syntax("addq $1, %rax", TKS_ASM_ATT, "x", err, sizeof err) == 0);
    CHECK(tks__asm_check_syntax("add {r}, 1 # rax", TKS_ASM_INTEL, "x", err, sizeof err) == 0);
    CHECK(tks__asm_check_syntax("vaddps ymm0, ymm1, [r14]", TKS_ASM_INTEL, "x", err,
                                sizeof err) == 0);
    if (system("objdump --version >/dev/null 2>&1") != 0) {
        printf("  (objdump missing: the copy checks are not tested)\n");
        return;
    }
    CHECK(tks__asm_check_copies(split, off2, 1, 1, err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "do not decode at their own boundaries") && strstr(err, "seto"));
    CHECK(tks__asm_check_copies(whole, off3, 1, 1, err, sizeof err) == 0);
    CHECK(tks__asm_check_copies(foreign, off3, 1, 1, err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "memory it was not given") && strstr(err, "[rdi]"));
    CHECK(tks__asm_check_copies(scratch, off4, 1, 1, err, sizeof err) == 0);
    CHECK(tks__asm_check_copies(lea, off4, 1, 1, err, sizeof err) == 0);
    /* ring 0: a snippet may read kernel memory or fault on purpose (the module reports it) */
    CHECK(tks__asm_check_copies(foreign, off3, 1, 0, err, sizeof err) == 0);
}

#if defined(__linux__) && defined(__x86_64__)
/* Whether binutils' assembler is here (what follows assembles); a note when not. */
static int have_as(const char *what)
{
    if (system("as --version >/dev/null 2>&1") == 0)
        return 1;
    printf("  (as missing: %s is not tested)\n", what);
    return 0;
}

/* The init every catalogue snippet runs fits the kernel module's init (the table in ring 0),
 * whatever the CPU offers: AVX-512 (its masks too), AVX, the baseline; legacy SSE forms too. */
static void test_init_size(void)
{
    const uint64_t avx = (uint64_t)1 << TKS__F_AVX | (uint64_t)1 << TKS__F_AVX2;
    const uint64_t feats[3] = {~(uint64_t)0, avx, 0};
    if (!have_as("the init's size"))
        return;
    for (int i = 0; i < 3; i++)
        for (int sse = 0; sse < 2; sse++) {
            char *init = tks__asm_catalog_init(feats[i], sse), err[512];
            const char *v[1] = {init};
            unsigned char *bytes = NULL;
            size_t off[2] = {0, 0};
            CHECK(init != NULL);
            if (!init)
                continue;
            CHECK(tks__asm_assemble(v, 1, TKS_ASM_INTEL, "init", &bytes, off, err,
                                    sizeof err) == 0);
            CHECK(off[1] > 40 && off[1] <= TKS_KMOD_SNIPPET_INIT_MAX);
            if (off[1] > TKS_KMOD_SNIPPET_INIT_MAX)
                printf("  init of features %d, sse %d: %zu bytes\n", i, sse, off[1]);
            free(bytes);
            free(init);
        }
}

static void count_done(void *ctx, size_t k, size_t n)
{
    (void)k, (void)n;
    ++*(size_t *)ctx;
}

/* A batch in ring 0 where the module is not there: the first snippet's refusal is every row's,
 * returned, and nothing after it is run (the table's ring-0 run stops on it). */
static void test_batch_refused(void)
{
    tks__asm_measure_spec spec[8];
    tks__asm_snippet s[3];
    tks__asm_batch_result res[3];
    tks__asm_batch_options o;
    tks__asm_form *all;
    const tks__asm_form *f;
    size_t n, done = 0;
    if (!have_as("a refused ring-0 batch"))
        return;
    CHECK(tks__asm_catalog_forms(~(uint64_t)0, &all, &n) == 0);
    f = named(all, n, "add r64, r64");
    CHECK(f && tks__asm_form_specs(f, spec, 8) == 2);
    if (!f) {
        free(all);
        return;
    }
    for (int i = 0; i < 3; i++)
        CHECK(tks__asm_form_snippet(f, &spec[i % 2], &s[i]) == 0);
    memset(&o, 0, sizeof o);
    o.where = TKS_WHERE_KERNEL_IRQ_OFF;
    o.kernel_device = "/nonexistent/tickscope";
    o.pin_cpu = -1;
    CHECK(tks__asm_measure_batch(s, 3, &o, res, count_done, &done) == TKS_ENODEV);
    CHECK_EQ_U64(done, 1);
    for (int i = 0; i < 3; i++) {
        CHECK(res[i].rc == TKS_ENODEV && strstr(res[i].error, "not loaded") != NULL);
        tks__asm_snippet_free(&s[i]);
    }
    free(all);
}
#endif

/* The run-to-run term: the quantile, and the widening of a run's intervals (synthetic). */
static void test_run_term(void)
{
    double d[5] = {0.4, 0.1, 0.3, 0.0, 0.2};
    tks__asm_entry e[3];
    tks__asm_table t;
    CHECK(fabs(tks__asm_quantile(d, 5, 0.5) - 0.2) < 1e-12);
    CHECK(fabs(tks__asm_quantile(d, 5, 0.98) - 0.392) < 1e-12);
    CHECK(isnan(tks__asm_quantile(d, 0, 0.5)));
    memset(e, 0, sizeof e);
    memset(&t, 0, sizeof t);
    e[0].kind = TKS__KIND_THROUGHPUT;
    e[0].res.cycles = (tks_asm_interval){0.5, 0.49, 0.51};
    e[1].kind = TKS__KIND_LATENCY;
    e[1].res.cycles = (tks_asm_interval){3.0, 2.5, 3.5}; /* already wider: kept */
    e[2] = e[0];
    e[2].from_cache = 1; /* measured in another run: kept */
    t.e = e, t.n = 3;
    t.run_term_thr = 0.2, t.run_term_lat = 0.1;
    tks__asm_table_widen(&t);
    CHECK(fabs(e[0].res.cycles.lo - 0.45) < 1e-12 && fabs(e[0].res.cycles.hi - 0.55) < 1e-12);
    CHECK(e[1].res.cycles.lo == 2.5 && e[1].res.cycles.hi == 3.5);
    /* as doubles (an x87 build evaluates a literal to long double: 0.49L is not 0.49) */
    CHECK_NEAR(e[2].res.cycles.lo, 0.49, 0);
    CHECK_NEAR(e[2].res.cycles.hi, 0.51, 0);
    /* two runs widened alike overlap whenever their figures differ by at most the term */
    {
        tks__asm_entry a = e[0];
        a.from_cache = 0;
        a.res.cycles = (tks_asm_interval){0.5 * 1.19, 0.5 * 1.19, 0.5 * 1.19};
        t.e = &a, t.n = 1;
        tks__asm_table_widen(&t);
        CHECK(a.res.cycles.lo <= e[0].res.cycles.hi);
    }
}

int main(void)
{
    test_sizes();
    test_snippets();
    test_checks();
#if defined(__linux__) && defined(__x86_64__)
    test_init_size();
    test_batch_refused();
#else /* the library assembles x86-64 code on x86-64 Linux only (asm/assemble.c) */
    printf("  (not x86-64 Linux: the init's size and a ring-0 batch are not tested)\n");
#endif
    test_run_term();
    CHECK_DONE();
}
