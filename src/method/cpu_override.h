/* SPDX-License-Identifier: MIT */
/* cpu_override.h: the CPU's features as the library sees them, changed for tests by the
 * environment variable TKS_CPU_FEATURES (docs/testing.md, "Another CPU's features"): parsed
 * once, here, and applied where the features are read (features.c), where the CPU's identity
 * is (platform/identity.c) and where the instruction catalogue picks its forms (asm/asm_cpuid.c).
 * A feature the hardware has can be taken away; one it lacks is never given where the code
 * would execute it (RDTSCP, SERIALIZE, an instruction-set extension: #UD). */
#ifndef TKS_METHOD_CPU_OVERRIDE_H
#define TKS_METHOD_CPU_OVERRIDE_H

#include <stddef.h>

#include "tickscope/clock.h"

#define TKS__CPU_OVERRIDE_ENV "TKS_CPU_FEATURES"
#define TKS__CPU_OVERRIDE_NAMES 32

typedef struct tks__cpu_override {
    int active;                  /* the variable was set and not empty */
    char text[256];              /* its value, as given */
    char refused[256];           /* the items not applied, each with why ("" when none) */
    char removed[TKS__CPU_OVERRIDE_NAMES][24]; /* names taken away, lower case ("rdtscp") */
    unsigned n_removed;
    unsigned char claim_invariant_tsc, claim_lfence_serializing; /* "+": no instruction gated */
    char vendor[13];             /* "" when not given */
    int family, model;           /* -1 when not given */
} tks__cpu_override;

/* Parse text (NULL or "": nothing overridden) against the hardware's features hw into o: every
 * item is applied or refused with its reason in o->refused; never fails. Pure: tests call it. */
void tks__cpu_override_parse(const char *text, const struct tks_cpu_features *hw,
                             tks__cpu_override *o);
/* f (the hardware's features) as o says the library should see them. */
void tks__cpu_override_apply(const tks__cpu_override *o, struct tks_cpu_features *f);
/* 1 if o takes away the feature called name (case-insensitive: "AVX512F", "sse4.1", "rdtscp"). */
int tks__cpu_override_removes(const tks__cpu_override *o, const char *name);
/* What o does, in one sentence for a report ("TKS_CPU_FEATURES=...: the features and identity
 * ... not this CPU's; refused: ..."); "" when o is not active. */
void tks__cpu_override_text(const tks__cpu_override *o, char *buf, size_t n);
/* This process's override, from the environment, parsed once (never NULL; o->active 0 when the
 * variable is not set). */
const tks__cpu_override *tks__cpu_override_get(void);

#endif
