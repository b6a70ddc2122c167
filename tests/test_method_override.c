/* SPDX-License-Identifier: MIT */
/* test_method_override.c: TKS_CPU_FEATURES (src/method/cpu_override.c), the CPU's features as
 * the library sees them changed for tests. Its items parsed and applied to made-up hardware:
 * what "-" takes away, what "+" may give (properties only) and what it refuses (instructions
 * the hardware lacks); the default method each set of features gets, by the method list's order
 * of preference (lfence 1, lfence_rdtsc and serialize 2, mfence 3, rdtscp 4, cpuid 5, rdtsc 6);
 * that every extension the asm catalogue knows can be taken away. Then, on x86-64 Linux, this
 * process under an override set before the library's first look: the features, the identity and
 * the catalogue's choice of forms, each held to what /proc/cpuinfo says the hardware has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/catalog.h"
#include "check.h"
#include "method/cpu_override.h"
#include "tickscope.h"

#define OVERRIDE "-serialize,-avx,-avx2,-avx512f,-avx512vl,-avx512bw,-avx512dq,-avx512cd," \
                 "-avx512_vbmi,-avx512_vnni,-avx512_bitalg,-avx512_vpopcntdq,-avx512_ifma," \
                 "-vaes,-vpclmulqdq,-fma,-f16c,+lfence_serializing,vendor=GenuineIntel,"     \
                 "family=6,model=0xcf"

/* A made-up x86 CPU: TSC and SSE2 always; the rest as given. */
static struct tks_cpu_features hw(int rdtscp, int serialize, int lfence_ser, int invariant)
{
    struct tks_cpu_features f;
    memset(&f, 0, sizeof f);
    snprintf(f.vendor, sizeof f.vendor, "AuthenticAMD");
    f.amd = 1;
    f.tsc = f.sse2 = 1;
    f.rdtscp = (unsigned char)rdtscp;
    f.serialize = (unsigned char)serialize;
    f.lfence_serializing = (unsigned char)lfence_ser;
    f.invariant_tsc = (unsigned char)invariant;
    return f;
}

/* hw as text says the library should see it. */
static struct tks_cpu_features seen(struct tks_cpu_features f, const char *text, tks__cpu_override *o)
{
    tks__cpu_override_parse(text, &f, o);
    tks__cpu_override_apply(o, &f);
    return f;
}

static void test_parse(void)
{
    tks__cpu_override o;
    struct tks_cpu_features f;
    f = seen(hw(1, 1, 1, 1), NULL, &o);
    CHECK(!o.active && f.rdtscp && f.serialize);
    f = seen(hw(1, 1, 1, 1), "-RDTSCP, -serialize,-invariant_tsc", &o);
    CHECK(o.active && !f.rdtscp && !f.serialize && !f.invariant_tsc && f.sse2 && f.tsc);
    CHECK_STR(o.refused, "");
    /* "+" gives a property no instruction depends on, never an instruction. */
    f = seen(hw(0, 0, 0, 0), "+invariant_tsc,+lfence_serializing,+rdtscp,+serialize,+avx2", &o);
    CHECK(f.invariant_tsc && f.lfence_serializing && !f.rdtscp && !f.serialize);
    CHECK(strstr(o.refused, "+rdtscp (") && strstr(o.refused, "+serialize (") &&
          strstr(o.refused, "+avx2 ("));
    /* ... and where the hardware has it, "+" changes nothing. */
    f = seen(hw(1, 0, 1, 1), "+rdtscp", &o);
    CHECK(f.rdtscp);
    CHECK_STR(o.refused, "");
    /* Another vendor, family and model; what the parser cannot read is refused, said so. */
    f = seen(hw(1, 0, 1, 1), "vendor=GenuineIntel,family=6,model=0xcf,-nosuch,rdtscp,model=x", &o);
    CHECK_STR(f.vendor, "GenuineIntel");
    CHECK(f.intel && !f.amd && o.family == 6 && o.model == 207);
    CHECK(strstr(o.refused, "-nosuch (") && strstr(o.refused, "rdtscp (") &&
          strstr(o.refused, "model=x ("));
    CHECK(f.rdtscp);
    /* Taken away twice, and given after being taken away: away. */
    f = seen(hw(1, 1, 1, 1), "-invariant_tsc,+invariant_tsc", &o);
    CHECK(!f.invariant_tsc);
    CHECK(tks__cpu_override_removes(&o, "INVARIANT_TSC") && !tks__cpu_override_removes(&o, "rdtscp"));
}

#if defined(TKS_ARCH_X86)
static void test_default(void)
{
    tks__cpu_override o;
    struct tks_cpu_features f;
    f = seen(hw(1, 1, 1, 1), "", &o);
    CHECK_EQ_U64(tks_method_default(&f), TKS_METHOD_LFENCE);
    f = seen(hw(1, 1, 1, 1), "-rdtscp", &o);
    CHECK_EQ_U64(tks_method_default(&f), TKS_METHOD_LFENCE_RDTSC);
    CHECK(!tks_method_available(TKS_METHOD_LFENCE, &f) && !tks_method_available(TKS_METHOD_SERIALIZE, &f));
    /* LFENCE not dispatch-serialising: no method whose fences rely on it. */
    f = seen(hw(1, 1, 1, 1), "-lfence_serializing", &o);
    CHECK_EQ_U64(tks_method_default(&f), TKS_METHOD_RDTSCP);
    f = seen(hw(1, 1, 1, 1), "-lfence_serializing,-rdtscp", &o);
    CHECK_EQ_U64(tks_method_default(&f), TKS_METHOD_CPUID);
    f = seen(hw(1, 0, 0, 1), "+lfence_serializing", &o);
    CHECK_EQ_U64(tks_method_default(&f), TKS_METHOD_LFENCE);
    f = seen(hw(1, 1, 1, 1), "-tsc", &o);
    CHECK_EQ_U64(tks_method_default(&f), TKS_METHOD_COUNT);
}
#endif

