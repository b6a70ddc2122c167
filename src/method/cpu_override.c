/* SPDX-License-Identifier: MIT */
/* cpu_override.c: TKS_CPU_FEATURES, the CPU's features as the library sees them changed for
 * tests ("-rdtscp,-serialize,vendor=GenuineIntel,family=6,model=207"): parsed once per process
 * and applied by every reader of the features (cpu_override.h). */
#include "method/cpu_override.h"

#include <ctype.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The features of struct tks_cpu_features by name; claimable: "+" may give it where the hardware
 * lacks it, because no instruction depends on it (a property that only changes decisions). */
static const struct {
    const char *name;
    size_t offset;
    int claimable;
} known[] = {
    {"tsc", offsetof(struct tks_cpu_features, tsc), 0},
    {"sse2", offsetof(struct tks_cpu_features, sse2), 0},
    {"rdtscp", offsetof(struct tks_cpu_features, rdtscp), 0},
    {"serialize", offsetof(struct tks_cpu_features, serialize), 0},
    {"rdpid", offsetof(struct tks_cpu_features, rdpid), 0},
    {"hypervisor", offsetof(struct tks_cpu_features, hypervisor), 0},
    {"invariant_tsc", offsetof(struct tks_cpu_features, invariant_tsc), 1},
    {"lfence_serializing", offsetof(struct tks_cpu_features, lfence_serializing), 1},
};
#define N_KNOWN (sizeof known / sizeof known[0])

/* The instruction-set extensions the asm catalogue chooses its forms by (asm/asm_cpuid.c's
 * names, lower case; test_method_override checks that the two lists agree): "-" only. */
static const char *const extensions[] = {
    "x86-64", "sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "lzcnt", "bmi1", "bmi2", "adx",
    "avx", "avx2", "fma", "f16c", "aes", "pclmulqdq", "sha", "movbe", "avx512f", "avx512vl",
    "avx512bw", "avx512dq", "avx512cd", "avx512_vbmi", "avx512_vnni", "avx512_bitalg",
    "avx512_vpopcntdq", "avx512_ifma", "gfni", "vaes", "vpclmulqdq"};

static int extension(const char *name)
{
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++)
        if (strcmp(extensions[i], name) == 0)
            return 1;
    return 0;
}

static int known_index(const char *name)
{
    for (size_t i = 0; i < N_KNOWN; i++)
        if (strcmp(known[i].name, name) == 0)
            return (int)i;
    return -1;
}

static unsigned char *field(struct tks_cpu_features *f, size_t i)
{
    return (unsigned char *)f + known[i].offset;
}

static void refuse(tks__cpu_override *o, const char *item, const char *why)
{
    size_t n = strlen(o->refused);
    snprintf(o->refused + n, sizeof o->refused - n, "%s%s (%s)", n ? "; " : "", item, why);
}

/* A whole number in decimal or 0x hex, 0..4095; -1 otherwise. */
static int number(const char *s)
{
    char *end;
    long v;
    if (!*s)
        return -1;
    v = strtol(s, &end, 0);
    return *end || v < 0 || v > 4095 ? -1 : (int)v;
}

static void item(tks__cpu_override *o, const struct tks_cpu_features *hw, char *it)
{
    char *eq = strchr(it, '=');
    int k;
    if (eq) {
        *eq = 0;
        if (!strcmp(it, "vendor") && strlen(eq + 1) > 0 && strlen(eq + 1) <= 12) {
            snprintf(o->vendor, sizeof o->vendor, "%s", eq + 1);
            return;
        }
        if ((!strcmp(it, "family") || !strcmp(it, "model")) && number(eq + 1) >= 0) {
            *(!strcmp(it, "family") ? &o->family : &o->model) = number(eq + 1);
            return;
        }
        *eq = '=';
        refuse(o, it, "not vendor=NAME (12 characters at most), family=N or model=N");
        return;
    }
    if (it[0] != '-' && it[0] != '+') {
        refuse(o, it, "neither -feature, +feature nor key=value");
        return;
    }
    for (char *c = it + 1; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!it[1]) {
        refuse(o, it, "no feature named");
        return;
    }
    k = known_index(it + 1);
    if (k < 0 && !extension(it + 1)) {
        refuse(o, it, "no such feature (docs/testing.md lists them)");
        return;
    }
    if (it[0] == '-') {
        if (o->n_removed < TKS__CPU_OVERRIDE_NAMES)
            snprintf(o->removed[o->n_removed++], sizeof o->removed[0], "%s", it + 1);
        else
            refuse(o, it, "too many features");
        return;
    }
    if (k >= 0 && known[k].claimable) {
        if (!strcmp(it + 1, "invariant_tsc"))
            o->claim_invariant_tsc = 1;
        else
            o->claim_lfence_serializing = 1;
    } else if (k >= 0 && *field((struct tks_cpu_features *)hw, (size_t)k)) {
        /* The hardware has it: nothing to give. */
    } else {
        refuse(o, it, "the code would execute it: #UD on a CPU without it");
    }
}

void tks__cpu_override_parse(const char *text, const struct tks_cpu_features *hw,
                             tks__cpu_override *o)
{
    char buf[256];
    memset(o, 0, sizeof *o);
    o->family = o->model = -1;
    if (!text || !*text)
        return;
    o->active = 1;
    snprintf(o->text, sizeof o->text, "%s", text);
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *it = strtok_r(buf, ", ", &save); it; it = strtok_r(NULL, ", ", &save))
        item(o, hw, it);
}

void tks__cpu_override_apply(const tks__cpu_override *o, struct tks_cpu_features *f)
{
    if (!o->active)
        return;
    for (size_t i = 0; i < N_KNOWN; i++)
        if (tks__cpu_override_removes(o, known[i].name))
            *field(f, i) = 0;
    if (o->claim_invariant_tsc && !tks__cpu_override_removes(o, "invariant_tsc"))
        f->invariant_tsc = 1;
    if (o->claim_lfence_serializing && !tks__cpu_override_removes(o, "lfence_serializing"))
        f->lfence_serializing = 1;
    if (o->vendor[0]) {
        snprintf(f->vendor, sizeof f->vendor, "%s", o->vendor);
        f->intel = !strcmp(o->vendor, "GenuineIntel");
        f->amd = !strcmp(o->vendor, "AuthenticAMD");
    }
}

int tks__cpu_override_removes(const tks__cpu_override *o, const char *name)
{
    for (unsigned i = 0; i < o->n_removed; i++) {
        size_t k = 0;
        while (name[k] && tolower((unsigned char)name[k]) == o->removed[i][k])
            k++;
        if (!name[k] && !o->removed[i][k])
            return 1;
    }
    return 0;
}

static tks__cpu_override g_override;
static pthread_once_t g_override_once = PTHREAD_ONCE_INIT;

static void read_override(void)
{
    struct tks_cpu_features hw;
    tks_cpu_features_probe(&hw);
    tks__cpu_override_parse(getenv(TKS__CPU_OVERRIDE_ENV), &hw, &g_override);
}

const tks__cpu_override *tks__cpu_override_get(void)
{
    pthread_once(&g_override_once, read_override);
    return &g_override;
}

void tks__cpu_override_text(const tks__cpu_override *o, char *buf, size_t n)
{
    if (!n)
        return;
    buf[0] = 0;
    if (o->active)
        snprintf(buf, n, "%s=%s: the features and identity are what the library was told for a "
                 "test, not this CPU's%s%s", TKS__CPU_OVERRIDE_ENV, o->text,
                 o->refused[0] ? "; refused: " : "", o->refused);
}
