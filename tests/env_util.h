/* SPDX-License-Identifier: MIT */
/* env_util.h: what the environment-check tests share: the fixture trees, and reading the
 * findings back. */
#ifndef TKS_TESTS_ENV_UTIL_H
#define TKS_TESTS_ENV_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw, mkdtemp, sched_setaffinity */
#endif
#include <ftw.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "check.h"
#include "tickscope.h"

#define N_CHECKS 14

/* The same test the library makes, so the expected "build" finding follows the build. */
#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

static char fixtures[4096];
static tks_env_finding out[TKS_ENV_MAX];
static size_t n_out;

static inline void find_fixtures(void)
{
    const char *src = getenv("TKS_SOURCE_DIR");
    const char *slash;
    if (src && *src) {
        snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures/env", src);
        return;
    }
    /* Run by hand: the fixtures sit next to this file. */
    slash = strrchr(__FILE__, '/');
    if (slash)
        snprintf(fixtures, sizeof fixtures, "%.*s/fixtures/env", (int)(slash - __FILE__), __FILE__);
    else
        snprintf(fixtures, sizeof fixtures, "fixtures/env");
}

static tks_env_input input(const char *root, int cpu, int hypervisor, const char *vendor,
                           int invariant, int optimized)
{
    tks_env_input in;
    in.root = root;
    in.cpu = cpu;
    in.hypervisor = hypervisor;
    in.hypervisor_vendor = vendor;
    in.invariant_tsc = invariant;
    in.optimized_build = optimized;
    return in;
}

static inline size_t run_root(const char *root, int cpu, int hypervisor, const char *vendor,
                       int invariant, int optimized)
{
    tks_env_input in = input(root, cpu, hypervisor, vendor, invariant, optimized);
    tks_env_findings_free(out, n_out);
    n_out = 0;
    memset(out, 0x5a, sizeof out); /* garbage, so an unwritten field shows */
    n_out = tks_env_check(&in, out, TKS_ENV_MAX);
    return n_out;
}

static inline size_t run_tree(const char *tree, int cpu, int hypervisor, const char *vendor,
                       int invariant, int optimized)
{
    char root[4200];
    snprintf(root, sizeof root, "%s/%s", fixtures, tree);
    return run_root(root, cpu, hypervisor, vendor, invariant, optimized);
}

static inline const tks_env_finding *find(const char *id)
{
    for (size_t i = 0; i < n_out; i++)
        if (strcmp(out[i].id, id) == 0)
            return &out[i];
    return NULL;
}

/* The id of a finding's first code ("" when none). */
static inline const char *code_of(const tks_diags *ds)
{
    return ds->n ? tks_diag_info_of(ds->items[0].code)->id : "";
}

/* Nonzero when ds holds the code whose id this is. */
static inline int has_code(const tks_diags *ds, const char *id)
{
    int c = tks_diag_code_from_id(id);
    return c >= 0 && tks_diags_has(ds, (enum tks_diag_code)c);
}

/* One finding: its status, its first code (NULL: not checked) and its remedy's code (NULL: not
 * checked; "": none). Codes, not wording: the words are the report's. Says what it saw when it
 * fails. */
static inline int expect_(int line, const char *id, int status, const char *code, const char *fix)
{
    const tks_env_finding *f = find(id);
    int ok = f && f->status == status && (!code || !strcmp(code_of(&f->found), code)) &&
             (!fix || (fix[0] ? has_code(&f->advice, fix) : f->advice.n == 0));
    if (!ok && f)
        fprintf(stderr, "line %d: %s: %s %s / %s; expected %s with %s / %s\n", line, id,
                tks_env_status_name(f->status), code_of(&f->found), code_of(&f->advice),
                tks_env_status_name(status), code ? code : "", fix ? fix : "");
    else if (!ok)
        fprintf(stderr, "line %d: no finding \"%s\"\n", line, id);
    return ok;
}
#define EXPECT(id, status, code, fix) CHECK(expect_(__LINE__, id, status, code, fix))

/* The value name of the first diagnostic of finding id (what was found, then the advice) that
 * carries it: its number, or (str) its name; NaN / NULL when none does. */
static inline const tks_diag *diag_with(const char *id, const char *name)
{
    const tks_env_finding *f = find(id);
    const tks_diags *lists[2];
    if (!f)
        return NULL;
    lists[0] = &f->found, lists[1] = &f->advice;
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            char n[64], kind[16];
            for (size_t k = 0;
                 tks__diag_spec(lists[l]->items[i].code, k, n, sizeof n, kind, sizeof kind) == 0;
                 k++)
                if (!strcmp(n, name))
                    return &lists[l]->items[i];
        }
    return NULL;
}
static inline double value_of(const char *id, const char *name)
{
    const tks_diag *d = diag_with(id, name);
    return d ? tks_diag_number(d, name) : NAN;
}
static inline const char *string_of(const char *id, const char *name)
{
    const tks_diag *d = diag_with(id, name);
    char n[64], kind[16];
    for (size_t k = 0; d && tks__diag_spec(d->code, k, n, sizeof n, kind, sizeof kind) == 0; k++)
        if (!strcmp(n, name))
            return d->values[k].str;
    return NULL;
}
#define EXPECT_VALUE(id, name, v) CHECK(value_of(id, name) == (double)(v))
#define EXPECT_STRING(id, name, s) CHECK(string_of(id, name) && !strcmp(string_of(id, name), s))

/* What every run must satisfy, whatever the tree: known statuses, unique non-empty ids, a code
 * for each finding (env.*), remedies (env.*.fix) exactly when something is not OK, and every
 * message renders on one line. */
static inline void check_shape(void)
{
    for (size_t i = 0; i < n_out; i++) {
        const tks_env_finding *f = &out[i];
        CHECK(memchr(f->id, 0, sizeof f->id) != NULL);
        CHECK(f->id[0] != 0 && f->found.n >= 1);
        CHECK(strncmp(code_of(&f->found), "env.", 4) == 0);
        CHECK(f->status >= TKS_ENV_OK && f->status <= TKS_ENV_UNKNOWN);
        CHECK((f->status == TKS_ENV_OK) == (f->advice.n == 0));
        for (size_t k = 0; k < f->advice.n; k++) {
            const char *fix = tks_diag_info_of(f->advice.items[k].code)->id;
            CHECK(strlen(fix) > 4 && !strcmp(fix + strlen(fix) - 4, ".fix"));
        }
        /* a warning's code is a warning, and only a warning's */
        CHECK((f->status == TKS_ENV_WARN) ==
              (tks_diag_info_of(f->found.items[0].code)->severity == TKS_SEV_WARNING));
        for (int l = 0; l < 2; l++)
            for (size_t k = 0; k < (l ? f->advice.n : f->found.n); k++) {
                char *msg = tks_diag_message(&(l ? &f->advice : &f->found)->items[k]);
                CHECK(msg && msg[0] && !strchr(msg, '\n'));
                free(msg);
            }
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(out[j].id, f->id) != 0);
    }
}

static inline void expect_build(int optimized)
{
#ifdef ASAN
    (void)optimized;
    EXPECT("build", TKS_ENV_WARN, "env.build_asan", "env.build_asan.fix");
#else
    if (optimized)
        EXPECT("build", TKS_ENV_OK, "env.build_optimised", "");
    else
        EXPECT("build", TKS_ENV_WARN, "env.build_unoptimised", "env.build_unoptimised.fix");
#endif
}

#endif /* TKS_TESTS_ENV_UTIL_H */