/* Every extension the catalogue chooses forms by can be taken away by its name. */
static void test_catalogue_names(void)
{
    struct tks_cpu_features f = hw(1, 1, 1, 1);
    for (int i = 0; i < TKS__F_COUNT; i++) {
        char item[40];
        tks__cpu_override o;
        snprintf(item, sizeof item, "-%s", tks__asm_feat_name(i));
        tks__cpu_override_parse(item, &f, &o);
        if (o.refused[0] || !tks__cpu_override_removes(&o, tks__asm_feat_name(i)))
            printf("  not taken away: %s (%s)\n", item, o.refused);
        CHECK(!o.refused[0] && tks__cpu_override_removes(&o, tks__asm_feat_name(i)));
    }
}

#if defined(__linux__) && defined(TKS_ARCH_X86)
/* Whether /proc/cpuinfo's first flags line names flag. */
static int cpuinfo_flag(const char *flag)
{
    static char line[8192];
    FILE *fp;
    char want[64];
    if (!line[0]) {
        if (!(fp = fopen("/proc/cpuinfo", "r")))
            return -1;
        while (fgets(line + 1, sizeof line - 2, fp))
            if (!strncmp(line + 1, "flags", 5))
                break;
        fclose(fp);
        line[0] = ' ';
        line[strcspn(line, "\n")] = ' ';
    }
    snprintf(want, sizeof want, " %s ", flag);
    return strstr(line, want) != NULL;
}

static void test_process_catalogue(void);

/* This process, under OVERRIDE (set in main before the library's first look). */
static void test_process(void)
{
    const struct tks_cpu_features *f = tks_cpu_features_get();
    tks_cpu_identity id;
    if (cpuinfo_flag("sse2") < 0) {
        CHECK_SKIP("no /proc/cpuinfo to hold the override against the hardware");
        return;
    }
    CHECK_STR(tks_cpu_features_override(), OVERRIDE);
    CHECK_EQ_U64(f->rdtscp, cpuinfo_flag("rdtscp")); /* not overridden: the hardware's */
    CHECK_EQ_U64(f->sse2, cpuinfo_flag("sse2"));
    CHECK(!f->serialize && f->lfence_serializing && f->intel && !f->amd);
    CHECK_EQ_U64(tks_method_default(f), cpuinfo_flag("rdtscp") ? TKS_METHOD_LFENCE : TKS_METHOD_LFENCE_RDTSC);
    CHECK(tks_cpu_identity_probe(&id) == 0);
    CHECK_STR(id.vendor, "GenuineIntel");
    CHECK(id.family == 6 && id.model == 207);
    CHECK(strncmp(id.brand, "(TKS_CPU_FEATURES ", 18) == 0);
    test_process_catalogue();
}
#endif

#if defined(__linux__) && defined(__x86_64__)
/* The catalogue: no vector extension beyond SSE, the others as /proc/cpuinfo has them. */
static void test_process_catalogue(void)
{
    tks__asm_form *forms;
    size_t n;
    uint64_t feats = tks__asm_cpu_feats();
    int wide = 0;
    CHECK(!(feats & ((uint64_t)1 << TKS__F_AVX)) && !(feats & ((uint64_t)1 << TKS__F_AVX2)) &&
          !(feats & ((uint64_t)1 << TKS__F_AVX512F)) && !(feats & ((uint64_t)1 << TKS__F_FMA)));
    CHECK_EQ_U64((feats >> TKS__F_SSE3) & 1, cpuinfo_flag("pni"));
    CHECK_EQ_U64((feats >> TKS__F_POPCNT) & 1, cpuinfo_flag("popcnt"));
    CHECK_EQ_U64((feats >> TKS__F_BMI2) & 1, cpuinfo_flag("bmi2"));
    CHECK(tks__asm_catalog_forms(feats, &forms, &n) == 0);
    for (size_t i = 0; i < n; i++)
        if (strstr(forms[i].name, "ymm") || strstr(forms[i].name, "zmm"))
            wide++;
    CHECK_EQ_U64(wide, 0); /* a ymm or zmm register needs AVX */
    CHECK(n > 200);
    free(forms);
}
#elif defined(__linux__) && defined(TKS_ARCH_X86)
static void test_process_catalogue(void)
{
    CHECK_SKIP("hardware: the asm catalogue runs x86-64 code; this build is for i386");
}
#endif

int main(void)
{
    /* Before any call into the library: the override is read once, at the first look. */
    setenv(TKS__CPU_OVERRIDE_ENV, OVERRIDE, 1);
    test_parse();
#if defined(TKS_ARCH_X86)
    test_default();
#endif
    test_catalogue_names();
#if defined(__linux__) && defined(TKS_ARCH_X86)
    test_process();
#else
    CHECK_SKIP("hardware: the process under an override reads x86 CPUID and /proc/cpuinfo");
#endif
    CHECK_DONE();
}
